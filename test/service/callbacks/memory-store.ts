/**
 * A CallbackStore in memory, for the sender's unit tests: our own interface (not a peer), with the
 * rules the real stores keep — only each message's earliest pending event is handed out, leases,
 * sent events leave, 410 makes the account's pending events dead — so the sender is tested against
 * the contract, and the SQL stores against the same rules in their own suites.
 */
import type {
  CallbackClaim,
  CallbackEvent,
  CallbackOutcome,
  CallbackQuery,
  CallbackStats,
  CallbackStore,
  QueuedCallback,
} from '../../../service/store/callbacks.js';
import type { MessageState } from '../../../service/store/records.js';

interface Row {
  event: CallbackEvent;
  dueAt: number;
  tries: number;
  state: 'pending' | 'dead';
  leaseOwner: string | null;
  leaseUntil: number;
  lastError: string | null;
}

export interface MemoryCallbackStore extends CallbackStore {
  /** Queues one state change, as the trigger would. */
  add(event: Partial<CallbackEvent> & Pick<CallbackEvent, 'messageId' | 'state' | 'url' | 'secret'>): CallbackEvent;
  readonly rows: ReadonlyMap<number, Row>;
  readonly settled: CallbackOutcome[];
  readonly claims: number[];
  /** How many seqs each lease renewal named. */
  readonly renewals: number[];
  readonly disabled: { account: string; reason: string }[];
  /** The accounts each hastenCallbacks named, in order. */
  readonly hastened: string[];
}

export function memoryCallbackStore(clock: () => number = Date.now): MemoryCallbackStore {
  const rows = new Map<number, Row>();
  const previous = new Map<string, MessageState>();
  const settled: CallbackOutcome[] = [];
  const claims: number[] = [];
  const renewals: number[] = [];
  const disabled: { account: string; reason: string }[] = [];
  const hastened: string[] = [];
  let seq = 0;
  // Each message's pending seqs, ascending: the earliest is the only one a claim may hand out.
  const pendingOf = new Map<string, number[]>();
  const earliestPending = (messageId: string): number | undefined => pendingOf.get(messageId)?.[0];
  const leavePending = (r: Row): void => {
    const list = pendingOf.get(r.event.messageId) ?? [];
    const at = list.indexOf(r.event.seq);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) pendingOf.delete(r.event.messageId);
  };
  const joinPending = (r: Row): void => {
    const list = pendingOf.get(r.event.messageId) ?? [];
    list.push(r.event.seq);
    list.sort((a, b) => a - b);
    pendingOf.set(r.event.messageId, list);
  };
  const listed = (r: Row): QueuedCallback => ({
    seq: r.event.seq,
    messageId: r.event.messageId,
    account: r.event.account,
    state: r.event.state,
    eventState: r.state,
    queuedAt: r.event.queuedAt,
    tries: r.tries,
    nextAttemptAt: r.state === 'pending' ? r.dueAt : null,
    lastError: r.lastError,
  });
  const matches = (r: Row, q: Omit<CallbackQuery, 'limit'>): boolean =>
    (q.eventState === undefined || r.state === q.eventState) &&
    (q.account === undefined || r.event.account === q.account) &&
    (q.messageId === undefined || r.event.messageId === q.messageId) &&
    (q.afterSeq === undefined || r.event.seq > q.afterSeq);
  return {
    rows,
    settled,
    claims,
    renewals,
    disabled,
    hastened,
    add(partial) {
      seq++;
      const now = clock();
      const event: CallbackEvent = {
        seq,
        account: 'app@example.com',
        keyword: 'ACME',
        smsto: '+15551234567',
        previousState: previous.get(partial.messageId) ?? 'queued',
        at: now,
        attempt: 1,
        route: 'sim',
        smscId: null,
        errorCode: null,
        errorText: null,
        possibleDuplicate: false,
        tries: 0,
        queuedAt: now,
        ...partial,
      };
      previous.set(partial.messageId, partial.state);
      const row: Row = {
        event,
        dueAt: now,
        tries: 0,
        state: 'pending',
        leaseOwner: null,
        leaseUntil: 0,
        lastError: null,
      };
      rows.set(seq, row);
      joinPending(row);
      return event;
    },
    async claimCallbacks(claim: CallbackClaim) {
      const out: CallbackEvent[] = [];
      for (const r of rows.values()) {
        if (out.length >= claim.limit) break;
        if (r.state !== 'pending' || r.dueAt > claim.now) continue;
        if (r.leaseOwner !== null && r.leaseUntil > claim.now) continue;
        if (earliestPending(r.event.messageId) !== r.event.seq) continue;
        r.leaseOwner = claim.owner;
        r.leaseUntil = claim.leaseUntil;
        out.push({ ...r.event, tries: r.tries });
      }
      claims.push(out.length);
      return out;
    },
    async renewCallbackLeases(owner, seqs, leaseUntil) {
      renewals.push(seqs.length);
      for (const seq of seqs) {
        const r = rows.get(seq);
        if (r !== undefined && r.state === 'pending' && r.leaseOwner === owner) {
          r.leaseUntil = leaseUntil;
          r.dueAt = leaseUntil;
        }
      }
    },
    async settleCallbacks(owner, outcomes) {
      for (const o of outcomes) {
        const r = rows.get(o.seq);
        if (r === undefined || r.leaseOwner !== owner) continue;
        settled.push(o);
        r.leaseOwner = null;
        if (o.kind === 'sent') {
          rows.delete(o.seq);
          leavePending(r);
        } else {
          r.tries++;
          r.lastError = o.error;
          if (o.kind === 'dead') {
            r.state = 'dead';
            leavePending(r);
          } else r.dueAt = o.nextAttemptAt;
        }
      }
    },
    async disableCallbacks(account, _at, reason) {
      disabled.push({ account, reason });
      for (const r of rows.values())
        if (r.event.account === account && r.state === 'pending') {
          leavePending(r);
          r.state = 'dead';
          r.lastError = reason;
        }
    },
    async hastenCallbacks(account, now) {
      hastened.push(account);
      let count = 0;
      for (const r of rows.values())
        if (r.event.account === account && r.state === 'pending' && r.leaseOwner === null && r.dueAt > now) {
          r.dueAt = now;
          count++;
        }
      return count;
    },
    async listCallbacks(query) {
      return [...rows.values()]
        .filter((r) => matches(r, query))
        .sort((a, b) => a.event.seq - b.event.seq)
        .slice(0, query.limit)
        .map(listed);
    },
    async retryCallbacks(filter, now) {
      let count = 0;
      for (const r of rows.values())
        if (r.state === 'dead' && matches(r, filter)) {
          r.state = 'pending';
          r.dueAt = now;
          joinPending(r);
          count++;
        }
      return count;
    },
    async callbackSenderNeeded(): Promise<boolean> {
      return [...rows.values()].some((r) => r.state === 'pending');
    },
    async callbackStats(): Promise<CallbackStats> {
      const pending = [...rows.values()].filter((r) => r.state === 'pending');
      return {
        pending: pending.length,
        dead: rows.size - pending.length,
        oldestPendingAt: pending.length === 0 ? null : Math.min(...pending.map((r) => r.event.queuedAt)),
      };
    },
  };
}
