/**
 * The service plan: which binding serves each protocol, which operations the service has,
 * their method names, and what each method takes and returns (one shape on every binding).
 *
 * Binding choice: ports are taken in document order; the first port of each protocol wins and
 * every later port of the same protocol is recorded in `notes` (shown in the generated
 * descriptor's JSDoc), never dropped silently.
 *
 * Method input/output: the SOAP wrapper element's value when the operation has a SOAP binding
 * in the service. An operation bound only to HTTP GET/POST gets synthesised types:
 * `<Method>Input` (one required property per HTTP input part, named like the part) and
 * `<Method>Output` (one optional property `<Operation>Result` holding the mimeXml element's
 * value) — the same shape ASMX gives the SOAP wrappers, so adding a SOAP binding later keeps
 * the property names.
 */
import {
  clark,
  type Binding,
  type BindingOperation,
  type Port,
  type Protocol,
  type QName,
  type Service,
  type WsdlModel,
} from '../model.js';
import { allocateMethodNames, candidatesFor, serviceFolder, serviceIdentifiers, toTypeIdentifier } from '../naming.js';
import { refuse } from './failure.js';
import type { SchemaPlan } from './schema-plan.js';
import { resolveValue, type PlannedValue } from './values.js';

export interface PlannedBinding {
  readonly binding: Binding;
  readonly port: Port;
}

export interface SyntheticField {
  readonly prop: string;
  readonly value: PlannedValue;
  readonly optional: boolean;
}

export type MethodShape =
  | { readonly kind: 'element'; readonly element: string }
  | { readonly kind: 'synthetic'; readonly tsName: string; readonly fields: readonly SyntheticField[] }
  | { readonly kind: 'empty' };

export interface PlannedOperation {
  /** Identity across bindings: operation name + input (Message)name. */
  readonly key: string;
  readonly name: string;
  readonly method: string;
  readonly documentation?: string;
  readonly input: MethodShape;
  readonly output: MethodShape;
  /** The binding operations that carry it, in binding order. */
  readonly bound: readonly { readonly binding: Binding; readonly operation: BindingOperation }[];
}

export interface ServicePlan {
  readonly service: Service;
  readonly ident: string;
  readonly folder: string;
  readonly names: ReturnType<typeof serviceIdentifiers>;
  readonly bindings: readonly PlannedBinding[];
  readonly operations: readonly PlannedOperation[];
  readonly notes: readonly string[];
}

export const SOAP_PROTOCOLS: ReadonlySet<Protocol> = new Set(['soap11', 'soap12']);

export function operationKey(op: BindingOperation): string {
  return `${op.name}\u0000${op.inputName ?? op.portTypeOperation.inputName ?? ''}`;
}

export function chooseBindings(model: WsdlModel, service: Service): { bindings: PlannedBinding[]; notes: string[] } {
  const bindings: PlannedBinding[] = [];
  const notes: string[] = [];
  for (const port of service.ports) {
    const binding = model.bindings.find((b) => clark(b.name) === clark(port.binding));
    if (binding === undefined) refuse('MISSING_REFERENCE', `port ${port.name} refers to missing binding ${clark(port.binding)}`, port.source);
    const chosen = bindings.find((b) => b.binding.protocol === binding.protocol);
    if (chosen !== undefined) {
      notes.push(
        `port ${port.name} (binding ${binding.name.local}) is not used: ${binding.protocol} is served by port ` +
          `${chosen.port.name} (binding ${chosen.binding.name.local}), the first in document order`,
      );
      continue;
    }
    bindings.push({ binding, port });
  }
  return { bindings, notes };
}

export function planService(model: WsdlModel, service: Service, schema: SchemaPlan, folder: string): ServicePlan {
  const { bindings, notes } = chooseBindings(model, service);
  const grouped = groupOperations(bindings);
  const methods = allocateMethodNames(
    [...grouped.entries()].map(([key, bound]) => {
      const op = bound[0]!.operation;
      const messageName = op.inputName ?? op.portTypeOperation.inputName;
      return { key, operation: op.name, ...(messageName !== undefined ? { messageName } : {}) };
    }),
  );
  const ident = toTypeIdentifier(service.name.local);
  const operations = [...grouped.entries()].map(([key, bound]) =>
    planOperation(model, schema, key, methods.get(key)!.name, bound),
  );
  return { service, ident, folder, names: serviceIdentifiers(ident), bindings, operations, notes };
}

function groupOperations(bindings: readonly PlannedBinding[]): Map<string, PlannedOperation['bound'][number][]> {
  const grouped = new Map<string, PlannedOperation['bound'][number][]>();
  for (const { binding } of bindings) {
    for (const operation of binding.operations) {
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
  const common = { key, name: first.name, method, bound, ...(documentation !== undefined ? { documentation } : {}) };
  if (soap !== undefined) {
    return {
      ...common,
      input: soapShape(model, soap.binding, soap.operation, 'input'),
      output: soapShape(model, soap.binding, soap.operation, 'output'),
    };
  }
  const http = bound[0]!;
  return { ...common, ...syntheticShapes(model, schema, http.operation, method) };
}

/** The document/literal body element of a SOAP operation's input or output. */
export function soapShape(model: WsdlModel, binding: Binding, op: BindingOperation, direction: 'input' | 'output'): MethodShape {
  const style = op.style ?? binding.style ?? 'document';
  const where = `operation ${op.name} of binding ${binding.name.local}`;
  if (style === 'rpc') refuse('UNSUPPORTED_CONSTRUCT', `rpc style (${where}) is not supported; only document/literal`, op.source);
  const body = direction === 'input' ? op.inputBody : op.outputBody;
  if (body?.use === 'encoded') refuse('UNSUPPORTED_CONSTRUCT', `use="encoded" (${where}) is not supported; only document/literal`, op.source);
  const messageName = direction === 'input' ? op.portTypeOperation.input : op.portTypeOperation.output;
  if (messageName === undefined) return { kind: 'empty' };
  const message = findMessage(model, messageName, op);
  const parts = message.parts.filter((p) => body?.parts === undefined || body.parts.includes(p.name));
  if (parts.length === 0) return { kind: 'empty' };
  if (parts.length > 1) refuse('UNSUPPORTED_CONSTRUCT', `message ${message.name.local} has ${parts.length} body parts (${where}); document/literal needs one`, message.source);
  const part = parts[0]!;
  if (part.element === undefined) refuse('UNSUPPORTED_CONSTRUCT', `part ${part.name} of message ${message.name.local} names a type, not an element (${where})`, message.source);
  const element = clark(part.element);
  if (model.schema.elements[element] === undefined) refuse('MISSING_REFERENCE', `element ${element} (message ${message.name.local}) is not declared`, message.source);
  return { kind: 'element', element };
}

export function findMessage(model: WsdlModel, name: QName, op: BindingOperation) {
  const message = model.messages.find((m) => clark(m.name) === clark(name));
  if (message === undefined) refuse('MISSING_REFERENCE', `message ${clark(name)} (operation ${op.name}) is not declared`, op.source);
  return message;
}

function syntheticShapes(model: WsdlModel, schema: SchemaPlan, op: BindingOperation, method: string): { input: MethodShape; output: MethodShape } {
  const inputName = op.portTypeOperation.input;
  const outputName = op.portTypeOperation.output;
  const ns = model.targetNamespace;
  const input: MethodShape =
    inputName === undefined
      ? { kind: 'empty' }
      : {
          kind: 'synthetic',
          tsName: schema.scope.claim(candidatesFor(`${method}Input`, 'synthetic', ns)),
          fields: findMessage(model, inputName, op).parts.map((part) => ({ prop: part.name, value: partValue(model, schema, part, op), optional: false })),
        };
  if (outputName === undefined) return { input, output: { kind: 'empty' } };
  const outPart = httpResultPart(model, op, outputName);
  const output: MethodShape = {
    kind: 'synthetic',
    tsName: schema.scope.claim(candidatesFor(`${method}Output`, 'synthetic', ns)),
    fields: [{ prop: `${op.name}Result`, value: partValue(model, schema, outPart, op), optional: true }],
  };
  return { input, output };
}

export function partValue(model: WsdlModel, schema: SchemaPlan, part: { name: string; element?: QName; type?: import('../model.js').TypeUse }, op: BindingOperation): PlannedValue {
  if (part.element !== undefined) {
    const element = schema.elements.get(clark(part.element));
    if (element === undefined) refuse('MISSING_REFERENCE', `element ${clark(part.element)} (part ${part.name}) is not declared`, op.source);
    return element.value;
  }
  if (part.type !== undefined) return resolveValue(part.type, schema.lookup, op.source);
  return refuse('UNSUPPORTED_CONSTRUCT', `part ${part.name} has neither element nor type`, op.source);
}

/** The message part an HTTP operation answers with (`mime:mimeXml part=...`). */
export function httpResultPart(model: WsdlModel, op: BindingOperation, outputName: QName) {
  const out = op.httpOutput;
  if (out === undefined || out.kind !== 'mimeXml') {
    refuse('UNSUPPORTED_CONSTRUCT', `HTTP operation ${op.name} answers ${out === undefined ? 'nothing declared' : `mime:content ${out.type}`}; only mime:mimeXml is supported`, op.source);
  }
  const message = findMessage(model, outputName, op);
  const part = out.part !== undefined ? message.parts.find((p) => p.name === out.part) : message.parts[0];
  if (part === undefined) refuse('MISSING_REFERENCE', `part ${out.part ?? '(first)'} of message ${message.name.local} is missing`, message.source);
  return part;
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
