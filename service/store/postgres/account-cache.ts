/**
 * Account rows kept in the instance while PostgreSQL tells it of every change to them, so that
 * accepting a message costs no read of its account: a round trip per batch (the group commit's)
 * instead of two.
 *
 * A trigger (migration 7) sends `NOTIFY smskit_accounts, '<email>'` with every change to an
 * account row, delivered at its commit to every listening session. One connection per instance
 * LISTENs; a notification drops that address from the cache. A row read from the database is
 * kept only if the listener was listening before the read was sent and nothing was said about
 * that address meanwhile, so a change is never hidden by a read that raced it. While the
 * listener is down (the server restarted, a connection broke) nothing is kept and every read
 * goes to the database; it listens again on a later read.
 *
 * So an account change (disable, new password, new keywords, lockout lifted) reaches every
 * instance as fast as PostgreSQL delivers a notification (the time of its commit plus a
 * message): the same as a read that was sent a moment before the change committed.
 */
import type { Pool, PoolClient } from 'pg';
import type { AccountRow } from '../records.js';

export const ACCOUNTS_CHANNEL = 'smskit_accounts';

/** Addresses kept at most; the oldest goes first. */
const MAX_ACCOUNTS = 10_000;
/** After the listener failed, reads go to the database for this long before it listens again. */
const RELISTEN_AFTER_MS = 1_000;

export class AccountCache {
  private readonly rows = new Map<string, AccountRow | undefined>();
  /** Bumped by each notification per address, and for all by a listener that went away. */
  private readonly changes = new Map<string, number>();
  private epoch = 0;
  private listener: PoolClient | undefined;
  private starting: Promise<void> | undefined;
  private retryAt = 0;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly read: (email: string) => Promise<AccountRow | undefined>,
  ) {}

  async get(email: string): Promise<AccountRow | undefined> {
    if (this.rows.has(email)) return this.rows.get(email);
    const listening = this.listener !== undefined;
    if (!listening) this.listen();
    const epoch = this.epoch;
    const change = this.changes.get(email) ?? 0;
    const row = await this.read(email);
    if (listening && this.listener !== undefined && epoch === this.epoch && change === (this.changes.get(email) ?? 0))
      this.keep(email, row);
    return row;
  }

  /** This instance changed the account: its next read goes to the database. */
  forget(email: string): void {
    if (this.changes.size >= MAX_ACCOUNTS) this.reset();
    this.changes.set(email, (this.changes.get(email) ?? 0) + 1);
    this.rows.delete(email);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.starting;
    this.drop(false);
  }

  private keep(email: string, row: AccountRow | undefined): void {
    if (this.rows.size >= MAX_ACCOUNTS) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
    this.rows.set(email, row);
  }

  /** Starts listening, unless it is already starting or failed a moment ago. */
  private listen(): void {
    if (this.closed || this.starting !== undefined || Date.now() < this.retryAt) return;
    this.starting = this.startListening().finally(() => {
      this.starting = undefined;
    });
  }

  private async startListening(): Promise<void> {
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      client.on('notification', (message) => {
        if (message.channel !== ACCOUNTS_CHANNEL) return;
        if (message.payload) this.forget(message.payload);
        else this.reset();
      });
      client.on('error', () => this.drop(true));
      client.on('end', () => this.drop(true));
      await client.query(`LISTEN ${ACCOUNTS_CHANNEL}`);
      if (this.closed) throw new Error('closed');
      this.listener = client;
    } catch {
      this.retryAt = Date.now() + RELISTEN_AFTER_MS;
      client?.release(true);
    }
  }

  /** Everything kept may be stale from now on: forget it all. */
  private reset(): void {
    this.epoch++;
    this.rows.clear();
    this.changes.clear();
  }

  /** The listener is gone (or the cache closes): nothing is kept until it listens again. */
  private drop(failed: boolean): void {
    const client = this.listener;
    this.listener = undefined;
    this.reset();
    if (failed) this.retryAt = Date.now() + RELISTEN_AFTER_MS;
    client?.release(true);
  }
}
