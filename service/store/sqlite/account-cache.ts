/**
 * Account rows kept by a SQLite connection between changes, so that accepting a message costs no
 * read of its account: under load that read took ~50 µs of the event loop per request (a profile
 * of `bench/profile-delivery.ts`, bench/README.md), where the rows of a service's few accounts
 * hardly ever change.
 *
 * Every change to an account row, whoever makes it (this connection, the writer thread's, `smskit
 * account` in another process), bumps `accounts_version` (triggers of migration 9). The version is
 * read at the first account asked for in a turn of the event loop, and a new one drops every
 * kept row. So a change committed by another connection is seen from the next turn on: the same
 * as a read that was sent a moment before the change committed. A change made through this
 * connection drops the rows at once.
 */
import type { AccountRow } from '../records.js';

/** Addresses kept at most (unknown ones too: a stream of wrong addresses must not read each time); then all go. */
const MAX_ACCOUNTS = 10_000;

export class AccountRowCache {
  private readonly rows = new Map<string, AccountRow | undefined>();
  /** The accounts' version the kept rows were read at; -1: none read yet (or a change of ours since). */
  private version = -1;
  /** The version was read in this turn of the event loop. */
  private checked = false;

  constructor(
    private readonly readVersion: () => number,
    private readonly read: (email: string) => AccountRow | undefined,
    private readonly atEndOfTurn: (task: () => void) => void = (task) => void setImmediate(task),
  ) {}

  get(email: string): AccountRow | undefined {
    if (!this.checked) {
      this.checked = true;
      this.atEndOfTurn(() => {
        this.checked = false;
      });
      const version = this.readVersion();
      if (version !== this.version) this.rows.clear();
      this.version = version;
    }
    if (this.rows.has(email)) return this.rows.get(email);
    // Read after the version: a change committed between the two is newer than the version kept,
    // so the next turn's version drops this row again.
    const row = this.read(email);
    if (this.rows.size >= MAX_ACCOUNTS) this.rows.clear();
    this.rows.set(email, row);
    return row;
  }

  /** This connection changed an account: nothing kept is trusted until the version is read again. */
  forget(): void {
    this.rows.clear();
    this.version = -1;
  }
}
