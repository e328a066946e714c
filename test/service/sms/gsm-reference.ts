/**
 * The GSM 7-bit default alphabet and its extension table typed from 3GPP TS 23.038 §6.2.1, and a
 * small decoder built on them, so the tests check the product's codec against the standard
 * instead of against itself: a table entry or a shift that is wrong in the product the same way
 * in both directions still fails here. Never import the product's tables into this file.
 */

/**
 * The basic table as Unicode code points, row n holding septet codes 0xn0–0xnF (the standard
 * prints it in columns; here a row is one of its columns). 0x1B is ESC (shown as -1): no
 * character, it announces the extension table.
 */
// biome-ignore format: one row per 16 codes, as the table reads
export const BASIC: readonly number[] = [
  0x0040, 0x00a3, 0x0024, 0x00a5, 0x00e8, 0x00e9, 0x00f9, 0x00ec, 0x00f2, 0x00c7, 0x000a, 0x00d8, 0x00f8, 0x000d, 0x00c5, 0x00e5,
  0x0394, 0x005f, 0x03a6, 0x0393, 0x039b, 0x03a9, 0x03a0, 0x03a8, 0x03a3, 0x0398, 0x039e, -1,     0x00c6, 0x00e6, 0x00df, 0x00c9,
  0x0020, 0x0021, 0x0022, 0x0023, 0x00a4, 0x0025, 0x0026, 0x0027, 0x0028, 0x0029, 0x002a, 0x002b, 0x002c, 0x002d, 0x002e, 0x002f,
  0x0030, 0x0031, 0x0032, 0x0033, 0x0034, 0x0035, 0x0036, 0x0037, 0x0038, 0x0039, 0x003a, 0x003b, 0x003c, 0x003d, 0x003e, 0x003f,
  0x00a1, 0x0041, 0x0042, 0x0043, 0x0044, 0x0045, 0x0046, 0x0047, 0x0048, 0x0049, 0x004a, 0x004b, 0x004c, 0x004d, 0x004e, 0x004f,
  0x0050, 0x0051, 0x0052, 0x0053, 0x0054, 0x0055, 0x0056, 0x0057, 0x0058, 0x0059, 0x005a, 0x00c4, 0x00d6, 0x00d1, 0x00dc, 0x00a7,
  0x00bf, 0x0061, 0x0062, 0x0063, 0x0064, 0x0065, 0x0066, 0x0067, 0x0068, 0x0069, 0x006a, 0x006b, 0x006c, 0x006d, 0x006e, 0x006f,
  0x0070, 0x0071, 0x0072, 0x0073, 0x0074, 0x0075, 0x0076, 0x0077, 0x0078, 0x0079, 0x007a, 0x00e4, 0x00f6, 0x00f1, 0x00fc, 0x00e0,
];

export const ESC = 0x1b;

/** The extension table (§6.2.1.1): septet code after ESC → Unicode code point. */
export const EXTENSION: ReadonlyMap<number, number> = new Map([
  [0x0a, 0x000c], // form feed (page break)
  [0x14, 0x005e], // ^
  [0x28, 0x007b], // {
  [0x29, 0x007d], // }
  [0x2f, 0x005c], // \
  [0x3c, 0x005b], // [
  [0x3d, 0x007e], // ~
  [0x3e, 0x005d], // ]
  [0x40, 0x007c], // |
  [0x65, 0x20ac], // €
]);

/** Septets of `octets` packed from bit `fillBits` on, low bits first (§6.1.2.1), one bit at a time. */
export function referenceUnpack(octets: Uint8Array, fillBits: number): number[] {
  const septets: number[] = [];
  const bits = octets.length * 8;
  for (let start = fillBits; start + 7 <= bits; start += 7) {
    let septet = 0;
    for (let b = 0; b < 7; b++) {
      const at = start + b;
      septet |= (((octets[at >> 3] as number) >> (at & 7)) & 1) << b;
    }
    septets.push(septet);
  }
  return septets;
}

/** Text of septet codes by the tables above; a trailing CR that only fills a packed octet is the caller's concern. */
export function referenceText(septets: readonly number[]): string {
  let text = '';
  for (let i = 0; i < septets.length; i++) {
    const code = septets[i] as number;
    if (code === ESC) {
      const ext = EXTENSION.get(septets[++i] as number);
      if (ext === undefined) throw new Error(`ESC ${septets[i]} is not in the extension table`);
      text += String.fromCodePoint(ext);
    } else text += String.fromCodePoint(BASIC[code] as number);
  }
  return text;
}

/** UTF-16 big-endian octets read pair by pair (a surrogate pair becomes one code point). */
export function referenceUtf16be(octets: Uint8Array): string {
  const units: number[] = [];
  for (let i = 0; i + 1 < octets.length; i += 2) units.push(((octets[i] as number) << 8) | (octets[i + 1] as number));
  return String.fromCharCode(...units);
}
