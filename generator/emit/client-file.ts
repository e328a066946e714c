/**
 * `client.ts`: `<Service>Client`, one typed method per operation over the runtime's
 * ServiceClient, and `<Service>ClientOptions`: the constructor's options, typed by the WSDL.
 */
import type { MethodDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import { StructureKind } from './kinds.js';
import { quoteString } from '../../contract/naming.js';
import { cleanDocumentation, jsDoc } from './docs.js';
import { faultsText, omittedText, operationDocs } from './operation-docs.js';
import { methodTypeImports, OperationTypes } from './operation-types.js';
import { runtime, runtimeImportDeclaration } from './runtime-imports.js';
import type { SchemaPlan } from '../../contract/plan/schema.js';
import type { PlannedBinding, PlannedOperation, ServicePlan } from '../../contract/plan/service.js';

export function clientStatements(
  schema: SchemaPlan,
  service: ServicePlan,
  runtimeImport: string,
): StatementStructures[] {
  const types = new OperationTypes(schema);
  const methods = service.operations.flatMap((op) =>
    clientMethods(op, service, types, faultsText(schema, op, 'client')),
  );
  return [...clientImports(service, types, runtimeImport), clientOptionsAlias(service), clientClass(service, methods)];
}

/** The runtime, the descriptor, and the types and XmlElement only where the methods use them. */
function clientImports(service: ServicePlan, types: OperationTypes, runtimeImport: string): StatementStructures[] {
  return [
    runtimeImportDeclaration(runtimeImport, [runtime.ServiceClient, runtime.CallOptions, runtime.ClientOptions]),
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: './descriptor.js',
      namedImports: [service.names.descriptor],
    },
    ...methodTypeImports(types, runtimeImport),
  ];
}

/** `<Service>Client`: the typed methods over a ServiceClient built from the descriptor, and `close()`. */
function clientClass(service: ServicePlan, methods: OptionalKind<MethodDeclarationStructure>[]): StatementStructures {
  return {
    kind: StructureKind.Class,
    isExported: true,
    name: service.names.client,
    docs: jsDoc(
      cleanDocumentation(service.service.documentation),
      `Client of service \`${service.service.name.local}\`. Choose the binding with \`options.binding\` (${service.bindings.map((b) => `\`${b.binding.protocol}\``).join(', ')}).`,
    ),
    properties: [{ name: '#client', isReadonly: true, type: runtime.ServiceClient.name }],
    ctors: [
      {
        parameters: [{ name: 'options', type: service.names.clientOptions }],
        statements: [`this.#client = new ${runtime.ServiceClient.name}(${service.names.descriptor}, options);`],
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
  };
}

/**
 * `binding` allows only the protocols the service's WSDL has a binding for, so a client asking
 * for another one does not compile. `url` may be left out where the WSDL gives the binding's
 * port an http(s) address (the runtime then uses it); elsewhere it is required.
 */
function clientOptionsAlias(service: ServicePlan): StatementStructures {
  const protocols = (bindings: readonly PlannedBinding[]): string =>
    bindings.map((b) => quoteString(b.binding.protocol)).join(' | ');
  const addressed = service.bindings.filter((b) => isHttpUrl(b.port.address));
  const unaddressed = service.bindings.filter((b) => !isHttpUrl(b.port.address));
  const members = [
    ...(addressed.length > 0 ? [`${runtime.ClientOptions.name}<${protocols(addressed)}>`] : []),
    ...(unaddressed.length > 0 ? [`(${runtime.ClientOptions.name}<${protocols(unaddressed)}> & { url: string })`] : []),
  ];
  const defaults = addressed.map((b) => `- ${b.binding.protocol}: ${b.port.address}`);
  return {
    kind: StructureKind.TypeAlias,
    isExported: true,
    name: service.names.clientOptions,
    type: members.length > 0 ? members.join(' | ') : 'never',
    docs: jsDoc(
      `Options of \`${service.names.client}\`: \`binding\` is one of the bindings the WSDL gives service \`${service.service.name.local}\`.`,
      addressed.length > 0
        ? `\`url\` defaults to the port address in the WSDL:\n${defaults.join('\n')}`
        : '`url` is required: the WSDL gives no http(s) port address.',
    ),
  };
}

function isHttpUrl(address: string | undefined): boolean {
  if (address === undefined) return false;
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function clientMethods(
  op: PlannedOperation,
  service: ServicePlan,
  types: OperationTypes,
  faults: string | undefined,
): OptionalKind<MethodDeclarationStructure>[] {
  const { input, output, requestHeaders, responseHeaders } = types.of(op);
  const method = quoteString(op.method);
  const parameters = [
    ...(input !== undefined ? [{ name: 'input', type: input }] : []),
    {
      name: 'options',
      type: requestHeaders !== undefined ? `${runtime.CallOptions.name}<${requestHeaders}>` : runtime.CallOptions.name,
      hasQuestionToken: true,
    },
  ];
  const args = `${method}, ${input !== undefined ? 'input' : 'undefined'}, options`;
  const call: OptionalKind<MethodDeclarationStructure> = {
    name: op.method,
    parameters,
    returnType: `Promise<${output}>`,
    docs: operationDocs(op, faults, omittedText(op, service)),
    statements: [`return this.#client.call<${input ?? 'undefined'}, ${output}>(${args});`],
  };
  if (op.headersMethod === undefined || responseHeaders === undefined) return [call];
  const withHeaders: OptionalKind<MethodDeclarationStructure> = {
    name: op.headersMethod,
    parameters,
    returnType: `Promise<{ output: ${output}; soapHeaders: ${responseHeaders}; }>`,
    docs: jsDoc(`\`${op.method}\`, also returning the SOAP header blocks of the response (none over HTTP GET/POST).`),
    statements: [
      `return this.#client.callWithHeaders<${input ?? 'undefined'}, ${output}, ${responseHeaders}>(${args});`,
    ],
  };
  return [call, withHeaders];
}
