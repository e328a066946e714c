/**
 * `smskit outbox --follow`: every state change as it is recorded, read from the store with two
 * cursors: new messages (ids after the newest one seen; a new message is its `queued` or `test`
 * change) and the history table (outbox_events.seq after the last one seen). Polling, so it
 * works from another process, on any store, while the service runs; nothing is held open
 * between polls.
 */
import type { HistoryEvent, MessageState, Store, StoredMessage } from '../store/index.js';

export interface FollowFilter {
  readonly states?: readonly MessageState[];
  readonly smsto?: string;
  readonly account?: string;
  readonly id?: string;
}

export interface FollowOptions {
  readonly filter: FollowFilter;
  /** Between polls (ms). */
  readonly intervalMs: number;
  readonly signal: AbortSignal;
  readonly onChange: (id: string, event: HistoryEvent) => void;
}

type FollowStore = Pick<Store, 'findOutbox' | 'listOutbox' | 'historyAfter' | 'lastHistorySeq' | 'getMessage'>;

const BATCH = 1000;
/** Messages remembered for filtering their history events by account/smsto. */
const MAX_CACHED = 10_000;

function matches(message: StoredMessage, filter: FollowFilter): boolean {
  return (
    (filter.id === undefined || message.id === filter.id) &&
    (filter.smsto === undefined || message.smsto === filter.smsto) &&
    (filter.account === undefined || message.account === filter.account)
  );
}

/** Resolves when `signal` aborts. Starts from now: earlier changes are the listing's business. */
export async function followOutbox(store: FollowStore, options: FollowOptions): Promise<void> {
  const { filter, signal } = options;
  const stateOk = (state: MessageState): boolean =>
    filter.states === undefined || filter.states.length === 0 || filter.states.includes(state);
  let lastId = (await store.findOutbox({ limit: 1 }))[0]?.id ?? '';
  let lastSeq = await store.lastHistorySeq();
  const seen = new Map<string, StoredMessage | null>();
  const messageOf = async (id: string): Promise<StoredMessage | null> => {
    if (!seen.has(id)) {
      if (seen.size >= MAX_CACHED) seen.delete(seen.keys().next().value ?? '');
      seen.set(id, (await store.getMessage(id)) ?? null);
    }
    return seen.get(id) ?? null;
  };
  while (!signal.aborted) {
    let busy = false;
    const fresh = await store.listOutbox({ afterId: lastId, limit: BATCH });
    for (const message of fresh) {
      lastId = message.id;
      seen.set(message.id, message);
      const state: MessageState = message.state === 'test' ? 'test' : 'queued';
      if (matches(message, filter) && stateOk(state))
        options.onChange(message.id, {
          at: message.createdAt,
          state,
          attempt: 0,
          route: null,
          smscId: null,
          code: null,
          text: 'accepted from the client',
        });
    }
    const changes = await store.historyAfter(lastSeq, BATCH);
    for (const change of changes) {
      lastSeq = change.seq;
      if (!stateOk(change.state)) continue;
      const message = await messageOf(change.messageId);
      if (message !== null && matches(message, filter)) options.onChange(change.messageId, change);
    }
    busy = fresh.length === BATCH || changes.length === BATCH;
    if (!busy) await sleep(options.intervalMs, signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
