/**
 * The SQLite callback sender's events read from the history and not settled yet, kept in the
 * writer's memory (./callback-cursor.ts says why none of them has a row): those handed out, with
 * their leases, and each message's later events waiting for their turn. It outlives a reopened
 * connection (the sender still holds what it was handed).
 *
 * It follows the database through rollbacks: each sender call takes a snapshot under its turn
 * (a number the call also writes to the database); a call that reads a lower turn than the
 * snapshots it holds puts the memory back as it was before the first call the database does not
 * have (the writer thread runs a failed batch's calls again one by one). Entries are never
 * changed in place, only replaced, so a snapshot is a shallow copy of the two maps: copying every
 * entry at every call was about a quarter of the writer's callback time in a profile of the
 * bench's delivery run.
 */

/** An event read from the history, not settled yet. */
export interface Held {
  readonly messageId: string;
  readonly account: string;
  /** The change's time: its queue row's `queued_at` if it must wait. */
  readonly at: number;
}

/** An event handed out (or, with no owner and a lease at 0, ready to be: its message's turn came). */
export interface Handed extends Held {
  readonly owner: string;
  readonly leaseUntil: number;
  /** Sends started, this one included. */
  readonly tries: number;
}

/** A later event of a message whose earlier one is handed out: it goes when that one is done. */
export interface Waiting extends Held {
  readonly seq: number;
}

/**
 * How many turns of snapshots are kept. A turn read inside a batch's transaction is not yet
 * committed; the calls of one batch (a sender has a claim, a settlement and a renewal at most in
 * flight) are all within these.
 */
const KEPT_TURNS = 16;
/** `lowest()` when nothing is held. */
export const NOTHING_HELD = Number.MAX_SAFE_INTEGER;

interface Snapshot {
  readonly turn: number;
  readonly handed: Map<number, Handed>;
  readonly waiting: Map<string, readonly Waiting[]>;
  readonly waitingCount: number;
  readonly resumed: boolean;
}

export class HeldEvents {
  /** Replaced, never changed in place (the snapshots share the entries). */
  handed = new Map<number, Handed>();
  /** By message, oldest first; each list is replaced, never changed in place. */
  private waiting = new Map<string, readonly Waiting[]>();
  private waitingCount = 0;
  private readonly snapshots: Snapshot[] = [];
  /**
   * Whether a call of this process committed its start: the first sends again what a previous
   * process left in flight (set by the caller after `beginTurn`, so a rollback clears it again).
   */
  resumed = false;

  get waitingSize(): number {
    return this.waitingCount;
  }

  /** Before the call of turn `committedTurn + 1`; first puts back what calls after `committedTurn` did. */
  beginTurn(committedTurn: number): void {
    const firstLost = this.snapshots.findIndex((snapshot) => snapshot.turn > committedTurn);
    if (firstLost >= 0) {
      const before = this.snapshots[firstLost]!;
      this.handed = before.handed;
      this.waiting = before.waiting;
      this.waitingCount = before.waitingCount;
      this.resumed = before.resumed;
      this.snapshots.length = firstLost;
    }
    while (this.snapshots[0] !== undefined && this.snapshots[0].turn <= committedTurn - KEPT_TURNS)
      this.snapshots.shift();
    this.snapshots.push({
      turn: committedTurn + 1,
      handed: new Map(this.handed),
      waiting: new Map(this.waiting),
      waitingCount: this.waitingCount,
      resumed: this.resumed,
    });
  }

  /** One less than the oldest event held (handed out, ready or waiting), or NOTHING_HELD. */
  lowest(): number {
    let low = NOTHING_HELD;
    for (const seq of this.handed.keys()) if (seq <= low) low = seq - 1;
    for (const list of this.waiting.values()) if (list[0] !== undefined && list[0].seq <= low) low = list[0].seq - 1;
    return low;
  }

  /** The messages with an event handed out or ready. */
  messagesHeld(): Set<string> {
    return new Set([...this.handed.values()].map((event) => event.messageId));
  }

  /** Handed out events whose lease ran out, and ready ones, oldest first. */
  due(now: number, limit: number): [number, Handed][] {
    return [...this.handed]
      .filter(([, event]) => event.leaseUntil <= now)
      .sort(([a], [b]) => a - b)
      .slice(0, limit);
  }

  wait(event: Waiting): void {
    const list = this.waiting.get(event.messageId) ?? [];
    this.waiting.set(event.messageId, [...list, event]);
    this.waitingCount++;
  }

  /** The message's next waiting event becomes ready, if it has one. */
  next(messageId: string): void {
    const [next, ...rest] = this.waiting.get(messageId) ?? [];
    if (rest.length === 0) this.waiting.delete(messageId);
    else this.waiting.set(messageId, rest);
    if (next === undefined) return;
    this.waitingCount--;
    const { seq, ...held } = next;
    this.handed.set(seq, { ...held, owner: '', leaseUntil: 0, tries: 0 });
  }

  /** Removes and returns the message's waiting events. */
  takeWaiting(messageId: string): readonly Waiting[] {
    const list = this.waiting.get(messageId) ?? [];
    this.waiting.delete(messageId);
    this.waitingCount -= list.length;
    return list;
  }

  /** Removes and returns the account's waiting events. */
  takeWaitingOf(account: string): Waiting[] {
    const taken: Waiting[] = [];
    for (const [messageId, list] of this.waiting)
      if (list[0]?.account === account) taken.push(...this.takeWaiting(messageId));
    return taken;
  }
}
