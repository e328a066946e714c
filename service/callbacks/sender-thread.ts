/**
 * The callback sender in a worker thread of its own, at the lowest CPU priority (nice 19 on
 * Linux, where a thread's priority is its own): sending callbacks then uses only the CPU that
 * acceptance and delivery leave. On a saturated machine status waits in the queue (durably) and
 * catches up as soon as there is room; on an idle one it goes at once. It also reads how busy the
 * event loop that serves and delivers and the machine are, and holds new claims back while both
 * are (./busy-deferral.ts). The store calls go to the event loop, or to the store itself
 * (./thread-protocol.ts); the stats are posted when they change, at most every 200 ms.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openSenderStore } from '../store/sender-store.js';
import { loadReader } from '../threads/load-gauge.js';
import { createCallbackSender, type SenderStore } from './sender.js';
import type { FromThread, SenderStoreCall, SenderThreadData, ToThread } from './thread-protocol.js';

const STATS_EVERY_MS = 200;
const LOWEST_PRIORITY = 19;

/** Nice 19 for this thread only (Linux: /proc/thread-self names its id); elsewhere a reason it stayed. */
function lowerOwnPriority(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, LOWEST_PRIORITY);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

async function main(port: NonNullable<typeof parentPort>, data: SenderThreadData): Promise<void> {
  const post = (message: FromThread): void => port.postMessage(message);
  const log = (line: string): void => post({ kind: 'log', line });
  const unlowered = lowerOwnPriority();
  if (unlowered !== undefined) log(`callbacks: sending at normal CPU priority (could not lower it: ${unlowered})`);

  const relay = relayedStore(post);
  // Messages posted meanwhile wait in the port until the listener below is attached.
  const own = data.connection === undefined ? undefined : await openSenderStore(data.connection, { log, lost });
  const sender = createCallbackSender({
    store: own?.calls ?? relay.store,
    settings: data.settings,
    log,
    serviceLoad: loadReader(data.serviceLoad),
  });
  let lastStats = '';
  const postStats = (): void => {
    const stats = sender.stats();
    const text = JSON.stringify(stats);
    if (text === lastStats) return;
    lastStats = text;
    post({ kind: 'stats', stats });
  };
  const statsTimer = setInterval(postStats, STATS_EVERY_MS);
  statsTimer.unref();

  port.on('message', (message: ToThread) => {
    switch (message.kind) {
      case 'start':
        sender.start();
        return postStats();
      case 'wake':
        return sender.wake();
      case 'answer':
        return relay.answer(message);
      case 'close':
        void sender.close(message.drainMs).then(async () => {
          await own?.close();
          clearInterval(statsTimer);
          postStats();
          post({ kind: 'closed' });
          port.close();
        });
    }
  });

  /**
   * The SQLite writer thread went away (it restarts on the event loop's next write): this thread
   * ends too; started again, it gets a port to the new one, and the events it held come back as
   * after a crash.
   */
  function lost(): void {
    log('callbacks: the store writer thread went away; the sender thread starts again');
    process.exit(1);
  }
}

/** The store calls posted to the event loop, which runs them on the service's store and answers. */
function relayedStore(post: (message: FromThread) => void) {
  let nextId = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const call =
    (method: SenderStoreCall) =>
    (...args: unknown[]): Promise<never> =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        post({ kind: 'call', id, method, args });
      });
  const store = {
    claimCallbacks: call('claimCallbacks'),
    settleCallbacks: call('settleCallbacks'),
    renewCallbackLeases: call('renewCallbackLeases'),
    disableCallbacks: call('disableCallbacks'),
    hastenCallbacks: call('hastenCallbacks'),
  } as SenderStore;
  return {
    store,
    answer(message: Extract<ToThread, { kind: 'answer' }>): void {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if ('error' in message) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.value);
    },
  };
}

if (parentPort !== null) void main(parentPort, workerData as SenderThreadData);
