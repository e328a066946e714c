/**
 * The descriptor of a WSDL given as text — a server's `?wsdl` answer, a recorded one — read by
 * the contract layer (contract/read) exactly as every command reads a WSDL; the documents it
 * imports come from `imports` when the caller fetched them, else they are refused naming them.
 */
import { contractFromText } from '../read/index.js';
import { toDescriptor } from './index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';

export function descriptorFromWsdlText(
  text: string | Uint8Array,
  name = 'served.wsdl',
  imports?: { readonly documents: ReadonlyMap<string, Uint8Array>; readonly refused: ReadonlyMap<string, string> },
): ServiceDescriptor {
  return toDescriptor(contractFromText(text, name, imports?.documents, imports?.refused));
}
