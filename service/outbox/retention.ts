/**
 * Retention in a running service: how long message text, and messages themselves, are kept.
 * Every `intervalMs` (and once at start) messages that will not be sent again (see
 * PRUNABLE_STATES: accepted or final) lose their text once older than `textMs`, and are deleted
 * with their history once older than `messagesMs`. Messages still waiting or being sent are
 * never touched, whatever their age. The same pruning runs by hand with `smskit outbox prune`.
 */
import type { Store } from '../store/index.js';

export interface RetentionOptions {
  /** Keep message text this long after acceptance (ms); absent = for as long as the message. */
  readonly textMs?: number;
  /** Keep messages (and their history) this long after acceptance (ms); absent = for ever. */
  readonly messagesMs?: number;
  /** How often to prune (ms, default one hour). */
  readonly intervalMs?: number;
}

export interface Retention {
  /** One pass now; resolves with what it pruned. */
  run(): Promise<{ texts: number; messages: number }>;
  stop(): void;
}

export function startRetention(
  store: Pick<Store, 'pruneOutbox'>,
  options: RetentionOptions,
  log: (line: string) => void = () => undefined,
  clock: () => number = Date.now,
): Retention {
  let running: Promise<{ texts: number; messages: number }> | undefined;
  async function pass(): Promise<{ texts: number; messages: number }> {
    const now = clock();
    const texts = options.textMs === undefined ? 0 : await store.pruneOutbox(now - options.textMs, 'text');
    const messages =
      options.messagesMs === undefined ? 0 : await store.pruneOutbox(now - options.messagesMs, 'messages');
    if (texts > 0 || messages > 0)
      log(`retention: removed the text of ${texts} message(s), deleted ${messages} message(s)`);
    return { texts, messages };
  }
  function run(): Promise<{ texts: number; messages: number }> {
    running ??= pass()
      .catch((error: unknown) => {
        log(`retention: cannot prune: ${error instanceof Error ? error.message : String(error)}`);
        return { texts: 0, messages: 0 };
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }
  const enabled = options.textMs !== undefined || options.messagesMs !== undefined;
  const timer = enabled ? setInterval(() => void run(), options.intervalMs ?? 3_600_000) : undefined;
  timer?.unref();
  if (enabled) void run();
  return { run, stop: () => clearInterval(timer) };
}
