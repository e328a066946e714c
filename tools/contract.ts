/**
 * The SMS contract's operation parameters, read from the generated descriptor (so from the WSDL),
 * in the WSDL's order: tests and tools that go through every field take the list from here
 * instead of restating it, so a field added to the contract is covered without an edit.
 */
import { ServiceAPIDescriptor } from '../generated/service-api/descriptor.js';

export type SmsOperation = 'SMSSend' | 'SMSSendToPort';

/** The operation's parameter names, as its HTTP GET binding (the same names as the SOAP wrapper) declares them. */
export function contractParams(operation: SmsOperation): readonly string[] {
  const binding = ServiceAPIDescriptor.bindings.find((b) => b.protocol === 'http-get');
  const input = binding?.operations.find((op) => op.name === operation)?.input;
  if (input?.kind !== 'params') throw new Error(`the SMS contract declares no HTTP GET parameters for ${operation}`);
  return input.params.map((param) => param.name);
}
