/**
 * `server.ts`: `<Service>Handlers` (one method per operation) and `create<Service>Listener`,
 * which serves every binding of the descriptor from that one handler set.
 */
import type { MethodSignatureStructure, OptionalKind, StatementStructures } from 'ts-morph';
import { StructureKind } from './kinds.js';
import { propertyKey } from '../../contract/naming.js';
import { jsDoc } from './docs.js';
import { faultsText, omittedText, operationDocs } from './operation-docs.js';
import { methodTypeImports, OperationTypes } from './operation-types.js';
import { runtime, runtimeImportDeclaration } from './runtime-imports.js';
import type { SchemaPlan } from '../../contract/plan/schema.js';
import type { PlannedOperation, ServicePlan } from '../../contract/plan/service.js';

export function serverStatements(
  schema: SchemaPlan,
  service: ServicePlan,
  runtimeImport: string,
): StatementStructures[] {
  const types = new OperationTypes(schema);
  const signatures = service.operations.map((op) =>
    handlerSignature(op, service, types, faultsText(schema, op, 'server')),
  );
  return [
    ...serverImports(service, types, runtimeImport),
    handlersInterface(service, signatures),
    listenerFactory(service, types),
  ];
}

function serverImports(service: ServicePlan, types: OperationTypes, runtimeImport: string): StatementStructures[] {
  return [
    runtimeImportDeclaration(runtimeImport, [
      runtime.createRequestListener,
      runtime.OperationHandler,
      runtime.RequestContext,
      runtime.ServerOptions,
    ]),
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: './descriptor.js',
      namedImports: [service.names.descriptor],
    },
    ...methodTypeImports(types, runtimeImport),
  ];
}

/** `<Service>Handlers`: what an implementation of the service provides, one method per operation. */
function handlersInterface(
  service: ServicePlan,
  signatures: OptionalKind<MethodSignatureStructure>[],
): StatementStructures {
  return {
    kind: StructureKind.Interface,
    isExported: true,
    name: service.names.handlers,
    docs: jsDoc(
      `Handlers of service \`${service.service.name.local}\`: one method per operation, the same on every binding. ` +
        'Throw the runtime `ServiceError` to refuse a request (Client/Sender fault), or `DeclaredFault` for a fault the operation declares; anything else becomes a Server/Receiver fault. A one-way operation sends no fault (its refusals are logged).',
    ),
    methods: signatures,
  };
}

/** `create<Service>Listener`: the handlers as the runtime's operation table, served on every binding. */
function listenerFactory(service: ServicePlan, types: OperationTypes): StatementStructures {
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: service.names.listenerFactory,
    docs: jsDoc(
      `A \`node:http\` request listener serving every binding of \`${service.service.name.local}\` from one handler set.`,
    ),
    parameters: [
      { name: 'handlers', type: service.names.handlers },
      { name: 'options', type: runtime.ServerOptions.name, hasQuestionToken: true },
    ],
    returnType: `ReturnType<typeof ${runtime.createRequestListener.name}>`,
    statements: [
      `const table: Record<string, ${runtime.OperationHandler.name}> = {\n${service.operations.map((op) => `  ${handlerEntry(op, types)}`).join('\n')}\n};`,
      `return ${runtime.createRequestListener.name}(${service.names.descriptor}, table, options);`,
    ],
  };
}

function handlerSignature(
  op: PlannedOperation,
  service: ServicePlan,
  types: OperationTypes,
  faults: string | undefined,
): OptionalKind<MethodSignatureStructure> {
  const { input, output } = types.of(op);
  return {
    name: op.method,
    parameters: [
      ...(input !== undefined ? [{ name: 'input', type: input }] : []),
      { name: 'context', type: contextType(op, types) },
    ],
    returnType: `${output} | Promise<${output}>`,
    docs: operationDocs(op, faults, omittedText(op, service)),
  };
}

/**
 * `RequestContext`, typed by the operation's SOAP header blocks when it declares any: the
 * handler reads `context.soapHeaders` and sets `context.responseSoapHeaders`.
 */
function contextType(op: PlannedOperation, types: OperationTypes): string {
  const { requestHeaders, responseHeaders } = types.of(op);
  if (requestHeaders === undefined && responseHeaders === undefined) return runtime.RequestContext.name;
  return `${runtime.RequestContext.name}<${requestHeaders ?? 'Record<string, never>'}, ${responseHeaders ?? 'Record<string, never>'}>`;
}

/** Binds through `handlers.<method>(...)` so class-based handler sets keep their `this`. */
function handlerEntry(op: PlannedOperation, types: OperationTypes): string {
  const context = contextType(op, types);
  // The runtime hands every handler the untyped context; the descriptor guarantees its headers.
  const typed = context === runtime.RequestContext.name ? 'context' : `context as ${context}`;
  const call = op.input.kind === 'empty' ? `handlers.${op.method}(${typed})` : `handlers.${op.method}(input, ${typed})`;
  const params = op.input.kind === 'empty' ? '_input, context' : 'input, context';
  return `${propertyKey(op.method)}: (${params}) => ${call},`;
}
