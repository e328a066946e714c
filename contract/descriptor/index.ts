/**
 * `toDescriptor(model, service?)`: the wire facts of one wsdl:service as the runtime reads them
 * (runtime/descriptor.ts). A pure function of the model: the generated `descriptor.ts` embeds
 * its result, and the conformance runner calls it at run time, so both agree by construction.
 *
 * - One binding per protocol: the first port of each protocol in document order (later ones
 *   are listed in `describeModel(...).notes`).
 * - Types: every complex schema type, keyed as in plan/schema.ts; extension flattened
 *   (base fields first); simple types collapse to their primitive + enumeration; ArrayOfX has
 *   `arrayItem` (and no `fields`); anyType / xs:any / DataSet content is `{ kind: 'xml' }`.
 * - SOAP document/literal bodies are `{ kind: 'element' }`; HTTP GET/POST inputs are `params`
 *   from the message parts in order; HTTP `mime:mimeXml` output is `xml-result` whose `field` is
 *   the single result field of the operation's SOAP output wrapper (or of the synthesised
 *   `<Method>Output` when the operation has no SOAP binding, see plan/service.ts).
 */
import type {
  BindingDescriptor,
  BodyDescriptor,
  ComplexTypeDescriptor,
  ElementDescriptor,
  FaultDescriptor,
  FieldDescriptor,
  HeaderDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
  TypeDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { clark, type BindingOperation, type QName, type SoapHeaderUse, type WsdlModel } from '../model/index.js';
import { refuse } from '../errors.js';
import type { PlannedAttribute, PlannedField } from '../plan/members.js';
import { planModel, type ModelPlan } from '../plan/index.js';
import type { PlannedComplex, SchemaPlan } from '../plan/schema.js';
import { typedFaults } from '../plan/faults.js';
import {
  findMessage,
  headerProps,
  httpOutputIsEmpty,
  httpResultPart,
  partValue,
  type RpcShape,
  soapShape,
  SOAP_PROTOCOLS,
} from '../plan/message-shapes.js';
import { operationKey, type PlannedBinding, type PlannedOperation, type ServicePlan } from '../plan/service.js';
import type { PlannedValue } from '../plan/values.js';

export function toDescriptor(model: WsdlModel, service?: QName): ServiceDescriptor {
  const plan = planModel(model);
  const target = pickService(model, plan, service);
  return describeService(model, plan.schema, target);
}

function pickService(model: WsdlModel, plan: ModelPlan, service: QName | undefined): ServicePlan {
  const source = { file: model.file, line: 1 };
  if (plan.services.length === 0) refuse('UNSUPPORTED_CONSTRUCT', 'the WSDL declares no wsdl:service', source);
  if (service === undefined) return plan.services[0]!;
  const found = plan.services.find((s) => clark(s.service.name) === clark(service));
  return found ?? refuse('MISSING_REFERENCE', `service ${clark(service)} is not declared`, source);
}

/** The rpc/literal wrappers of a service's bindings: an element and a type each, keyed `rpc:{ns}local`. */
interface RpcWrappers {
  readonly elements: Record<string, ElementDescriptor>;
  readonly types: Record<string, TypeDescriptor>;
}

export function describeService(model: WsdlModel, schema: SchemaPlan, plan: ServicePlan): ServiceDescriptor {
  const byKey = new Map(plan.operations.map((op) => [op.key, op] as const));
  const rpc: RpcWrappers = { elements: {}, types: {} };
  const bindings = plan.bindings.map((b) => describeBinding(model, schema, b, byKey, rpc));
  return {
    name: plan.service.name.local,
    targetNamespace: model.targetNamespace,
    bindings,
    elements: { ...describeElements(schema), ...rpc.elements },
    types: { ...describeTypes(schema), ...rpc.types },
  };
}

function describeBinding(
  model: WsdlModel,
  schema: SchemaPlan,
  planned: PlannedBinding,
  ops: ReadonlyMap<string, PlannedOperation>,
  rpc: RpcWrappers,
): BindingDescriptor {
  const { binding, port } = planned;
  const plannedOf = (op: BindingOperation): PlannedOperation | undefined =>
    [...ops.values()].find((o) => o.bound.some((b) => b.operation === op));
  const operations = planned.operations.map((op) => {
    const operation = plannedOf(op)!;
    return SOAP_PROTOCOLS.has(binding.protocol)
      ? describeSoapOperation(model, schema, planned, op, operation, rpc)
      : describeHttpOperation(model, schema, op, operation);
  });
  // Only operations the service still has (carried by another binding) are worth naming.
  const omitted = planned.omitted.flatMap(({ operation, reason }) => {
    const method = ops.get(operationKey(operation))?.method;
    return method === undefined ? [] : [{ name: operation.name, method, reason }];
  });
  return {
    name: binding.name.local,
    protocol: binding.protocol,
    ...(port.address !== undefined ? { address: port.address } : {}),
    operations,
    ...(omitted.length > 0 ? { omitted } : {}),
  };
}

function describeSoapOperation(
  model: WsdlModel,
  schema: SchemaPlan,
  planned: PlannedBinding,
  op: BindingOperation,
  operation: PlannedOperation,
  rpc: RpcWrappers,
): OperationDescriptor {
  const body = (direction: 'input' | 'output'): BodyDescriptor => {
    const shape = soapShape(model, planned.binding, op, direction);
    if (shape.kind === 'rpc') return { kind: 'element', element: describeRpcWrapper(schema, op, shape, rpc) };
    if (shape.kind === 'typed-part') {
      // Keyed by message and part: two messages may name a part alike with different types.
      const key = `part:${clark(messageOf(op, direction))}/${shape.part.name}`;
      rpc.elements[key] = {
        name: qname(shape.element),
        value: toValue(partValue(schema, shape.part, op)),
        nillable: false,
      };
      return { kind: 'element', element: key };
    }
    return shape.kind === 'element' ? { kind: 'element', element: shape.element } : { kind: 'empty' };
  };
  return {
    name: op.name,
    method: operation.method,
    soapAction: op.soapAction ?? '',
    input: body('input'),
    output: body('output'),
    inputHeaders: describeHeaders(model, op, op.inputHeaders),
    outputHeaders: describeHeaders(model, op, op.outputHeaders),
    ...(op.portTypeOperation.output === undefined ? { oneWay: true } : {}),
    ...declaredFaults(operation),
    ...documentation(op),
  };
}

/** The faults the runtime reads and writes: the typed ones (plan/faults.ts says which and why). */
function declaredFaults(operation: PlannedOperation): { faults?: FaultDescriptor[] } {
  const faults = typedFaults(operation.faults);
  return faults.length > 0 ? { faults } : {};
}

function messageOf(op: BindingOperation, direction: 'input' | 'output'): QName {
  return (direction === 'input' ? op.portTypeOperation.input : op.portTypeOperation.output)!;
}

/**
 * An rpc/literal wrapper as the runtime carries a document/literal body: an element (the
 * wrapper) of an anonymous complex type whose fields are the part accessors, in part order,
 * each required and single, the properties named after the parts.
 */
function describeRpcWrapper(schema: SchemaPlan, op: BindingOperation, shape: RpcShape, rpc: RpcWrappers): string {
  const key = `rpc:${clark(shape.wrapper)}`;
  rpc.types[key] = {
    kind: 'complex',
    fields: shape.parts.map(({ part, accessor }) => ({
      prop: part.name,
      name: qname(accessor),
      value: toValue(partValue(schema, part, op)),
      minOccurs: 1,
      maxOccurs: 1,
      nillable: false,
    })),
    attributes: [],
  };
  rpc.elements[key] = { name: qname(shape.wrapper), value: { kind: 'type', type: key }, nillable: false };
  return key;
}

function describeHeaders(
  model: WsdlModel,
  op: BindingOperation,
  headers: readonly SoapHeaderUse[],
): HeaderDescriptor[] {
  for (const h of headers) {
    if (h.use === 'encoded')
      refuse('UNSUPPORTED_CONSTRUCT', `encoded SOAP header ${h.part} (operation ${op.name})`, op.source);
    if (model.schema.elements[clark(h.element)] === undefined)
      refuse(
        'MISSING_REFERENCE',
        `header element ${clark(h.element)} (operation ${op.name}) is not declared`,
        op.source,
      );
  }
  return headerProps(headers);
}

function describeHttpOperation(
  model: WsdlModel,
  schema: SchemaPlan,
  op: BindingOperation,
  operation: PlannedOperation,
): OperationDescriptor {
  if (op.httpLocation === undefined)
    refuse('UNSUPPORTED_CONSTRUCT', `HTTP operation ${op.name} has no http:operation location`, op.source);
  const inputName = op.portTypeOperation.input;
  const input: BodyDescriptor =
    inputName === undefined
      ? { kind: 'empty' }
      : {
          kind: 'params',
          params: findMessage(model, inputName, op).parts.map((part) => ({
            name: part.name,
            value: toValue(partValue(schema, part, op)),
          })),
        };
  const outputName = op.portTypeOperation.output;
  let output: BodyDescriptor = { kind: 'empty' };
  if (outputName !== undefined && !httpOutputIsEmpty(model, op, outputName)) {
    const part = httpResultPart(model, op, outputName);
    if (part.element === undefined)
      refuse(
        'UNSUPPORTED_CONSTRUCT',
        `mime:mimeXml part ${part.name} of operation ${op.name} names a type, not an element`,
        op.source,
      );
    output = { kind: 'xml-result', element: clark(part.element), field: resultField(schema, operation, op) };
  }
  return {
    name: op.name,
    method: operation.method,
    httpPath: op.httpLocation,
    input,
    output,
    inputHeaders: [],
    outputHeaders: [],
    ...documentation(op),
  };
}

/** The property an HTTP response document lands in: the output wrapper's single field. */
function resultField(schema: SchemaPlan, operation: PlannedOperation, op: BindingOperation): string {
  const shape = operation.output;
  if (shape.kind === 'synthetic') return shape.fields[0]!.prop;
  if (shape.kind === 'element') {
    const value = schema.elements.get(shape.element)?.value;
    const wrapper = value?.kind === 'type' ? schema.byKey.get(value.key) : undefined;
    if (wrapper?.kind === 'complex' && wrapper.fields.length === 1 && wrapper.attributes.length === 0)
      return wrapper.fields[0]!.prop;
  }
  return refuse(
    'UNSUPPORTED_CONSTRUCT',
    `HTTP operation ${op.name} answers mime:mimeXml but its SOAP output wrapper does not hold exactly one result field`,
    op.source,
  );
}

function documentation(op: BindingOperation): { documentation?: string } {
  const text = op.documentation ?? op.portTypeOperation.documentation;
  return text !== undefined ? { documentation: text } : {};
}

function describeElements(schema: SchemaPlan): Record<string, ElementDescriptor> {
  const out: Record<string, ElementDescriptor> = {};
  for (const [key, element] of schema.elements) {
    out[key] = { name: qname(element.decl.name), value: toValue(element.value), nillable: element.decl.nillable };
  }
  return out;
}

function describeTypes(schema: SchemaPlan): Record<string, TypeDescriptor> {
  const out: Record<string, TypeDescriptor> = {};
  for (const type of schema.types) {
    if (type.kind === 'complex') out[type.key] = describeComplex(type);
    else if (type.kind === 'simple' && type.value.list === true)
      out[type.key] = { kind: 'simple', name: qname(type.wireName), xsd: 'string', list: true };
  }
  return out;
}

function describeComplex(type: PlannedComplex): ComplexTypeDescriptor {
  return {
    kind: 'complex',
    ...(type.origin === 'type' ? { name: qname(type.wireName) } : {}),
    fields: type.fields.map(toField),
    attributes: type.attributes.map(toAttribute),
    ...(type.arrayItem !== undefined ? { arrayItem: toField(type.arrayItem) } : {}),
    ...(type.text !== undefined ? { text: toValue(type.text) } : {}),
    ...(type.derived.length > 0 ? { derived: type.derived } : {}),
    ...(type.derived.length > 0 || type.baseKey !== undefined ? { tag: type.tsName } : {}),
    ...(type.type.abstract ? { abstract: true } : {}),
  };
}

function toField(field: PlannedField): FieldDescriptor {
  return {
    prop: field.prop,
    name: qname(field.name),
    value: toValue(field.value),
    minOccurs: field.minOccurs,
    maxOccurs: field.maxOccurs === 'unbounded' ? -1 : field.maxOccurs,
    nillable: field.nillable,
    ...(field.inChoice ? { inChoice: true } : {}),
    ...(field.wildcard ? { wildcard: true } : {}),
    ...(field.group !== undefined ? { group: field.group } : {}),
  };
}

function toAttribute(attribute: PlannedAttribute): {
  prop: string;
  name: { ns: string; local: string };
  value: ValueDescriptor;
  required: boolean;
} {
  return {
    prop: attribute.prop,
    name: qname(attribute.name),
    value: toValue(attribute.value),
    required: attribute.required,
  };
}

function toValue(value: PlannedValue): ValueDescriptor {
  if (value.kind === 'xml') return { kind: 'xml' };
  if (value.kind === 'type') return { kind: 'type', type: value.key };
  // A named list type stays a reference: ASMX's [Flags] enums are lists of names, which HTTP
  // GET/POST carry comma-separated (`Read,Write`) instead of space-separated.
  if (value.list === true && value.simpleType !== undefined) return { kind: 'type', type: value.simpleType };
  return value.enumeration !== undefined
    ? { kind: 'primitive', xsd: value.xsd, enumeration: value.enumeration }
    : { kind: 'primitive', xsd: value.xsd };
}

function qname(name: QName): { ns: string; local: string } {
  return { ns: name.ns, local: name.local };
}
