/**
 * The callback sender's store calls from its own thread straight to the SQLite writer thread,
 * over a port of the writer's channel (`SqliteWriter.openChannel`): the same ops, joining the same
 * batches, as when the event loop makes them (./store.ts), without the event loop reading each
 * claimed event and copying it on to the sender's thread.
 */
import type { MessagePort } from 'node:worker_threads';
import type { SenderCalls } from '../callbacks.js';
import type { WriteOps } from './write-ops.js';
import { connectWriter } from './writer.js';

type SenderOp = keyof SenderCalls;

type WriteSenderOp = <Op extends SenderOp>(
  op: Op,
  ...args: Parameters<WriteOps[Op]>
) => Promise<ReturnType<WriteOps[Op]>>;

/** The sender's calls as ops of ./write-ops.ts, made by `write` (the writer's, or the event loop's own connection). */
export function senderCalls(write: WriteSenderOp): SenderCalls {
  return {
    claimCallbacks: (claim) => write('claimCallbacks', claim),
    settleCallbacks: (owner, outcomes) =>
      outcomes.length === 0 ? Promise.resolve() : write('settleCallbacks', owner, outcomes),
    renewCallbackLeases: (owner, seqs, leaseUntil) =>
      seqs.length === 0 ? Promise.resolve() : write('renewCallbackLeases', owner, seqs, leaseUntil),
    disableCallbacks: (account, at, reason) => write('disableCallbacks', account, at, reason),
    hastenCallbacks: (account, now) => write('hastenCallbacks', account, now),
  };
}

export function senderStoreOverPort(port: MessagePort): SenderCalls {
  const writer = connectWriter(port);
  return senderCalls((op, ...args) => writer.write(op, ...args));
}
