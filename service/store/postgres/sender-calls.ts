/**
 * The callback sender's calls on PostgreSQL: on the store's own callback pool when the sender runs
 * on the event loop, or on a pool of the sender's thread (`openSenderCalls`, what `serve` does),
 * so that neither the queries nor the claimed events' rows pass through the event loop. Either
 * pool is the same: its own connections beside acceptance's and delivery's, never in their way;
 * a lost settlement only sends an event again, so they need not wait for the WAL flush.
 */
import type { SenderCalls, SenderConnection } from '../callbacks.js';
import { postgresCallbacks } from './callbacks.js';
import { type Call, mappedCall } from './calls.js';
import { createPool, type PoolOptions } from './connect.js';
import { redactUrl, toStorageError } from './errors.js';

/** The callback pool's connections: a claim and a settlement at a time, and an operator's re-queue. */
const CALLBACK_POOL_SIZE = 2;

type PoolSettings = Omit<Extract<SenderConnection, { kind: 'postgres' }>, 'kind'>;

export function callbackPoolOptions(settings: PoolSettings, log?: (line: string) => void): PoolOptions {
  const where = redactUrl(settings.url);
  return {
    url: settings.url,
    poolSize: Math.min(CALLBACK_POOL_SIZE, Math.max(1, Math.floor(settings.poolSize ?? CALLBACK_POOL_SIZE))),
    ...(settings.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: settings.connectTimeoutMs }),
    ...(settings.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: settings.statementTimeoutMs }),
    applicationName: 'smskit callbacks',
    settings: { plan_cache_mode: 'force_custom_plan', synchronous_commit: 'off' },
    onIdleError: (error) => log?.(toStorageError(error, `database connection to ${where} lost`).message),
  };
}

/** Each sender call with what its failure is called. */
export function mappedSenderCalls(calls: SenderCalls, call: Call): SenderCalls {
  return {
    claimCallbacks: (claim) => call('cannot claim callbacks to send', () => calls.claimCallbacks(claim)),
    settleCallbacks: (owner, outcomes) =>
      call('cannot record callback outcomes', () => calls.settleCallbacks(owner, outcomes)),
    renewCallbackLeases: (owner, seqs, leaseUntil) =>
      call('cannot renew callback leases', () => calls.renewCallbackLeases(owner, seqs, leaseUntil)),
    disableCallbacks: (account, at, reason) =>
      call('cannot switch callbacks off', () => calls.disableCallbacks(account, at, reason)),
    hastenCallbacks: (account, now) =>
      call('cannot bring callbacks forward', () => calls.hastenCallbacks(account, now)),
  };
}

/** The sender's calls on a pool of the calling thread's own; close() ends the pool. */
export async function openSenderCalls(
  connection: Extract<SenderConnection, { kind: 'postgres' }>,
  log: (line: string) => void,
): Promise<{ readonly calls: SenderCalls; close(): Promise<void> }> {
  const pool = await createPool(callbackPoolOptions(connection, log));
  let closed = false;
  return {
    calls: mappedSenderCalls(
      postgresCallbacks(pool, pool),
      mappedCall(() => closed),
    ),
    async close() {
      closed = true;
      await pool.end().catch(() => {});
    },
  };
}
