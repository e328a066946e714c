/**
 * What the delivery engine asks of the store. Every method is one transaction; `apply` takes a
 * batch of changes so the engine can group many messages' state changes into one commit.
 *
 * Ownership: a delivery worker (`owner`, one per running service) claims queued messages, which
 * become `sending` under a lease until `leaseUntil`. Only the owner records the answer. A worker
 * that dies leaves its messages `sending`; once the lease has run out any worker takes them back
 * (`recoverExpiredLeases`), flagged as possible duplicates because the peer may have them.
 */
import type { Receipt } from './records.js';
import type { Encoding } from '../sms/segments.js';

/** Which carrier codes a route takes: the listed ones, or (the default route) all others. */
export type CarrierSelection = { readonly only: readonly string[] } | { readonly except: readonly string[] };

export interface ClaimRequest {
  readonly route: string;
  readonly carriers: CarrierSelection;
  readonly limit: number;
  readonly owner: string;
  readonly now: number;
  readonly leaseUntil: number;
}

export interface ClaimedMessage {
  readonly id: string;
  readonly createdAt: number;
  readonly smsto: string;
  readonly carrierCode: string;
  readonly smsmsg: string;
  readonly encoding: Encoding;
  readonly segments: number;
  readonly port: number | null;
  /** This attempt's number (1 for the first). */
  readonly attempt: number;
  readonly possibleDuplicate: boolean;
}

interface Owned {
  readonly id: string;
  readonly owner: string;
  readonly at: number;
  readonly attempt: number;
  readonly route: string;
}

/** One state change the engine records. */
export type DeliveryChange =
  /** The peer took it: `peerIds` one per part, in part order. */
  | (Owned & { readonly kind: 'accepted'; readonly peerIds: readonly string[] })
  /** Back to the queue for another attempt at `nextAttemptAt`; `maybeSent` flags a possible duplicate. */
  | (Owned & {
      readonly kind: 'requeue';
      readonly nextAttemptAt: number;
      readonly code: string;
      readonly text: string;
      readonly maybeSent: boolean;
    })
  /** A final outcome without a receipt. */
  | (Owned & {
      readonly kind: 'final';
      readonly state: 'rejected' | 'failed' | 'expired';
      readonly code: string;
      readonly text: string;
    })
  /** Claimed but never written to the peer (the worker stopped): queued again, the attempt given back. */
  | (Owned & { readonly kind: 'released' })
  /** A delivery receipt for one part. */
  | { readonly kind: 'receipt'; readonly route: string; readonly at: number; readonly receipt: Receipt };

/** Accepted messages of `route` with no final receipt since before `acceptedBefore` become `unknown`. */
export interface ReceiptTimeout {
  readonly route: string;
  readonly acceptedBefore: number;
  readonly now: number;
  /** The history line, e.g. "no delivery receipt within 48 h". */
  readonly text: string;
  /** At most this many per call (the caller calls again while it gets this many). */
  readonly limit: number;
}

export interface DeliveryStore {
  /** Claims up to `limit` due queued messages in acceptance order; they become `sending`. */
  claim(request: ClaimRequest): Promise<ClaimedMessage[]>;
  /**
   * Records a batch of changes in one transaction. Per change: true when it applied (for a
   * receipt: it matched a part), false when the message was no longer the owner's or the receipt
   * names an unknown id.
   */
  apply(changes: readonly DeliveryChange[]): Promise<boolean[]>;
  /** Extends the lease of every message `owner` is sending. */
  renewLeases(owner: string, leaseUntil: number, now: number): Promise<void>;
  /** Takes back messages whose lease ran out; returns how many. */
  recoverExpiredLeases(now: number): Promise<number>;
  /** Queued messages accepted before `createdBefore` become `expired`; returns how many. */
  expireOverdue(createdBefore: number, now: number): Promise<number>;
  /** Applies a route's receipt timeout (see ReceiptTimeout); returns how many became `unknown`. */
  timeOutReceipts(request: ReceiptTimeout): Promise<number>;
}
