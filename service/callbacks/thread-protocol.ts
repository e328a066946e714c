/**
 * What the callback sender's thread (./sender-thread.ts) and the event loop's side (./thread.ts)
 * say to each other. The thread has no store of its own: each store call it makes is posted to
 * the event loop, which runs it on the service's store and posts the answer back, or, where the
 * store gives a `connection` (SQLite's writer thread, a PostgreSQL pool), to the store itself:
 * the event loop then neither reads the claimed events nor copies them on. Those calls are
 * batches (a claim, a settlement, a lease renewal); the work per callback (the body, the
 * signature, the HTTP exchange) stays in the thread.
 */
import type { SenderConnection } from '../store/callbacks.js';
import type { CallbackSenderStats, SenderStore } from './sender.js';
import type { CallbackSettingsInput } from './options.js';

export type SenderStoreCall = keyof SenderStore;

export interface SenderThreadData {
  readonly settings: CallbackSettingsInput;
  /** How the thread reaches the store itself (a port is transferred); without it the calls are posted as `call`. */
  readonly connection?: SenderConnection;
  /** The event loop's load gauge (../threads/load-gauge.ts): the sender holds back while it reads busy. */
  readonly serviceLoad: SharedArrayBuffer;
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
