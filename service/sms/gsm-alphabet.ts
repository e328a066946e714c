/**
 * GSM 03.38 (3GPP TS 23.038) 7-bit default alphabet and its extension table.
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

const SEPTETS = new Map<string, 1 | 2>();
for (const ch of DEFAULT_ALPHABET) if (ch !== '\u001b') SEPTETS.set(ch, 1);
for (const ch of EXTENSION) SEPTETS.set(ch, 2);

/** Septets `ch` costs in GSM 7-bit (1 or 2), or 0 when it has no GSM 7-bit encoding. */
export function gsmSeptets(ch: string): 0 | 1 | 2 {
  return SEPTETS.get(ch) ?? 0;
}

/** True when every character of `text` is in the GSM 7-bit default alphabet or its extension. */
export function isGsm7(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!SEPTETS.has(text.charAt(i))) return false;
  }
  return true;
}
