/**
 * The contract as the catalogue needs it, derived from a `ServiceDescriptor`: for each binding
 * and operation, the input parameters (wire name and TypeScript property, in order) and the
 * shape of a successful answer. Nothing here knows any service: names, namespaces and order all
 * come from the descriptor.
 */
import type {
  BindingDescriptor,
  ComplexTypeDescriptor,
  FieldDescriptor,
  OperationDescriptor,
  Protocol,
  ServiceDescriptor,
  ValueDescriptor,
} from '../runtime/descriptor.js';
import { ConformanceError } from './errors.js';
import type { ExpectedField, SuccessShape } from './types.js';

export interface InputParam {
  /** Name on the wire (SOAP child element local name, query or form field name). */
  readonly name: string;
  /** Property of the runtime's input object (SOAP wrapper field prop; the name for HTTP). */
  readonly prop: string;
}

export interface OperationPlan {
  readonly protocol: Protocol;
  readonly binding: BindingDescriptor;
  readonly operation: OperationDescriptor;
  readonly params: readonly InputParam[];
  readonly success: SuccessShape;
}

function fail(message: string): never {
  throw new ConformanceError('CONFORMANCE_CATALOGUE', message);
}

/** The complex type behind a value, or undefined for primitives and raw XML. */
function complexOf(d: ServiceDescriptor, value: ValueDescriptor): ComplexTypeDescriptor | undefined {
  if (value.kind !== 'type') return undefined;
  const type = d.types[value.type];
  return type?.kind === 'complex' ? type : undefined;
}

/** The primitive XSD type name of a value, following simple types; undefined for complex/XML. */
function primitiveOf(d: ServiceDescriptor, value: ValueDescriptor): { xsd: string; enumeration?: readonly string[] } | undefined {
  if (value.kind === 'primitive') return value.enumeration === undefined ? { xsd: value.xsd } : { xsd: value.xsd, enumeration: value.enumeration };
  if (value.kind !== 'type') return undefined;
  const type = d.types[value.type];
  if (type?.kind !== 'simple') return undefined;
  return type.enumeration === undefined ? { xsd: type.xsd } : { xsd: type.xsd, enumeration: type.enumeration };
}

export function expectedField(d: ServiceDescriptor, field: Pick<FieldDescriptor, 'name' | 'value' | 'minOccurs' | 'maxOccurs' | 'nillable' | 'inChoice'>): ExpectedField {
  const primitive = primitiveOf(d, field.value);
  return {
    name: field.name,
    required: field.minOccurs >= 1 && field.inChoice !== true,
    nillable: field.nillable,
    repeated: field.maxOccurs === -1 || field.maxOccurs > 1,
    ...(primitive === undefined ? {} : { xsd: primitive.xsd }),
    ...(primitive?.enumeration === undefined ? {} : { enumeration: primitive.enumeration }),
  };
}

function soapPlan(d: ServiceDescriptor, binding: BindingDescriptor, op: OperationDescriptor): OperationPlan {
  const where = `${binding.name}/${op.name}`;
  if (op.input.kind !== 'element' || op.output.kind !== 'element') fail(`${where}: only document/literal operations with an input and an output are supported`);
  const input = d.elements[op.input.element] ?? fail(`${where}: input element ${op.input.element} is not in the descriptor`);
  const output = d.elements[op.output.element] ?? fail(`${where}: output element ${op.output.element} is not in the descriptor`);
  const inputType = complexOf(d, input.value) ?? fail(`${where}: the input element is not a wrapper of fields`);
  const outputType = complexOf(d, output.value) ?? fail(`${where}: the output element is not a wrapper of fields`);
  const params = inputType.fields.map((f) => {
    if (primitiveOf(d, f.value) === undefined) fail(`${where}: input field ${f.name.local} is not of a simple type (not supported)`);
    return { name: f.name.local, prop: f.prop };
  });
  const version = binding.protocol === 'soap11' ? '1.1' : '1.2';
  const fields = outputType.fields.map((f) => expectedField(d, f));
  return { protocol: binding.protocol, binding, operation: op, params, success: { kind: 'soap', version, element: output.name, fields } };
}

function httpPlan(d: ServiceDescriptor, binding: BindingDescriptor, op: OperationDescriptor): OperationPlan {
  const where = `${binding.name}/${op.name}`;
  if (op.input.kind !== 'params' || op.output.kind !== 'xml-result') fail(`${where}: HTTP operations need named parameters and an XML result`);
  const element = d.elements[op.output.element] ?? fail(`${where}: result element ${op.output.element} is not in the descriptor`);
  const params = op.input.params.map((p) => ({ name: p.name, prop: p.name }));
  const field = expectedField(d, { name: element.name, value: element.value, minOccurs: 1, maxOccurs: 1, nillable: element.nillable });
  return { protocol: binding.protocol, binding, operation: op, params, success: { kind: 'xml-root', element: element.name, field } };
}

/** Every (binding, operation) of the descriptor, bindings in descriptor order. */
export function planOperations(d: ServiceDescriptor): OperationPlan[] {
  const plans: OperationPlan[] = [];
  for (const binding of d.bindings) {
    for (const op of binding.operations) {
      plans.push(binding.protocol === 'soap11' || binding.protocol === 'soap12' ? soapPlan(d, binding, op) : httpPlan(d, binding, op));
    }
  }
  return plans;
}
