/**
 * The arbitrary of one operation's input on one binding, in the form conformance's request
 * builder takes (`BuiltInput`: the runtime's input object and the SOAP header blocks), so that
 * the bytes sent are the runtime's, as a generated client would send them.
 *
 * SOAP: the input element's value, and each declared input header present or absent. HTTP
 * GET/POST: each parameter the compiled operation has (every one is required there), an array
 * parameter with at least one item and none nil, bytes at least one: what those bindings can
 * carry at all (runtime/http/params.ts refuses the rest before sending).
 */
import fc from 'fast-check';
import type { BuiltInput } from '../../conformance/catalogue/operation-input.js';
import type { OperationContract } from '../../conformance/catalogue/operation-contract.js';
import { resolveValue } from '../../runtime/codec/index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import type { ValueArbitraries } from './values.js';

export type InputArbitrary = fc.Arbitrary<BuiltInput>;

function soapInput(values: ValueArbitraries, contract: OperationContract): InputArbitrary {
  const d = values.d;
  const op = contract.operation;
  const element = op.input.kind === 'element' ? d.elements[op.input.element] : undefined;
  const input = element === undefined ? fc.constant({}) : values.value(element.value, 0);
  const headers: Record<string, fc.Arbitrary<unknown>> = {};
  // An in-out header must come back when sent (conformance's soap.response-headers): always sent.
  const inOut = new Set(op.outputHeaders.map((h) => h.element));
  for (const header of op.inputHeaders) {
    const declared = d.elements[header.element];
    if (declared === undefined) continue;
    const value = values.value(declared.value, 1);
    headers[header.prop] = inOut.has(header.element) ? value : fc.option(value, { nil: undefined });
  }
  return fc.tuple(input, fc.record(headers)).map(([value, blocks]) => {
    const soapHeaders: Record<string, unknown> = {};
    for (const [prop, block] of Object.entries(blocks)) if (block !== undefined) soapHeaders[prop] = block;
    return { input: value, soapHeaders, json: value };
  });
}

/** The complex type whose members the HTTP parameters are (the SOAP input wrapper of the same method), for facets. */
function wrapperKey(d: ServiceDescriptor, method: string): string | undefined {
  for (const binding of d.bindings)
    for (const op of binding.operations)
      if (op.method === method && op.input.kind === 'element') {
        const value = d.elements[op.input.element]?.value;
        if (value?.kind === 'type') return value.type;
      }
  return undefined;
}

function httpInput(values: ValueArbitraries, contract: OperationContract): InputArbitrary {
  const d = values.d;
  const owner = wrapperKey(d, contract.operation.method);
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  const wrapper = owner === undefined ? undefined : d.types[owner];
  for (const param of contract.http?.params ?? []) {
    // ASMX converts a parameter to the method's own parameter type: the SOAP wrapper's member.
    const field = wrapper?.kind === 'complex' ? wrapper.fields.find((f) => f.prop === param.prop) : undefined;
    const declared = field?.value ??
      contract.params.find((p) => p.prop === param.prop)?.value ?? { kind: 'primitive' as const, xsd: param.xsd };
    const resolved = resolveValue(d, declared, param.name);
    const item =
      resolved.kind === 'complex' && resolved.type.arrayItem !== undefined ? resolved.type.arrayItem.value : declared;
    const one = values.value(item, 1, owner === undefined ? undefined : { typeKey: owner, prop: param.prop });
    if (param.form === 'bytes') members[param.prop] = one.filter((b) => (b as Uint8Array).length > 0);
    else if (param.repeated) members[param.prop] = fc.array(one, { minLength: 1, maxLength: 4 });
    else members[param.prop] = one;
  }
  return fc.record(members).map((input) => ({ input, soapHeaders: {}, json: input }));
}

/** The input arbitrary of an operation on its binding (the contract must be usable). */
export function inputArbitrary(values: ValueArbitraries, contract: OperationContract): InputArbitrary {
  return contract.protocol === 'soap11' || contract.protocol === 'soap12'
    ? soapInput(values, contract)
    : httpInput(values, contract);
}
