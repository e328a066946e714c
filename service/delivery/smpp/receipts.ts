/**
 * Delivery receipts as SMSCs send them: a deliver_sm whose esm_class says "SMSC delivery receipt"
 * (bits 2–5 = 0001, i.e. 0x04), carrying the receipted_message_id and message_state TLVs (SMPP 3.4
 * §5.3.2.35, §5.3.2.12) and/or the de-facto text of SMPP 3.4 Appendix B:
 *   id:IIIIIIIIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:…
 * The TLVs win when both are present (the text's id is sometimes reformatted by the SMSC).
 */
import type { ReceiptState } from '../route.js';

const ESM_TYPE_MASK = 0x3c;
export const ESM_DELIVERY_RECEIPT = 0x04;
export const ESM_INTERMEDIATE_NOTIFICATION = 0x20;

/** The receipt's word for each final state; ENROUTE, ACCEPTD, UNKNOWN are not final and give no receipt. */
export const RECEIPT_STATES: Readonly<Record<string, ReceiptState>> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undeliverable',
  DELETED: 'undeliverable',
  EXPIRED: 'expired',
  REJECTD: 'rejected',
};

/** message_state TLV values (SMPP 3.4 §5.2.28) as the text's status word. */
const MESSAGE_STATE_WORDS = [
  'SCHEDULED',
  'ENROUTE',
  'DELIVRD',
  'EXPIRED',
  'DELETED',
  'UNDELIV',
  'ACCEPTD',
  'UNKNOWN',
  'REJECTD',
  'SKIPPED',
];

export type ParsedReceipt =
  | {
      readonly kind: 'final';
      readonly peerId: string;
      readonly state: ReceiptState;
      readonly word: string;
      readonly err: string;
    }
  | { readonly kind: 'not-final'; readonly peerId: string; readonly word: string }
  | { readonly kind: 'malformed'; readonly why: string };

export function isReceipt(esmClass: number): boolean {
  const type = esmClass & ESM_TYPE_MASK;
  return type === ESM_DELIVERY_RECEIPT || type === ESM_INTERMEDIATE_NOTIFICATION;
}

/** The receipt in a deliver_sm's fields (`text` is short_message read as ASCII). */
export function parseReceipt(fields: { receiptedId?: unknown; messageState?: unknown; text: string }): ParsedReceipt {
  const textId = /(?:^|\s)id:(\S+)/i.exec(fields.text)?.[1];
  const textStat = /(?:^|\s)stat:(\w+)/i.exec(fields.text)?.[1];
  const err = /(?:^|\s)err:(\w+)/i.exec(fields.text)?.[1] ?? '';
  // Printable ASCII only: node-smpp reads this C-string TLV up to a NUL, so an SMSC that leaves the
  // NUL out hands over the next TLV's bytes too.
  const tlvId = typeof fields.receiptedId === 'string' ? /^[\x21-\x7e]+/.exec(fields.receiptedId)?.[0] : undefined;
  const peerId = tlvId ?? textId;
  if (peerId === undefined) return { kind: 'malformed', why: 'no receipted_message_id and no id: in the text' };
  const tlvWord = typeof fields.messageState === 'number' ? MESSAGE_STATE_WORDS[fields.messageState] : undefined;
  const word = (tlvWord ?? textStat)?.toUpperCase();
  if (word === undefined) return { kind: 'malformed', why: `receipt for ${peerId} has no message_state and no stat:` };
  const state = RECEIPT_STATES[word];
  return state === undefined ? { kind: 'not-final', peerId, word } : { kind: 'final', peerId, state, word, err };
}
