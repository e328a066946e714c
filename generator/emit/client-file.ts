/** `client.ts`: `<Service>Client`, one typed method per operation over the runtime's ServiceClient. */
import type { MethodDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import { StructureKind } from './kinds.js';
import { quoteString } from '../naming.js';
import { cleanDocumentation, jsDoc } from './docs.js';
import { omittedText, operationDocs } from './operation-docs.js';
import { OperationTypes } from './operation-types.js';
import type { SchemaPlan } from './schema-plan.js';
import type { PlannedOperation, ServicePlan } from './service-plan.js';

export function clientStatements(schema: SchemaPlan, service: ServicePlan, runtimeImport: string): StatementStructures[] {
  const types = new OperationTypes(schema);
  const methods = service.operations.flatMap((op) => clientMethods(op, service, types));
  const protocols = service.bindings.map((b) => `\`${b.binding.protocol}\``).join(', ');
  return [
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: runtimeImport, namedImports: ['ServiceClient', { name: 'CallOptions', isTypeOnly: true }, { name: 'ClientOptions', isTypeOnly: true }] },
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: './descriptor.js', namedImports: [service.names.descriptor] },
    ...(types.imports.length > 0 ? [{ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: './types.js', namedImports: types.imports }] : []),
    ...(types.usesXml ? [{ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: runtimeImport, namedImports: ['XmlElement'] }] : []),
    {
      kind: StructureKind.Class,
      isExported: true,
      name: service.names.client,
      docs: jsDoc(
        cleanDocumentation(service.service.documentation),
        `Client of service \`${service.service.name.local}\`. Choose the binding with \`options.binding\` (${protocols}).`,
      ),
      properties: [{ name: '#client', isReadonly: true, type: 'ServiceClient' }],
      ctors: [
        {
          parameters: [{ name: 'options', type: 'ClientOptions' }],
          statements: [`this.#client = new ServiceClient(${service.names.descriptor}, options);`],
        },
      ],
      methods: [
        ...methods,
        {
          name: 'close',
          returnType: 'Promise<void>',
          docs: jsDoc('Closes the underlying connection pool.'),
          statements: ['return this.#client.close();'],
        },
      ],
    },
  ];
}

function clientMethods(op: PlannedOperation, service: ServicePlan, types: OperationTypes): OptionalKind<MethodDeclarationStructure>[] {
  const { input, output, requestHeaders, responseHeaders } = types.of(op);
  const method = quoteString(op.method);
  const parameters = [
    ...(input !== undefined ? [{ name: 'input', type: input }] : []),
    { name: 'options', type: requestHeaders !== undefined ? `CallOptions<${requestHeaders}>` : 'CallOptions', hasQuestionToken: true },
  ];
  const args = `${method}, ${input !== undefined ? 'input' : 'undefined'}, options`;
  const call: OptionalKind<MethodDeclarationStructure> = {
    name: op.method,
    parameters,
    returnType: `Promise<${output}>`,
    docs: operationDocs(op, omittedText(op, service)),
    statements: [`return this.#client.call<${input ?? 'undefined'}, ${output}>(${args});`],
  };
  if (op.headersMethod === undefined || responseHeaders === undefined) return [call];
  const withHeaders: OptionalKind<MethodDeclarationStructure> = {
    name: op.headersMethod,
    parameters,
    returnType: `Promise<{ output: ${output}; soapHeaders: ${responseHeaders}; }>`,
    docs: jsDoc(`\`${op.method}\`, also returning the SOAP header blocks of the response (none over HTTP GET/POST).`),
    statements: [`return this.#client.callWithHeaders<${input ?? 'undefined'}, ${output}, ${responseHeaders}>(${args});`],
  };
  return [call, withHeaders];
}
