/**
 * Receipt ids as SMSCs write them: some answer submit_sm with the id in hex and write the same
 * number in decimal in the receipt (or the reverse), so the receipt's id matches no stored part.
 * A route says which (`receiptIds`, like Kannel's msg-id-type); either way the receipt carries
 * the forms to try in order, the configured translation first, and the store takes the first
 * that names a part. A route left `as-is` still tries both translations before it calls a
 * receipt unknown. Hex has no agreed case or width, so hex forms come lower and upper case, bare
 * and zero-padded to the widths SMSCs use; at most MAX_FORMS forms, all of bounded length.
 */
export type ReceiptIdFormat = 'as-is' | 'hex-to-decimal' | 'decimal-to-hex';

export const RECEIPT_ID_FORMATS: readonly ReceiptIdFormat[] = ['as-is', 'hex-to-decimal', 'decimal-to-hex'];

const MAX_FORMS = 12;
const HEX_WIDTHS = [8, 16];

/** The ids to look for, in order: `peerId` first, then `alsoTry`. */
export interface ReceiptIdForms {
  readonly peerId: string;
  readonly alsoTry: readonly string[];
}

export function receiptIdForms(id: string, format: ReceiptIdFormat): ReceiptIdForms {
  const asHex = hexForms(id); // the receipt wrote decimal; the submit answer was hex
  const asDecimal = decimalForms(id); // the receipt wrote hex; the submit answer was decimal
  const ordered =
    format === 'hex-to-decimal'
      ? [...asHex, id, ...asDecimal]
      : format === 'decimal-to-hex'
        ? [...asDecimal, id, ...asHex]
        : [id, ...asHex, ...asDecimal];
  const unique = [...new Set(ordered)].slice(0, MAX_FORMS);
  const [peerId = id, ...alsoTry] = unique;
  return { peerId, alsoTry };
}

/** A decimal id's value in hex: bare and padded, lower then upper case (none when `id` is not decimal). */
export function hexForms(id: string): string[] {
  if (!/^\d{1,30}$/.test(id)) return [];
  const hex = BigInt(id).toString(16);
  const lower = [hex, ...HEX_WIDTHS.filter((width) => width > hex.length).map((width) => hex.padStart(width, '0'))];
  return [...lower, ...lower.map((form) => form.toUpperCase())];
}

/** A hex id's value in decimal (none when `id` is not hex, or too long to be a number an SMSC counts). */
export function decimalForms(id: string): string[] {
  if (!/^[0-9a-fA-F]{1,24}$/.test(id)) return [];
  return [BigInt(`0x${id}`).toString(10)];
}
