/**
 * Account rows kept by a SQLite connection between changes, so that accepting a message costs no
 * read of its account. With the writer thread committing all the time, each read on the event
 * loop's connection starts on a database that changed since the last one and reads its pages
 * again: ~30 µs of the ~200 of CPU a request cost under load (bench/README.md), where a service's
 * few account rows hardly ever change.
 *
 * Every change to an account row, whoever makes it (this connection, the writer thread's, `smskit
 * account` in another process), bumps `accounts_version` (triggers of migration 9). The version
 * is read again once the last reading is VERSION_CHECK_MS old, and a new one drops every row
 * kept; so a change committed by another connection applies to every request that arrives
 * VERSION_CHECK_MS or more after its commit (and may apply sooner). A change made through this
 * connection drops the rows at once.
 */
import type { AccountRow } from '../records.js';

/** How stale a kept row may be, at most, after another connection changed it (ms). */
export const VERSION_CHECK_MS = 5;
/** Addresses kept at most (unknown ones too: a stream of wrong addresses must not read each time); then all go. */
const MAX_ACCOUNTS = 10_000;

export class AccountRowCache {
  private readonly rows = new Map<string, AccountRow | undefined>();
  /** The accounts' version the kept rows were read at; -1: none read yet (or a change of ours since). */
  private version = -1;
  /** When the version was last read (the clock's ms). */
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly readVersion: () => number,
    private readonly read: (email: string) => AccountRow | undefined,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  get(email: string): AccountRow | undefined {
    const now = this.clock();
    if (now - this.checkedAt >= VERSION_CHECK_MS) {
      const version = this.readVersion();
      if (version !== this.version) this.rows.clear();
      this.version = version;
      // Only after the read: one that failed (the database busy) leaves the next request to read it.
      this.checkedAt = now;
    }
    if (this.rows.has(email)) return this.rows.get(email);
    // Read after the version: a change committed between the two is newer than the version kept,
    // so the next reading of the version drops this row again.
    const row = this.read(email);
    if (this.rows.size >= MAX_ACCOUNTS) this.rows.clear();
    this.rows.set(email, row);
    return row;
  }

  /** This connection changed an account: nothing kept is trusted until the version is read again. */
  forget(): void {
    this.rows.clear();
    this.version = -1;
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }
}
