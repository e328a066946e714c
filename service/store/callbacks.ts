/**
 * What the callback sender asks of the store: the queue of state changes to tell each account's
 * receiver about (docs/status.md).
 *
 * A state change and its callback event are one commit, so no change goes without its event across
 * a crash: PostgreSQL queues a row in the same transaction (a trigger on the history table); SQLite
 * reads the events from the history itself, behind a cursor, and writes rows only for events that
 * must wait or died (./sqlite/callback-cursor.ts). Sent events leave the queue; events the sender
 * gave up on stay, `dead`, until an operator re-queues them.
 *
 * Order: an event is handed out only when no earlier `pending` event of the same message is left
 * (handed out or not), so a later state never overtakes an earlier one. A dead event does not hold
 * the later ones back; each event carries its `seq` so a receiver can still put them in order.
 */
import type { MessagePort } from 'node:worker_threads';
import type { MessageState } from './records.js';

export type CallbackEventState = 'pending' | 'dead';

/** One queued state change, with what the sender needs to sign and send it. */
export interface CallbackEvent {
  /** The history row's seq: increases along a message's history; part of the stable webhook-id. */
  readonly seq: number;
  readonly messageId: string;
  /** The account (accounts.email) and the keyword the message was sent with. */
  readonly account: string;
  readonly keyword: string;
  /** The message's recipient (E.164): an application knows its messages by it. Never the text. */
  readonly smsto: string;
  readonly state: MessageState;
  /** The state before this change (`queued` for a message's first change). */
  readonly previousState: MessageState;
  /** When the state changed (ms since the epoch). */
  readonly at: number;
  readonly attempt: number;
  readonly route: string | null;
  readonly smscId: string | null;
  readonly errorCode: string | null;
  readonly errorText: string | null;
  readonly possibleDuplicate: boolean;
  /** The account's receiver and signing secret, as they are when the event is handed out. */
  readonly url: string;
  readonly secret: string;
  /** Sends tried before this one. */
  readonly tries: number;
  /** When the event was queued (ms), for the budget and the oldest-age metric. */
  readonly queuedAt: number;
}

export interface CallbackClaim {
  /** The instance taking them (several share one PostgreSQL queue). */
  readonly owner: string;
  readonly now: number;
  /** Handed-out events come back to the queue after this (ms), if their sender died. */
  readonly leaseUntil: number;
  readonly limit: number;
}

/** What became of one handed-out event. */
export type CallbackOutcome =
  | { readonly seq: number; readonly kind: 'sent' }
  | { readonly seq: number; readonly kind: 'retry'; readonly nextAttemptAt: number; readonly error: string }
  | { readonly seq: number; readonly kind: 'dead'; readonly error: string };

/** A queued event as `smskit callbacks` lists it. */
export interface QueuedCallback {
  readonly seq: number;
  readonly messageId: string;
  readonly account: string;
  readonly state: MessageState;
  readonly eventState: CallbackEventState;
  readonly queuedAt: number;
  readonly tries: number;
  /** When it is tried next (pending), or null (dead). */
  readonly nextAttemptAt: number | null;
  readonly lastError: string | null;
}

export interface CallbackQuery {
  readonly eventState?: CallbackEventState;
  readonly account?: string;
  readonly messageId?: string;
  /** Only events after this seq (for --follow), oldest first. */
  readonly afterSeq?: number;
  readonly limit: number;
}

export interface CallbackStats {
  readonly pending: number;
  readonly dead: number;
  /** When the oldest pending event was queued (ms), or null when none is. */
  readonly oldestPendingAt: number | null;
}

export interface CallbackStore {
  /** Due pending events not handed out (or whose lease ran out), each message's earliest only, oldest first. */
  claimCallbacks(claim: CallbackClaim): Promise<CallbackEvent[]>;
  /**
   * Extends `owner`'s leases on the events `seqs` that are still its own: a sender renews what it
   * holds, so a lease can be short and a dead sender's events come back soon.
   */
  renewCallbackLeases(owner: string, seqs: readonly number[], leaseUntil: number): Promise<void>;
  /** Records the outcomes in one transaction; only `owner`'s handed-out events are touched. */
  settleCallbacks(owner: string, outcomes: readonly CallbackOutcome[]): Promise<void>;
  /**
   * The receiver answered 410 Gone: the account's callbacks are switched off (its URL kept, so an
   * operator can see and re-enable it) and its pending events become dead with `reason`.
   */
  disableCallbacks(account: string, at: number, reason: string): Promise<void>;
  listCallbacks(query: CallbackQuery): Promise<QueuedCallback[]>;
  /**
   * The account's receiver answered again after failures: its pending events that wait for a
   * later try (not handed out) become due at `now`, so a backlog left by an outage drains at once
   * instead of each event waiting out its own backoff. Returns how many.
   */
  hastenCallbacks(account: string, now: number): Promise<number>;
  /** Dead events matching the filters become pending, due at `now`. Returns how many. */
  retryCallbacks(filter: Omit<CallbackQuery, 'eventState' | 'afterSeq' | 'limit'>, now: number): Promise<number>;
  callbackStats(): Promise<CallbackStats>;
  /**
   * Whether the sender has work or soon will: an event pending (handed out or not), or an account
   * whose receiver is on. A probe or two, cheap enough to ask every poll. `serve` starts its
   * sender's thread at the first yes: a service whose accounts have no receiver never needs it, and
   * one whose account has one starts it before the first change (a thread starting under load took
   * a bench round's first callbacks ~0.3 CPU-seconds, and delivery with it).
   */
  callbackSenderNeeded(): Promise<boolean>;
  /**
   * How the sender's thread reaches this store itself, so that its calls (claim, settle, renew,
   * disable, hasten) and the events they carry never pass through the event loop: on SQLite a
   * port to the writer thread, on PostgreSQL a pool of the thread's own (./sender-store.ts opens
   * it there). Absent where neither applies (SQLite without a writer thread): the event loop then
   * runs the thread's calls.
   */
  senderConnection?(): SenderConnection;
}

/** The store calls a callback sender makes (listing and counting are the operator's). */
export type SenderCalls = Pick<
  CallbackStore,
  'claimCallbacks' | 'settleCallbacks' | 'renewCallbackLeases' | 'disableCallbacks' | 'hastenCallbacks'
>;

/** What `CallbackStore.senderConnection` hands to the sender's thread (a port is transferred). */
export type SenderConnection =
  | { readonly kind: 'sqlite-writer'; readonly port: MessagePort }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly poolSize?: number;
      readonly connectTimeoutMs?: number;
      readonly statementTimeoutMs?: number;
    };
