/**
 * A WSDL as a person reads it: services, ports with their protocol, binding and address, and
 * every operation's signature (parameters and result with their types, SOAPAction or HTTP path,
 * documentation). `smskit inspect` prints it; `--json` gives the same data. Built from the
 * descriptor, so the signatures are exactly what the generated code and the runtime carry.
 */
import type {
  BindingDescriptor,
  FieldDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { describeService } from './index.js';
import { planModel } from '../plan/index.js';
import type { ServicePlan } from '../plan/service.js';
import type { WsdlModel } from '../model/index.js';

export interface MemberDescription {
  readonly name: string;
  readonly type: string;
  readonly optional: boolean;
}

export interface OperationDescription {
  readonly name: string;
  readonly method: string;
  readonly soapAction?: string;
  readonly httpPath?: string;
  readonly input: readonly MemberDescription[];
  readonly output: readonly MemberDescription[];
  readonly inputHeaders: readonly MemberDescription[];
  readonly outputHeaders: readonly MemberDescription[];
  /**
   * The portType's declared faults: name, the element (or type) of its message's part, and why
   * its detail is not typed when it is not (plan/faults.ts; HTTP GET/POST carry no detail).
   */
  readonly faults: readonly { readonly name: string; readonly detail: string; readonly untyped?: string }[];
  readonly documentation?: string;
}

export interface PortDescription {
  /** The wsdl:port name (ASMX names it after its binding). */
  readonly port: string;
  readonly binding: string;
  readonly protocol: string;
  readonly address?: string;
  readonly operations: readonly OperationDescription[];
  readonly omitted: readonly { readonly name: string; readonly reason: string }[];
}

export interface ServiceDescription {
  readonly name: string;
  readonly targetNamespace: string;
  readonly documentation?: string;
  readonly ports: readonly PortDescription[];
}

export interface ContractDescription {
  readonly file: string;
  readonly services: readonly ServiceDescription[];
}

export function describeContract(model: WsdlModel): ContractDescription {
  const plan = planModel(model);
  const services = model.services.map((service, i) => {
    const d = describeService(model, plan.schema, plan.services[i]!);
    const untypedOf = untypedFaults(plan.services[i]!);
    return {
      name: service.name.local,
      targetNamespace: d.targetNamespace,
      ...(service.documentation !== undefined ? { documentation: service.documentation.trim() } : {}),
      ports: d.bindings.map((b) => ({
        port: service.ports.find((p) => p.binding.local === b.name)?.name ?? b.name,
        ...describePort(d, b, model, untypedOf),
      })),
    };
  });
  return { file: model.file, services };
}

/** Per method, why each of its faults that is not typed is not (the plan's reason). */
function untypedFaults(service: ServicePlan): (method: string, fault: string) => string | undefined {
  const reasons = new Map(
    service.operations.flatMap((op) =>
      op.faults.flatMap((f) => ('untyped' in f ? [[`${op.method}\u0000${f.name}`, f.untyped] as const] : [])),
    ),
  );
  return (method, fault) => reasons.get(`${method}\u0000${fault}`);
}

function describePort(
  d: ServiceDescriptor,
  binding: BindingDescriptor,
  model: WsdlModel,
  untypedOf: (method: string, fault: string) => string | undefined,
): Omit<PortDescription, 'port'> {
  const modelBinding = model.bindings.find((b) => b.name.local === binding.name);
  const soap = binding.protocol === 'soap11' || binding.protocol === 'soap12';
  const faultsOf = (op: OperationDescriptor) =>
    (modelBinding?.operations.find((o) => o.name === op.name)?.portTypeOperation.faults ?? []).map((f) => {
      const part = model.messages.find((m) => m.name.ns === f.message.ns && m.name.local === f.message.local)?.parts[0];
      const detail = part?.element?.local ?? (part?.type?.kind === 'named' ? part.type.name.local : f.message.local);
      const untyped = soap ? untypedOf(op.method, f.name) : 'HTTP GET/POST carry no fault detail';
      return { name: f.name, detail, ...(untyped === undefined ? {} : { untyped }) };
    });
  return {
    binding: binding.name,
    protocol: binding.protocol,
    ...(binding.address !== undefined ? { address: binding.address } : {}),
    operations: binding.operations.map((op) => ({ ...describeOperation(d, op), faults: faultsOf(op) })),
    omitted: (binding.omitted ?? []).map((o) => ({ name: o.name, reason: o.reason })),
  };
}

function describeOperation(d: ServiceDescriptor, op: OperationDescriptor): Omit<OperationDescription, 'faults'> {
  return {
    name: op.name,
    method: op.method,
    ...(op.soapAction !== undefined ? { soapAction: op.soapAction } : {}),
    ...(op.httpPath !== undefined ? { httpPath: op.httpPath } : {}),
    input: bodyMembers(d, op.input),
    output: bodyMembers(d, op.output),
    inputHeaders: op.inputHeaders.map((h) => headerMember(d, h.prop, h.element)),
    outputHeaders: op.outputHeaders.map((h) => headerMember(d, h.prop, h.element)),
    ...(op.documentation !== undefined ? { documentation: op.documentation.trim() } : {}),
  };
}

function bodyMembers(d: ServiceDescriptor, body: OperationDescriptor['input']): MemberDescription[] {
  switch (body.kind) {
    case 'empty':
      return [];
    case 'params':
      return body.params.map((p) => ({ name: p.name, type: typeText(d, p.value), optional: false }));
    case 'xml-result': {
      const element = d.elements[body.element];
      return [{ name: body.field, type: element === undefined ? '?' : typeText(d, element.value), optional: true }];
    }
    case 'element': {
      const element = d.elements[body.element];
      if (element === undefined) return [];
      const type = element.value.kind === 'type' ? d.types[element.value.type] : undefined;
      // A wrapper element (ASMX's document/literal style) is shown as its fields.
      if (type?.kind === 'complex' && type.arrayItem === undefined && type.text === undefined)
        return type.fields.map((f) => fieldMember(d, f));
      return [{ name: element.name.local, type: typeText(d, element.value), optional: false }];
    }
  }
}

function fieldMember(d: ServiceDescriptor, field: FieldDescriptor): MemberDescription {
  const item = field.group !== undefined ? groupText(d, field) : typeText(d, field.value);
  const nil = field.nillable ? ' | null' : '';
  const type = field.maxOccurs === 1 ? `${item}${nil}` : `${parenthesised(`${item}${nil}`)}[]`;
  return { name: field.prop, type, optional: field.minOccurs === 0 || field.inChoice === true };
}

/** A repeating group's occurrence: `(key, value?)` for a sequence, `(circle | square)` for a choice. */
function groupText(d: ServiceDescriptor, field: FieldDescriptor): string {
  const type = field.value.kind === 'type' ? d.types[field.value.type] : undefined;
  if (type?.kind !== 'complex') return '?';
  const members = type.fields.map(
    (m) =>
      `${m.name.local}${field.group === 'sequence' && m.minOccurs === 0 ? '?' : ''}${m.maxOccurs === 1 ? '' : '[]'}`,
  );
  return `(${members.join(field.group === 'choice' ? ' | ' : ', ')})`;
}

function parenthesised(type: string): string {
  return type.includes(' | ') && !/^\(.*\)$/.test(type) ? `(${type})` : type;
}

function headerMember(d: ServiceDescriptor, prop: string, element: string): MemberDescription {
  const value = d.elements[element]?.value;
  return { name: prop, type: value === undefined ? '?' : typeText(d, value), optional: true };
}

/** A short type expression: XSD names for simple values, type names, `T[]`, subtypes, enumerations. */
function typeText(d: ServiceDescriptor, value: ValueDescriptor): string {
  if (value.kind === 'xml') return 'xml';
  if (value.kind === 'primitive')
    return value.enumeration !== undefined ? enumerationText(value.enumeration) : value.xsd;
  const type = d.types[value.type];
  if (type === undefined) return value.type;
  if (type.kind === 'simple') return type.list === true ? `list of ${type.name?.local ?? 'string'}` : type.xsd;
  if (type.arrayItem !== undefined)
    return `${parenthesised(`${typeText(d, type.arrayItem.value)}${type.arrayItem.nillable ? ' | null' : ''}`)}[]`;
  const name = type.name?.local ?? value.type.replace(/^element:\{[^}]*\}/, '');
  const derived = (type.derived ?? [])
    .map((key) => d.types[key])
    .filter((t) => t?.kind === 'complex' && t.abstract !== true);
  const variants = [...(type.abstract === true ? [] : [name]), ...derived.map((t) => t!.name?.local ?? '?')];
  return derived.length > 0 ? `${name} (${variants.join(' | ')})` : name;
}

function enumerationText(values: readonly string[]): string {
  const shown = values.length > 6 ? [...values.slice(0, 6), '…'] : values;
  return shown.map((v) => (v === '…' ? v : `'${v}'`)).join(' | ');
}

/** The description as text, one operation per line with its binding facts indented below. */
export function formatDescription(description: ContractDescription): string {
  const lines: string[] = [`WSDL ${description.file}`];
  for (const service of description.services) {
    lines.push('', `Service ${service.name} (${service.targetNamespace})`);
    if (service.documentation !== undefined) lines.push(`  ${service.documentation.replace(/\s+/g, ' ')}`);
    for (const port of service.ports) {
      const named = port.port === port.binding ? port.port : `${port.port} (binding ${port.binding})`;
      lines.push('', `  Port ${named}: ${port.protocol}${port.address !== undefined ? ` at ${port.address}` : ''}`);
      for (const op of port.operations) {
        lines.push(`    ${signature(op)}`);
        lines.push(
          `      ${op.soapAction !== undefined ? `SOAPAction "${op.soapAction}"` : `${port.protocol === 'http-get' ? 'GET' : 'POST'} ${op.httpPath ?? ''}`}`,
        );
        if (op.inputHeaders.length > 0) lines.push(`      headers in: ${members(op.inputHeaders)}`);
        if (op.outputHeaders.length > 0) lines.push(`      headers out: ${members(op.outputHeaders)}`);
        if (op.faults.length > 0) lines.push(`      faults: ${op.faults.map(faultText).join(', ')}`);
        if (op.documentation !== undefined) lines.push(`      ${op.documentation.replace(/\s+/g, ' ')}`);
      }
      for (const o of port.omitted) lines.push(`    (${o.name} is not available here: ${o.reason})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function signature(op: OperationDescription): string {
  const name = op.method === op.name ? op.name : `${op.name} [method ${op.method}]`;
  const result = op.output.length === 0 ? 'void' : members(op.output);
  return `${name}(${members(op.input)}) -> ${result}`;
}

function members(list: readonly MemberDescription[]): string {
  return list.map((m) => `${m.name}${m.optional ? '?' : ''}: ${m.type}`).join(', ');
}

/** `OrderRefused`, `OrderRefused (OrderRefusedFault)`, and why its detail is untyped when it is. */
function faultText(f: OperationDescription['faults'][number]): string {
  const named = f.name === f.detail ? f.name : `${f.name} (${f.detail})`;
  return f.untyped === undefined ? named : `${named} [untyped: ${f.untyped}]`;
}
