/**
 * The service plan: which binding serves each protocol, which operations the service has,
 * their method names, and what each method takes and returns (one shape on every binding).
 *
 * Binding choice (port-bindings.ts): ports are taken in document order; the first port of each
 * protocol wins and every later port of the same protocol is recorded in `notes` (shown in the
 * generated descriptor's JSDoc), never dropped silently; a port with no binding to carry is left
 * out with a warning.
 *
 * Method input/output: the SOAP wrapper element's value when the operation has a SOAP binding
 * in the service. An operation bound only to HTTP GET/POST gets synthesised types:
 * `<Method>Input` (one required property per HTTP input part, named like the part) and
 * `<Method>Output` (one optional property `<Operation>Result` holding the mimeXml element's
 * value) — the same shape ASMX gives the SOAP wrappers, so adding a SOAP binding later keeps
 * the property names.
 */
import { planFaults, type PlannedFault } from './faults.js';
import type { Binding, BindingOperation, ModelWarning, SoapHeaderUse, Service, WsdlModel } from '../model/index.js';
import {
  allocateMethodNames,
  candidatesFor,
  CLIENT_MEMBERS,
  NameScope,
  serviceFolder,
  serviceIdent,
  serviceIdentifiers,
  toTypeIdentifier,
} from '../naming.js';
import type { GeneratorError } from '../errors.js';
import {
  findMessage,
  headerProps,
  httpOutputIsEmpty,
  type HeaderProp,
  httpResultPart,
  partValue,
  headerPartsWarning,
  soapShape,
  SOAP_PROTOCOLS,
  type MethodShape,
} from './message-shapes.js';

export type { MethodShape, SyntheticField } from './message-shapes.js';
export type { OmittedOperation, PlannedBinding } from './port-bindings.js';
import { chooseBindings, type PlannedBinding } from './port-bindings.js';
import type { SchemaPlan } from './schema.js';

export interface PlannedOperation {
  /** Identity across bindings: operation name + input (Message)name. */
  readonly key: string;
  readonly name: string;
  readonly method: string;
  readonly documentation?: string;
  readonly input: MethodShape;
  readonly output: MethodShape;
  /** SOAP header blocks of the request and of the response (from the first SOAP binding). */
  readonly requestHeaders?: PlannedHeaders;
  readonly responseHeaders?: PlannedHeaders;
  /** The client method that also returns the response's SOAP headers (set when it declares any). */
  readonly headersMethod?: string;
  /** The binding operations that carry it, in binding order. */
  readonly bound: readonly { readonly binding: Binding; readonly operation: BindingOperation }[];
  /** Its wsdl:faults (of its first SOAP binding's portType operation; none without one). */
  readonly faults: readonly PlannedFault[];
}

/** The SOAP header blocks of one direction, declared as one interface in types.ts. */
export interface PlannedHeaders {
  readonly tsName: string;
  readonly blocks: readonly HeaderProp[];
}

export interface ServicePlan {
  readonly service: Service;
  readonly ident: string;
  readonly folder: string;
  readonly names: ReturnType<typeof serviceIdentifiers>;
  readonly bindings: readonly PlannedBinding[];
  readonly operations: readonly PlannedOperation[];
  readonly notes: readonly string[];
  /** Operations left out of a binding, or of the service, and why (file and line of each). */
  readonly warnings: readonly ModelWarning[];
  /** The refusal each port left out would be: the file is refused with one when nothing is left. */
  readonly portRefusals: readonly GeneratorError[];
}

export function operationKey(op: BindingOperation): string {
  return `${op.name}\u0000${op.inputName ?? op.portTypeOperation.inputName ?? ''}`;
}

export function planService(model: WsdlModel, service: Service, schema: SchemaPlan, folder: string): ServicePlan {
  const chosen = chooseBindings(model, service, schema);
  const bindings = chosen.bindings;
  const grouped = groupOperations(bindings);
  const methods = allocateMethodNames(
    [...grouped.entries()].map(([key, bound]) => {
      const op = bound[0]!.operation;
      const messageName = op.inputName ?? op.portTypeOperation.inputName;
      return { key, operation: op.name, ...(messageName !== undefined ? { messageName } : {}) };
    }),
  );
  const ident = serviceIdent(service.name.local);
  const operations = nameHeaderMethods(
    [...grouped.entries()].map(([key, bound]) => planOperation(model, schema, key, methods.get(key)!.name, bound)),
  );
  const warnings = [
    ...chosen.warnings,
    ...omissionWarnings(bindings, grouped),
    ...typedPartWarnings(model, bindings),
    ...bindings.flatMap(({ binding, operations }) =>
      operations.flatMap((op) =>
        (['input', 'output'] as const).flatMap((direction) => headerPartsWarning(model, binding, op, direction) ?? []),
      ),
    ),
  ];
  return {
    service,
    ident,
    folder,
    names: serviceIdentifiers(ident),
    bindings,
    operations,
    notes: chosen.notes,
    warnings,
    portRefusals: chosen.portCauses,
  };
}

function omissionWarnings(bindings: readonly PlannedBinding[], grouped: ReadonlyMap<string, unknown>): ModelWarning[] {
  const warnings: ModelWarning[] = [];
  for (const { binding, omitted } of bindings) {
    for (const { operation, reason } of omitted) {
      const elsewhere = grouped.has(operationKey(operation));
      warnings.push({
        code: elsewhere ? 'OPERATION_OMITTED_FROM_BINDING' : 'OPERATION_OMITTED',
        message:
          `operation ${operation.name} is left out of binding ${binding.name.local} (${binding.protocol}): ${reason}` +
          (elsewhere ? '' : '; no other binding carries it, so the generated code has no method for it'),
        source: operation.source,
      });
    }
  }
  return warnings;
}

/** One warning per document-style body part declared by `type`: carried, but outside WS-I (R2204). */
function typedPartWarnings(model: WsdlModel, bindings: readonly PlannedBinding[]): ModelWarning[] {
  return bindings.flatMap(({ binding, operations }) =>
    !SOAP_PROTOCOLS.has(binding.protocol)
      ? []
      : operations.flatMap((operation) =>
          (['input', 'output'] as const).flatMap((direction) => {
            const shape = soapShape(model, binding, operation, direction);
            if (shape.kind !== 'typed-part') return [];
            return [
              {
                code: 'TYPED_BODY_PART',
                message: `operation ${operation.name} of binding ${binding.name.local}: the ${direction} part ${shape.part.name} is declared by type in document style (WS-I BP R2204 wants an element); carried as the element <${shape.part.name}> without namespace`,
                source: operation.source,
              },
            ];
          }),
        ),
  );
}

function groupOperations(bindings: readonly PlannedBinding[]): Map<string, PlannedOperation['bound'][number][]> {
  const grouped = new Map<string, PlannedOperation['bound'][number][]>();
  for (const { binding, operations } of bindings) {
    for (const operation of operations) {
      const key = operationKey(operation);
      const list = grouped.get(key) ?? [];
      list.push({ binding, operation });
      grouped.set(key, list);
    }
  }
  return grouped;
}

function planOperation(
  model: WsdlModel,
  schema: SchemaPlan,
  key: string,
  method: string,
  bound: readonly PlannedOperation['bound'][number][],
): PlannedOperation {
  const first = bound[0]!.operation;
  const soap = bound.find((b) => SOAP_PROTOCOLS.has(b.binding.protocol));
  const documentation = first.documentation ?? first.portTypeOperation.documentation;
  const faults = soap === undefined ? [] : planFaults(model, schema, soap.operation.portTypeOperation);
  const common = {
    key,
    name: first.name,
    method,
    bound,
    faults,
    ...(documentation !== undefined ? { documentation } : {}),
  };
  if (soap !== undefined) {
    return {
      ...common,
      input: methodShape(model, schema, soap, method, 'input'),
      output: methodShape(model, schema, soap, method, 'output'),
      ...optional(
        'requestHeaders',
        plannedHeaders(model, schema, method, 'RequestHeaders', soap.operation.inputHeaders),
      ),
      ...optional(
        'responseHeaders',
        plannedHeaders(model, schema, method, 'ResponseHeaders', soap.operation.outputHeaders),
      ),
    };
  }
  const http = bound[0]!;
  return { ...common, ...syntheticShapes(model, schema, http.operation, method) };
}

/** What a method takes or returns over SOAP: an rpc wrapper becomes an interface of its parts. */
function methodShape(
  model: WsdlModel,
  schema: SchemaPlan,
  soap: PlannedOperation['bound'][number],
  method: string,
  direction: 'input' | 'output',
): MethodShape {
  const shape = soapShape(model, soap.binding, soap.operation, direction);
  if (shape.kind === 'typed-part')
    return { kind: 'part', element: shape.element, value: partValue(schema, shape.part, soap.operation) };
  if (shape.kind !== 'rpc') return shape;
  const suffix = direction === 'input' ? 'Request' : 'Response';
  return {
    kind: 'synthetic',
    tsName: schema.scope.claim(candidatesFor(`${toTypeIdentifier(method)}${suffix}`, 'synthetic', shape.wrapper.ns)),
    fields: shape.parts.map(({ part }) => ({
      prop: part.name,
      value: partValue(schema, part, soap.operation),
      optional: false,
    })),
    rpc: shape.wrapper,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function plannedHeaders(
  model: WsdlModel,
  schema: SchemaPlan,
  method: string,
  suffix: string,
  headers: readonly SoapHeaderUse[],
): PlannedHeaders | undefined {
  if (headers.length === 0) return undefined;
  return {
    tsName: schema.scope.claim(candidatesFor(`${method}${suffix}`, 'synthetic', model.targetNamespace)),
    blocks: headerProps(headers),
  };
}

/** `<method>WithHeaders` for every operation whose response declares SOAP headers. */
function nameHeaderMethods(operations: readonly PlannedOperation[]): PlannedOperation[] {
  const scope = new NameScope([...CLIENT_MEMBERS, ...operations.map((op) => op.method)]);
  return operations.map((op) =>
    op.responseHeaders !== undefined ? { ...op, headersMethod: scope.claim([`${op.method}WithHeaders`]) } : op,
  );
}

function syntheticShapes(
  model: WsdlModel,
  schema: SchemaPlan,
  op: BindingOperation,
  method: string,
): { input: MethodShape; output: MethodShape } {
  const inputName = op.portTypeOperation.input;
  const outputName = op.portTypeOperation.output;
  const ns = model.targetNamespace;
  const input: MethodShape =
    inputName === undefined
      ? { kind: 'empty' }
      : {
          kind: 'synthetic',
          tsName: schema.scope.claim(candidatesFor(`${method}Input`, 'synthetic', ns)),
          fields: findMessage(model, inputName, op).parts.map((part) => ({
            prop: part.name,
            value: partValue(schema, part, op),
            optional: false,
          })),
        };
  if (outputName === undefined || httpOutputIsEmpty(model, op, outputName)) return { input, output: { kind: 'empty' } };
  const outPart = httpResultPart(model, op, outputName);
  const output: MethodShape = {
    kind: 'synthetic',
    tsName: schema.scope.claim(candidatesFor(`${method}Output`, 'synthetic', ns)),
    fields: [{ prop: `${op.name}Result`, value: partValue(schema, outPart, op), optional: true }],
  };
  return { input, output };
}

export function uniqueFolders(services: readonly Service[]): string[] {
  const scope = new Set<string>();
  return services.map((s) => {
    const base = serviceFolder(s.name.local);
    let folder = base;
    for (let n = 2; scope.has(folder); n++) folder = `${base}-${n}`;
    scope.add(folder);
    return folder;
  });
}
