/**
 * What the delivery engine asks of a way out (an SMPP bind, an e-mail gateway): send one stored
 * message, report what the peer said, and hand back delivery receipts.
 *
 * The engine owns every state change and its durable record; a route owns its connection, its
 * send window and its pace. A route never decides a message's final state on its own: it reports
 * the peer's answer as one of three outcomes and the engine records it.
 */
import type { Encoding } from '../sms/segments.js';
import type { Receipt } from '../store/records.js';

export type { Receipt, ReceiptState } from '../store/records.js';

/** A message as a route sends it: the stored row's fields, unchanged (the contract's names). */
export interface OutgoingMessage {
  /** The outbox id (SMS-<ULID>). */
  readonly id: string;
  /** E.164 with the leading "+", as stored (e.g. "+15551234567"). */
  readonly smsto: string;
  readonly smsmsg: string;
  /** As the service computed it at acceptance: the route sends exactly this encoding. */
  readonly encoding: Encoding;
  /** As stored: a long message goes out in exactly this many parts. */
  readonly segments: number;
  /** SMSSendToPort's application port (UDH 16-bit port IE), or null. */
  readonly port: number | null;
  /** The carrier code it was accepted with (canonical, lower case), for gateways that need it. */
  readonly carrierCode: string;
  /**
   * When its validity ends (ms since the epoch: acceptance + the delivery validity): a route
   * tells the peer not to deliver it after that (SMPP validity_period). Absent: the peer's default.
   */
  readonly validUntil?: number;
  /** This delivery attempt's number (1 for the first): failover routes move on after some. */
  readonly attempt?: number;
}

/**
 * The peer's answer to one message (every part of it).
 * - accepted: the peer took it; one peer id per part, in part order (the first one is the
 *   message's SMSC id).
 * - retry: a transient condition (connection lost, timeout, peer busy or a 4xx mail reply); the
 *   engine retries with backoff. `maybeSent` is true when the peer may have taken it anyway (the
 *   request was written but its answer never came): the engine flags the message as a possible
 *   duplicate when it sends it again.
 * - rejected: a permanent refusal (e.g. ESME_RINVDSTADR, a 5xx mail reply); never retried.
 * Throttling (ESME_RTHROTTLED, ESME_RMSGQFUL) is NOT an outcome: the route slows down and
 * resends the same message itself.
 */
export type SubmitResult =
  | {
      readonly outcome: 'accepted';
      readonly peerIds: readonly string[];
      /** The member route that took it, when the route is made of others (./composite-route.ts). */
      readonly route?: string;
    }
  | { readonly outcome: 'retry'; readonly code: string; readonly text: string; readonly maybeSent: boolean }
  | { readonly outcome: 'rejected'; readonly code: string; readonly text: string };

export interface RouteStatus {
  /** True while the route can send (bound / relay reachable). */
  readonly up: boolean;
  /** Requests sent and not yet answered. */
  readonly inFlight: number;
  /** Most requests it keeps unanswered at once. */
  readonly window: number;
  /** One line on the connection, e.g. "bound trx to 127.0.0.1:2775" or "reconnecting in 4 s: ECONNREFUSED". */
  readonly detail: string;
  /** Each session of a route that keeps several (SMPP `binds: N`). */
  readonly binds?: readonly BindStatus[];
  /** Each member of a route made of others (failover, roundRobin). */
  readonly members?: readonly MemberStatus[];
}

/** One member of a failover or round-robin route, for /metrics and /healthz. */
export interface MemberStatus extends RouteStatus {
  readonly name: string;
  readonly kind: Route['kind'];
}

/** One session (bind) of a route, for /metrics and /healthz. */
export interface BindStatus {
  /** 1-based, in the order the route opened them. */
  readonly bind: number;
  readonly up: boolean;
  /** Messages handed to this session and not yet answered. */
  readonly inFlight: number;
  readonly window: number;
  readonly detail: string;
}

/** What the engine gives a route when it starts it. */
export interface RouteEvents {
  /**
   * A receipt arrived. Resolves once the engine has recorded it durably: true when it matched a
   * message, false for an unknown id. The route acknowledges the receipt to the peer only after
   * this resolves (so a receipt is never lost to a crash: an unacknowledged one is sent again by
   * the peer), and acknowledges unknown ids too (logging them), so the peer does not resend them.
   * `member`: the member route it came in on, for a route made of others (ids are per member).
   */
  receipt(receipt: Receipt, member?: string): Promise<boolean>;
  /** One line for the operator's log; never a password or message text. */
  log(line: string): void;
}

export interface Route {
  /** The route's name in the routes file. */
  readonly name: string;
  readonly kind: 'smpp' | 'email' | 'failover' | 'roundRobin';
  /**
   * How long a message the peer accepted waits for its delivery receipt before it becomes
   * `unknown` (final; a later receipt still records the true outcome). Absent: no timeout (the
   * route asks for no receipts, so `accepted` is as far as it can know).
   */
  readonly receiptTimeoutMs?: number | undefined;
  /** Starts connecting in the background. Never throws for a peer that is down: it retries with backoff and logs. */
  start(events: RouteEvents): void;
  /**
   * Sends one message (all its parts). Resolves with the peer's answer; never rejects (a thrown
   * error is a bug). Called only while `status().up` and with fewer than `window` in flight;
   * pacing (throughput cap, throttling) happens inside, so the promise may take time.
   */
  submit(message: OutgoingMessage): Promise<SubmitResult>;
  status(): RouteStatus;
  /**
   * Stops: waits (up to `deadlineMs`) for answers to what is in flight, resolves the rest as
   * `retry` with maybeSent true, then unbinds and closes. Receipts that arrive meanwhile are
   * still passed on.
   */
  close(deadlineMs: number): Promise<void>;
}
