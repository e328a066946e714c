/**
 * GSM 03.38 text as SMPP carries it with data_coding 0: septet codes (one per octet, "unpacked",
 * the SMPP default; ./gsm-alphabet.ts makes them) or 7-bit packed (3GPP TS 23.038 §6.1.2.1), and
 * UCS-2 for data_coding 8.
 *
 * node-smpp has a GSM coder, but it maps a character it does not know to a space, cannot pack,
 * and its decoder turns octets above 0x7F into spaces; the service has already checked that the
 * text is GSM 7-bit, so the route encodes from the service's own alphabet.
 */

const CR = 0x0d;

/**
 * Packs septets into octets, the first one starting `fillBits` bits in (the fill that puts the
 * text on a septet boundary after a user data header). When the last octet would have 7 spare
 * bits, they carry CR, so a receiver does not read an "@" there (23.038 §6.1.2.3.1).
 */
export function packSeptets(septets: ArrayLike<number>, fillBits = 0): Uint8Array {
  const bits = fillBits + septets.length * 7;
  const out = new Uint8Array(Math.ceil(bits / 8));
  const put = (septet: number, at: number): void => {
    const index = at >> 3;
    const shift = at & 7;
    out[index] = ((out[index] as number) | (septet << shift)) & 0xff;
    if (shift > 1) out[index + 1] = ((out[index + 1] as number) | (septet >> (8 - shift))) & 0xff;
  };
  for (let i = 0; i < septets.length; i++) put((septets[i] as number) & 0x7f, fillBits + i * 7);
  if (out.length * 8 - bits === 7) put(CR, bits);
  return out;
}

/** The septets of packed octets after `fillBits`; a CR that only fills the last octet's spare 7 bits is dropped. */
export function unpackSeptets(octets: ArrayLike<number>, fillBits = 0): Uint8Array {
  const count = Math.floor((octets.length * 8 - fillBits) / 7);
  const out = new Uint8Array(Math.max(0, count));
  for (let i = 0; i < count; i++) {
    const at = fillBits + i * 7;
    const index = at >> 3;
    const shift = at & 7;
    let value = (octets[index] as number) >> shift;
    if (shift > 1) value |= ((octets[index + 1] as number) ?? 0) << (8 - shift);
    out[i] = value & 0x7f;
  }
  const padded = count > 0 && (fillBits + count * 7) % 8 === 0 && out[count - 1] === CR;
  return padded ? out.subarray(0, count - 1) : out;
}

/** Fill bits after a user data header of `udhOctets` octets (UDHL included), so the text starts on a septet boundary. */
export function fillBitsAfter(udhOctets: number): number {
  return udhOctets === 0 ? 0 : (7 - ((udhOctets * 8) % 7)) % 7;
}

/** UCS-2 as SMPP carries it: UTF-16 big-endian (a character outside the BMP as its surrogate pair). */
export function ucs2Octets(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

export function ucs2Text(octets: Uint8Array): string {
  const copy = Buffer.from(octets.subarray(0, octets.length & ~1));
  return copy.swap16().toString('utf16le');
}
