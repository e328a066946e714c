/**
 * What the event loop (and another thread's client) and the SQLite writer thread post to each
 * other (./writer-thread.ts, ./writer.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { StorageError } from '../../errors.js';
import type { WriteOp } from './write-ops.js';

export interface WriteRequest {
  readonly seq: number;
  readonly op: WriteOp;
  readonly args: readonly unknown[];
}

export type WriteReply =
  | { readonly seq: number; readonly value: unknown }
  | { readonly seq: number; readonly error: SerializedStorageError };

export interface SerializedStorageError {
  readonly code: StorageError['code'];
  readonly message: string;
  readonly driverCode: string | undefined;
}

/** The thread could not open the database: every write waiting fails with this. */
export type WriterNotice = { readonly failed: SerializedStorageError };

/** What the event loop posts besides requests. */
export type WriterControl = { readonly close: true } | { readonly client: MessagePort };
