/**
 * The spellings a secret takes on the wire, for redaction: as is, in XML (as the runtime writes
 * it and as peers do: escape/xml.ts), percent-encoded in a URL (encodeURIComponent), and
 * form-encoded as the runtime sends HTTP GET/POST parameters (URLSearchParams: `+` for a space,
 * `!'()~` escaped too) and as other encoders do. Longest first, so a spelling that contains
 * another is replaced whole.
 */
import { xmlSpellings } from './xml.js';

export function wireSpellings(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams({ x: secret }).toString().slice(2);
  // Other form encoders (.NET's HttpUtility among them) keep `!'()*` and write a space as `+`.
  const plus = percent.replace(/%20/g, '+');
  const spellings = new Set([...xmlSpellings(secret), percent, form, plus]);
  return [...spellings].filter((s) => s !== '').sort((a, b) => b.length - a.length);
}
