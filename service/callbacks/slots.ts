/**
 * Counting gates: the sender's whole concurrency, and one per receiver host so a slow or dead
 * receiver holds at most its own share of connections while the others go on.
 */

export interface Gate {
  /** Resolves once a place is free (at once when one is). */
  enter(): Promise<void> | undefined;
  leave(): void;
  readonly active: number;
}

export function createGate(limit: number): Gate {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    enter() {
      if (active < limit) {
        active++;
        return undefined;
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave() {
      const next = waiting.shift();
      // The place passes straight to the next in line, so `active` does not change.
      if (next !== undefined) next();
      else active--;
    },
    get active() {
      return active;
    },
  };
}

/** One gate per key (the receiver's host), dropped when nobody uses it. */
export interface KeyedGates {
  enter(key: string): Promise<void> | undefined;
  leave(key: string): void;
  /** The most places any one key holds now (for tests and the health entry). */
  busiest(): number;
}

export function createKeyedGates(limit: number): KeyedGates {
  const gates = new Map<string, { gate: Gate; users: number }>();
  return {
    enter(key) {
      let entry = gates.get(key);
      if (entry === undefined) {
        entry = { gate: createGate(limit), users: 0 };
        gates.set(key, entry);
      }
      entry.users++;
      return entry.gate.enter();
    },
    leave(key) {
      const entry = gates.get(key);
      if (entry === undefined) return;
      entry.gate.leave();
      entry.users--;
      if (entry.users === 0) gates.delete(key);
    },
    busiest: () => Math.max(0, ...[...gates.values()].map((entry) => entry.gate.active)),
  };
}
