/**
 * The contract as the catalogue needs it, derived from a `ServiceDescriptor`: for each binding
 * and operation, the input members (wire name, property and type, in order), the SOAP header
 * blocks, and the shape of a successful answer. Nothing here knows any service: names,
 * namespaces and order all come from the descriptor.
 *
 * An operation the runner cannot exercise (not document/literal, an empty output message, a
 * parameter an HTTP binding cannot carry) gets a contract with `unusable` set: its cases are reported as skipped with
 * that reason, and the rest of the run goes on.
 */
import type {
  BindingDescriptor,
  ComplexTypeDescriptor,
  FieldDescriptor,
  OperationDescriptor,
  Protocol,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { compileHttpBinding, type HttpOperation, type UnusableHttpOperation } from '../../runtime/index.js';
import type { ExpectedField, ExpectedHeader, SuccessShape } from '../types.js';

export interface InputParam {
  /** Name on the wire (SOAP child element local name, query or form field name). */
  readonly name: string;
  /** Property of the runtime's input object (SOAP wrapper field prop; the name for HTTP). */
  readonly prop: string;
  readonly value: ValueDescriptor;
  readonly minOccurs: number;
  /** -1 for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
}

export interface OperationContract {
  readonly protocol: Protocol;
  readonly binding: BindingDescriptor;
  readonly operation: OperationDescriptor;
  /** The top-level input members in order (empty for an unusable contract). */
  readonly params: readonly InputParam[];
  readonly success: SuccessShape;
  /** HTTP GET/POST: the runtime's compiled operation (parameter forms, repeated items). */
  readonly http?: HttpOperation;
  /** Why the operation cannot be exercised on this binding; undefined when it can. */
  readonly unusable?: string;
}

export interface ContractOptions {
  /**
   * Every result element is required in an answer, even one the schema makes optional
   * (minOccurs="0"): the built-in contract's spec says so (one child <Operation>Result), and
   * ASMX leaves a result out only when it is null. Off for any other WSDL.
   */
  readonly requireResults?: boolean;
}

/** The complex type behind a value, or undefined for primitives and raw XML. */
export function complexOf(d: ServiceDescriptor, value: ValueDescriptor): ComplexTypeDescriptor | undefined {
  if (value.kind !== 'type') return undefined;
  const type = d.types[value.type];
  return type?.kind === 'complex' ? type : undefined;
}

/** The primitive XSD type name of a value, following simple types; undefined for complex/XML. */
function primitiveOf(
  d: ServiceDescriptor,
  value: ValueDescriptor,
): { xsd: string; enumeration?: readonly string[] } | undefined {
  if (value.kind === 'primitive')
    return value.enumeration === undefined ? { xsd: value.xsd } : { xsd: value.xsd, enumeration: value.enumeration };
  if (value.kind !== 'type') return undefined;
  const type = d.types[value.type];
  if (type?.kind !== 'simple') return undefined;
  return type.enumeration === undefined ? { xsd: type.xsd } : { xsd: type.xsd, enumeration: type.enumeration };
}

function expectedField(
  d: ServiceDescriptor,
  field: Pick<FieldDescriptor, 'name' | 'value' | 'minOccurs' | 'maxOccurs' | 'nillable' | 'inChoice' | 'group'>,
  forceRequired = false,
): ExpectedField {
  const primitive = primitiveOf(d, field.value);
  return {
    name: field.name,
    value: field.value,
    required: forceRequired || (field.minOccurs >= 1 && field.inChoice !== true),
    nillable: field.nillable,
    repeated: field.maxOccurs === -1 || field.maxOccurs > 1,
    maxOccurs: field.maxOccurs,
    ...(primitive === undefined ? {} : { xsd: primitive.xsd }),
    ...(primitive?.enumeration === undefined ? {} : { enumeration: primitive.enumeration }),
    ...(field.group === undefined ? {} : { group: field.group }),
  };
}

function param(f: FieldDescriptor): InputParam {
  return {
    name: f.name.local,
    prop: f.prop,
    value: f.value,
    minOccurs: f.minOccurs,
    maxOccurs: f.maxOccurs,
    nillable: f.nillable,
  };
}

function unusableContract(binding: BindingDescriptor, op: OperationDescriptor, reason: string): OperationContract {
  return {
    protocol: binding.protocol,
    binding,
    operation: op,
    params: [],
    success: { kind: 'empty' },
    unusable: reason,
  };
}

function outputHeaders(d: ServiceDescriptor, op: OperationDescriptor): ExpectedHeader[] {
  const sent = new Set(op.inputHeaders.map((h) => h.element));
  return op.outputHeaders.flatMap((h) => {
    const element = d.elements[h.element];
    return element === undefined
      ? []
      : [{ name: element.name, value: element.value, nillable: element.nillable, echoed: sent.has(h.element) }];
  });
}

function soapContract(
  d: ServiceDescriptor,
  binding: BindingDescriptor,
  op: OperationDescriptor,
  options: ContractOptions,
): OperationContract {
  if (op.input.kind !== 'element')
    return unusableContract(
      binding,
      op,
      'not a document/literal operation with an input element (rpc or no input message)',
    );
  const version = binding.protocol === 'soap11' ? '1.1' : '1.2';
  if (op.oneWay === true) return oneWayContract(d, binding, op, op.input.element, version);
  if (op.output.kind !== 'element')
    return unusableContract(binding, op, 'the operation answers an empty output message: there is no result to check');
  const input = d.elements[op.input.element];
  const output = d.elements[op.output.element];
  if (input === undefined || output === undefined)
    return unusableContract(
      binding,
      op,
      `the message element ${input === undefined ? op.input.element : op.output.element} is not in the descriptor`,
    );
  const outputType = complexOf(d, output.value);
  if (outputType === undefined || outputType.arrayItem !== undefined)
    return unusableContract(binding, op, 'the output element is not a wrapper of result elements');
  const params = (complexOf(d, input.value)?.fields ?? []).map(param);
  const required = options.requireResults === true;
  const fields = outputType.fields.map((f) => expectedField(d, f, required));
  return {
    protocol: binding.protocol,
    binding,
    operation: op,
    params,
    success: { kind: 'soap', version, element: output.name, fields, headers: outputHeaders(d, op), schema: d },
  };
}

/** A one-way operation: its input as any other's; the answer expected is 202 or 200 without a body. */
function oneWayContract(
  d: ServiceDescriptor,
  binding: BindingDescriptor,
  op: OperationDescriptor,
  inputElement: string,
  version: '1.1' | '1.2',
): OperationContract {
  const input = d.elements[inputElement];
  if (input === undefined)
    return unusableContract(binding, op, `the message element ${inputElement} is not in the descriptor`);
  const params = (complexOf(d, input.value)?.fields ?? []).map(param);
  return { protocol: binding.protocol, binding, operation: op, params, success: { kind: 'one-way', version } };
}

/** The SOAP output wrapper's field an HTTP result maps to (ASMX: the same method's result). */
function soapResultField(d: ServiceDescriptor, op: OperationDescriptor, field: string): FieldDescriptor | undefined {
  const soap = d.bindings
    .flatMap((b) => b.operations)
    .find((o) => o.method === op.method && o.output.kind === 'element');
  if (soap === undefined || soap.output.kind !== 'element') return undefined;
  const wrapper = d.elements[soap.output.element];
  return wrapper === undefined ? undefined : complexOf(d, wrapper.value)?.fields.find((f) => f.prop === field);
}

function httpContract(
  d: ServiceDescriptor,
  binding: BindingDescriptor,
  op: OperationDescriptor,
  compiled: HttpOperation | UnusableHttpOperation | undefined,
  options: ContractOptions,
): OperationContract {
  if (compiled === undefined) return unusableContract(binding, op, 'the runtime cannot compile this HTTP operation');
  if ('error' in compiled) return unusableContract(binding, op, compiled.error.message);
  const params = compiled.params.map((p) => {
    const declared = op.input.kind === 'params' ? op.input.params.find((q) => q.name === p.name) : undefined;
    return {
      name: p.name,
      prop: p.prop,
      value: declared?.value ?? { kind: 'primitive' as const, xsd: p.xsd },
      minOccurs: 1,
      maxOccurs: p.repeated ? -1 : 1,
      nillable: false,
    };
  });
  if (op.output.kind === 'empty')
    return { protocol: binding.protocol, binding, operation: op, params, success: { kind: 'empty' }, http: compiled };
  if (op.output.kind !== 'xml-result')
    return unusableContract(binding, op, 'an HTTP operation whose answer is not an XML document (mime:mimeXml)');
  const element = d.elements[op.output.element];
  if (element === undefined)
    return unusableContract(binding, op, `the result element ${op.output.element} is not in the descriptor`);
  // ASMX shares one global element per result type among methods: a null result may come as
  // xsi:nil even where that element is not nillable, when the method's SOAP result is.
  const nillable = element.nillable || soapResultField(d, op, op.output.field)?.nillable === true;
  const field = expectedField(
    d,
    { name: element.name, value: element.value, minOccurs: 1, maxOccurs: 1, nillable },
    options.requireResults === true,
  );
  return {
    protocol: binding.protocol,
    binding,
    operation: op,
    params,
    success: { kind: 'xml-root', element: element.name, field, schema: d },
    http: compiled,
  };
}

/** Every (binding, operation) of the descriptor, bindings in descriptor order. */
export function operationContracts(d: ServiceDescriptor, options: ContractOptions = {}): OperationContract[] {
  const contracts: OperationContract[] = [];
  for (const binding of d.bindings) {
    const soap = binding.protocol === 'soap11' || binding.protocol === 'soap12';
    const compiled = soap ? undefined : compileHttpBinding(d, binding);
    for (const op of binding.operations) {
      contracts.push(
        soap ? soapContract(d, binding, op, options) : httpContract(d, binding, op, compiled!.get(op.method), options),
      );
    }
    // Operations the WSDL lists on this binding but the generator had to leave out: skipped, with why.
    for (const omitted of binding.omitted ?? []) {
      const op: OperationDescriptor = {
        name: omitted.name,
        method: omitted.method,
        input: { kind: 'empty' },
        output: { kind: 'empty' },
        inputHeaders: [],
        outputHeaders: [],
      };
      contracts.push(unusableContract(binding, op, omitted.reason));
    }
  }
  return contracts;
}
