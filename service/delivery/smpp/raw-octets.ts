/**
 * The octets of short_message and message_payload exactly as they arrived.
 *
 * node-smpp decodes these fields to text while it parses a PDU, and its decoding loses octets
 * (an octet above 0x7F in data_coding 0, i.e. every packed GSM message, becomes a space). The
 * route reads receipts and the simulator decodes what it received from the octets themselves,
 * so this keeps them beside node-smpp's result: installed once per process, it only adds a
 * non-enumerable property, and node-smpp's own result is unchanged for anyone else.
 */
import smpp from 'smpp';

const OCTETS = Symbol.for('smskit.smpp.octets');
const INSTALLED = Symbol.for('smskit.smpp.octets-installed');

type Marked = Record<string | symbol, unknown>;

function install(): void {
  const filter = smpp.filters.message as smpp.MessageFilter & Marked;
  if (filter[INSTALLED] === true) return;
  const decode = filter.decode;
  filter.decode = function decodeKeepingOctets(value, skipUdh) {
    const decoded = decode.call(this, value, skipUdh);
    if (Buffer.isBuffer(value) && typeof decoded === 'object' && decoded !== null) {
      Object.defineProperty(decoded, OCTETS, { value, enumerable: false });
    }
    return decoded;
  };
  filter[INSTALLED] = true;
}
install();

/** The field's octets as received (empty when absent). */
export function fieldOctets(pdu: smpp.PDU, field: 'short_message' | 'message_payload'): Buffer {
  const value = pdu[field];
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const octets = (value as Marked)[OCTETS];
    if (Buffer.isBuffer(octets)) return octets;
  }
  return Buffer.alloc(0);
}
