/**
 * The descriptor of a WSDL given as text — a server's `?wsdl` answer, a recorded one — read by
 * the contract layer (generator/contract) exactly as every command reads a WSDL; the document's
 * own imports are not fetched (a remote one is refused naming it).
 */
import { contractFromText } from '../../generator/contract/index.js';
import { toDescriptor } from '../../generator/descriptor/index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';

export function descriptorFromWsdlText(text: string | Uint8Array, name = 'served.wsdl'): ServiceDescriptor {
  return toDescriptor(contractFromText(text, name));
}
