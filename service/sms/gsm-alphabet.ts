/**
 * GSM 03.38 (3GPP TS 23.038) 7-bit default alphabet and its extension table: the one place the
 * service knows which character has which septet code, for counting (`septetWidth`, `isGsm7`)
 * and for the octets SMPP carries (`septetCodes`, `gsmText`; packing is ./pack.ts).
 *
 * A character of the default alphabet costs 1 septet; one of the extension table costs 2 (ESC +
 * code), and the two septets must stay in the same segment. ESC (0x1B) itself is not a character
 * a message may contain. Anything else forces UCS-2.
 */

/** The default alphabet in code-point order 0x00–0x7F; index 0x1B (ESC) is excluded below. */
export const DEFAULT_ALPHABET =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table (each preceded by ESC on the air): FF ^ { } \ [ ~ ] | €. */
export const EXTENSION = '\f^{}\\[~]|€';

/**
 * Septets per UTF-16 code unit, indexed by the unit: 0 (not GSM 7-bit), 1 or 2. Every character
 * of both tables is below € (U+20AC), so the table stops there. Checked for every character of
 * every message accepted and sent, so a typed-array read rather than a Map lookup of a string.
 */
const WIDTHS = new Uint8Array(0x20ad);
for (const ch of DEFAULT_ALPHABET) if (ch !== '\u001b') WIDTHS[ch.charCodeAt(0)] = 1;
for (const ch of EXTENSION) WIDTHS[ch.charCodeAt(0)] = 2;

/** Septets the UTF-16 unit at `i` of `text` costs in GSM 7-bit (1 or 2), or 0 when it has no GSM 7-bit encoding. */
export function septetWidthAt(text: string, i: number): 0 | 1 | 2 {
  return (WIDTHS[text.charCodeAt(i)] ?? 0) as 0 | 1 | 2;
}

/** Septets `ch` costs in GSM 7-bit (1 or 2), or 0 when it has no GSM 7-bit encoding. */
export function septetWidth(ch: string): 0 | 1 | 2 {
  return ch.length === 1 ? septetWidthAt(ch, 0) : 0;
}

/** True when every character of `text` is in the GSM 7-bit default alphabet or its extension. */
export function isGsm7(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (septetWidthAt(text, i) === 0) return false;
  }
  return true;
}

const ESC = 0x1b;
/** The extension table's codes, in the order of EXTENSION: FF ^ { } \ [ ~ ] | €. */
const EXTENSION_CODES = [0x0a, 0x14, 0x28, 0x29, 0x2f, 0x3c, 0x3d, 0x3e, 0x40, 0x65];

/** The septet code of each UTF-16 unit (0x100 marks "ESC first"), NO_CODE where it has none. */
const NO_CODE = 0xffff;
const CODE_OF = new Uint16Array(WIDTHS.length).fill(NO_CODE);
const CHAR_OF: string[] = [];
const EXTENSION_CHAR_OF = new Map<number, string>();
for (let code = 0; code < DEFAULT_ALPHABET.length; code++) {
  const ch = DEFAULT_ALPHABET.charAt(code);
  CHAR_OF[code] = ch;
  if (code !== ESC) CODE_OF[ch.charCodeAt(0)] = code;
}
for (let i = 0; i < EXTENSION.length; i++) {
  const code = EXTENSION_CODES[i] as number;
  CODE_OF[EXTENSION.charCodeAt(i)] = 0x100 | code;
  EXTENSION_CHAR_OF.set(code, EXTENSION.charAt(i));
}

/** The septet codes of `text` (an extension character gives ESC + its code). Throws on a character outside GSM 7-bit. */
export function septetCodes(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = CODE_OF[text.charCodeAt(i)] ?? NO_CODE;
    if (code === NO_CODE) throw new RangeError(`character U+${text.charCodeAt(i).toString(16)} is not in GSM 7-bit`);
    if (code > 0xff) {
      out[n++] = ESC;
      out[n++] = code & 0x7f;
    } else out[n++] = code;
  }
  return out.subarray(0, n);
}

/** Text of septet codes; an unknown extension code reads as its base character (23.038 says so). */
export function gsmText(septets: ArrayLike<number>): string {
  let text = '';
  for (let i = 0; i < septets.length; i++) {
    const code = (septets[i] as number) & 0x7f;
    if (code === ESC && i + 1 < septets.length) {
      const next = (septets[++i] as number) & 0x7f;
      text += EXTENSION_CHAR_OF.get(next) ?? CHAR_OF[next];
    } else text += code === ESC ? ' ' : CHAR_OF[code];
  }
  return text;
}
