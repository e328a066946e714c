/**
 * The descriptor of a WSDL given as text — a server's `?wsdl` answer, a recorded one — read by
 * the contract layer (contract/read) exactly as every command reads a WSDL; the document's
 * own imports are not fetched (a remote one is refused naming it).
 */
import { contractFromText } from '../read/index.js';
import { toDescriptor } from './index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';

export function descriptorFromWsdlText(text: string | Uint8Array, name = 'served.wsdl'): ServiceDescriptor {
  return toDescriptor(contractFromText(text, name));
}
