/**
 * The octets of short_message and message_payload exactly as they arrived.
 *
 * node-smpp decodes these fields to text while it parses a PDU, and its decoding loses octets
 * (an octet above 0x7F in data_coding 0, i.e. every packed GSM message, becomes a space). The
 * route reads receipts and the simulator decodes what it received from the octets themselves,
 * so this keeps them beside node-smpp's result: installed once per process, it adds a
 * non-enumerable property, and node-smpp's own result is unchanged for anyone else.
 *
 * That result (`message`, and `udh` when the PDU has one) is decoded when first read, not while
 * the PDU is parsed: nobody here reads it, and node-smpp's GSM decoding rebuilds a table key list
 * and a RegExp for every message (~15 µs of the event loop per receipt under delivery load, as
 * much again in the simulator per submit). node-smpp itself reads short_message's text while
 * parsing a PDU that also has message_payload, so those are decoded at once as before. The
 * properties are accessors (util.inspect shows [Getter/Setter]); reading, enumerating,
 * serialising and assigning them behave as node-smpp's plain ones.
 */
import smpp from 'smpp';

const OCTETS = Symbol.for('smskit.smpp.octets');
const INSTALLED = Symbol.for('smskit.smpp.octets-installed');
/** esm_class's UDH indicator (SMPP 3.4, 5.2.12). */
const UDH_INDICATOR = 0x40;

type Marked = Record<string | symbol, unknown>;

function install(): void {
  const filter = smpp.filters.message as smpp.MessageFilter & Marked;
  if (filter[INSTALLED] === true) return;
  const decode = filter.decode;
  filter.decode = function decodeKeepingOctets(value, skipUdh) {
    // node-smpp passes anything else through; its decoding reads nothing of the PDU but these two.
    if (!Buffer.isBuffer(value) || !('data_coding' in this)) return decode.call(this, value, skipUdh);
    const fields = { data_coding: this.data_coding, esm_class: this.esm_class };
    let decoded: Marked | undefined;
    const decodeOnce = (): Marked => {
      decoded ??= decode.call(fields, value, skipUdh) as Marked;
      return decoded;
    };
    const result: Marked = {};
    // node-smpp's result has `udh` exactly when it read a header: the same test, on the same fields
    // (its `UDH_INDICATOR || KANNEL_UDH_INDICATOR` is the first of the two).
    const keys =
      !skipUdh && value.length > 0 && (Number(fields.esm_class) & UDH_INDICATOR) !== 0
        ? ['udh', 'message']
        : ['message'];
    for (const key of keys) {
      Object.defineProperty(result, key, {
        enumerable: true,
        configurable: true,
        get: () => decodeOnce()[key],
        set: (given: unknown) =>
          Object.defineProperty(result, key, { value: given, enumerable: true, writable: true, configurable: true }),
      });
    }
    Object.defineProperty(result, OCTETS, { value, enumerable: false });
    return result;
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
