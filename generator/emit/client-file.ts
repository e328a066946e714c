/** `client.ts`: `<Service>Client`, one typed method per operation over the runtime's ServiceClient. */
import type { MethodDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import { StructureKind } from './kinds.js';
import { quoteString } from '../naming.js';
import { cleanDocumentation, jsDoc } from './docs.js';
import { operationDocs } from './operation-docs.js';
import { OperationTypes } from './operation-types.js';
import type { SchemaPlan } from './schema-plan.js';
import type { PlannedOperation, ServicePlan } from './service-plan.js';

export function clientStatements(schema: SchemaPlan, service: ServicePlan, runtimeImport: string): StatementStructures[] {
  const types = new OperationTypes(schema);
  const methods = service.operations.map((op) => clientMethod(op, types));
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

function clientMethod(op: PlannedOperation, types: OperationTypes): OptionalKind<MethodDeclarationStructure> {
  const { input, output } = types.of(op);
  const method = quoteString(op.method);
  return {
    name: op.method,
    parameters: [...(input !== undefined ? [{ name: 'input', type: input }] : []), { name: 'options', type: 'CallOptions', hasQuestionToken: true }],
    returnType: `Promise<${output}>`,
    docs: operationDocs(op),
    statements: [`return this.#client.call<${input ?? 'undefined'}, ${output}>(${method}, ${input !== undefined ? 'input' : 'undefined'}, options);`],
  };
}
