/**
 * The records the store keeps, defined once: accounts, outbox messages with their delivery state,
 * and each message's history. Both stores (SQLite, and any other) read and write these shapes;
 * the column names live only in the store that maps them.
 */
import type { Encoding } from '../sms/segments.js';

export interface AccountRow {
  readonly email: string;
  readonly passwordHash: string;
  readonly keywords: readonly string[];
  readonly disabled: boolean;
  readonly createdAt: number;
  /** A test account: its messages are stored in state `test` and never delivered (absent = false). */
  readonly test?: boolean;
  /** Until when a server locked it out after repeated wrong passwords (ms; absent/null = not locked). */
  readonly lockedUntil?: number | null;
  /** When an administrator last lifted a lockout (ms); servers forget earlier failures. */
  readonly unlockedAt?: number | null;
  /** Where the account's state changes are posted (docs/operations.md, "Accounts"); absent/null = no callbacks. */
  readonly callbackUrl?: string | null;
  /** The Standard Webhooks secret (`whsec_…`) its callbacks are signed with. Never shown nor logged. */
  readonly callbackSecret?: string | null;
  /** When its receiver answered 410 Gone and callbacks were switched off (ms); setting the URL again clears it. */
  readonly callbacksDisabledAt?: number | null;
}

/**
 * A message as the service accepted it. The fields carry the contract's parameter names
 * (SMSSend's keyword, smsto, carrierCode, smsmsg; SMSSendToPort's port), and so do the columns
 * (`smsto`, `smsmsg`, `carrier_code`), so one name can be followed from the WSDL to the database.
 * The exception is `account`: it holds emailAddress only after the password matched, as a
 * reference to accounts.email (the account that sent it), not the text the client typed.
 */
export interface NewMessage {
  /** The sending account's accounts.email (emailAddress, once authenticated). */
  readonly account: string;
  /** Canonical (upper case). */
  readonly keyword: string;
  /** Normalised to E.164. */
  readonly smsto: string;
  /** Canonical (lower case). */
  readonly carrierCode: string;
  readonly encoding: Encoding;
  readonly segments: number;
  /** SMSSendToPort's port; null for SMSSend. */
  readonly port: number | null;
  /** As received. */
  readonly smsmsg: string;
}

/**
 * Where a message is on its way out.
 * - queued: waiting for its (next) attempt; `sending`: claimed by a delivery worker, which may
 *   have written it to the peer; `accepted`: the peer took it (its id is `smscId`).
 * - Final: delivered, undeliverable, expired, rejected (by the peer, or by a receipt), failed
 *   (the retry budget is spent), unknown (accepted, but no receipt came within the route's
 *   receipt timeout: a receipt that comes later still records the true outcome), test (a test
 *   account's message: stored, never delivered).
 */
export const MESSAGE_STATES = [
  'queued',
  'sending',
  'accepted',
  'delivered',
  'undeliverable',
  'expired',
  'rejected',
  'failed',
  'unknown',
  'test',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

export const FINAL_STATES: ReadonlySet<MessageState> = new Set([
  'delivered',
  'undeliverable',
  'expired',
  'rejected',
  'failed',
  'unknown',
  'test',
]);

export interface StoredMessage extends NewMessage {
  readonly id: string;
  readonly createdAt: number;
  readonly state: MessageState;
  /** When the state last changed (ms since the epoch). */
  readonly updatedAt: number;
  /** Delivery attempts started so far. */
  readonly attempts: number;
  /** The route that took (or last tried) it. */
  readonly route: string | null;
  /** The peer's id for the message (its first part's, for a long one). */
  readonly smscId: string | null;
  readonly errorCode: string | null;
  readonly errorText: string | null;
  /**
   * The message was being sent when its worker stopped without recording an answer (a crash),
   * so the peer may have it already: a resend may be a duplicate.
   */
  readonly possibleDuplicate: boolean;
}

/** One state change in a message's history. */
export interface HistoryEvent {
  readonly at: number;
  readonly state: MessageState;
  readonly attempt: number;
  readonly route: string | null;
  readonly smscId: string | null;
  readonly code: string | null;
  readonly text: string | null;
}

/** One recorded state change with its place in the history stream. */
export interface HistoryChange extends HistoryEvent {
  readonly seq: number;
  readonly messageId: string;
}

/** A final state a delivery receipt can report for one part. */
export type ReceiptState = 'delivered' | 'undeliverable' | 'expired' | 'rejected';

/** A delivery receipt, as a route passes it on and the store records it. */
export interface Receipt {
  /** The peer id it is about (submit_sm_resp's message_id for that part). */
  readonly peerId: string;
  /**
   * Other forms of the same id to look for, in order, when `peerId` names no part (an SMSC that
   * writes receipt ids in another base than its submit answers: service/delivery/smpp/receipt-ids.ts).
   */
  readonly alsoTry?: readonly string[];
  readonly state: ReceiptState;
  /** The peer's own status word or code, e.g. "DELIVRD", "UNDELIV", "err:001". */
  readonly code: string;
  /** One line for the history (no message text). */
  readonly text: string;
}

/** One part of a message as its peer took it: the peer's id and, once receipted, the part's state. */
export interface MessagePart {
  readonly messageId: string;
  /** 1-based. */
  readonly part: number;
  /** The delivery attempt that sent it. */
  readonly attempt: number;
  /** The route (the SMSC, for a failover or round-robin route's member) that took it. */
  readonly route: string;
  /** The peer's id for this part (submit_sm_resp's message_id). */
  readonly smscId: string;
  /** The part's receipt state, or null while it has none. */
  readonly state: ReceiptState | null;
}
