/**
 * What the callback sender's thread (./sender-thread.ts) and the event loop's side (./thread.ts)
 * say to each other. The thread has no store of its own: each store call it makes is posted to
 * the event loop, which runs it on the service's store and posts the answer back, or, on SQLite
 * with a writer thread, straight to that thread over `writerPort` (the event loop then neither
 * reads the claimed events nor copies them on). Those calls are batches (a claim, a settlement,
 * a lease renewal); the work per callback (the body, the signature, the HTTP exchange) stays in
 * the thread.
 */
import type { MessagePort } from 'node:worker_threads';
import type { CallbackSenderStats, SenderStore } from './sender.js';
import type { CallbackSettingsInput } from './options.js';

export type SenderStoreCall = keyof SenderStore;

export interface SenderThreadData {
  readonly settings: CallbackSettingsInput;
  /** The store's writer thread takes the thread's store calls on this port (SQLite); else they are posted as `call`. */
  readonly writerPort?: MessagePort;
}

export type ToThread =
  | { readonly kind: 'start' }
  | { readonly kind: 'wake' }
  | { readonly kind: 'close'; readonly drainMs: number }
  | { readonly kind: 'answer'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'answer'; readonly id: number; readonly error: string };

export type FromThread =
  | { readonly kind: 'call'; readonly id: number; readonly method: SenderStoreCall; readonly args: readonly unknown[] }
  | { readonly kind: 'log'; readonly line: string }
  | { readonly kind: 'stats'; readonly stats: CallbackSenderStats }
  | { readonly kind: 'closed' };
