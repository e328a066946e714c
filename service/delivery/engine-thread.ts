/**
 * The delivery engine in a worker thread of its own, below the event loop's CPU priority: the
 * SMPP and SMTP sessions, the claims and the answers' bookkeeping run here, so that on a busy
 * machine the event loop keeps answering send requests (acceptance first) and delivery takes the
 * CPU they leave; on an idle one it goes at full speed. The routes file is read again here (the
 * event loop read it first and refused a bad one); the store calls go to the store itself over
 * the connection in the thread's data. Stats are posted when they change, at most every 100 ms.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDeliveryConnection } from '../store/delivery-connection.js';
import { setOwnThreadPriority } from '../threads/priority.js';
import { createCarrierTable, loadCarrierTable } from './carriers.js';
import { createDeliveryEngine } from './engine.js';
import { loadRoutesFile } from './routes-file.js';
import type { DeliveryThreadData, FromDeliveryThread, ToDeliveryThread } from './thread-protocol.js';

const STATS_EVERY_MS = 100;

async function main(port: NonNullable<typeof parentPort>, data: DeliveryThreadData): Promise<void> {
  const post = (message: FromDeliveryThread): void => port.postMessage(message);
  const log = (line: string): void => post({ kind: 'log', line });
  const unlowered = setOwnThreadPriority(data.nice);
  if (unlowered !== undefined) log(`delivery: running at normal CPU priority (could not lower it: ${unlowered})`);

  const carriers = data.carriersFile === undefined ? createCarrierTable() : loadCarrierTable(data.carriersFile);
  const config = loadRoutesFile(data.routesFile, carriers);
  // Messages posted meanwhile wait in the port until the listener below is attached.
  const own = await openDeliveryConnection(data.connection, lost);
  let committed: (() => void) | undefined;
  const engine = createDeliveryEngine({
    store: own.store,
    onCommitted: (listener) => {
      committed = listener;
      return () => {
        committed = undefined;
      };
    },
    routes: config.routes.map((route) => ({ route: route.create(), carriers: route.carriers })),
    policy: config.policy,
    timing: { leaseMs: config.leaseMs, ...data.timing },
    owner: data.owner,
    log,
  });

  let lastStats = '';
  const postStats = (): void => {
    const stats = { counters: engine.counters.snapshot(), routes: engine.routes() };
    const text = JSON.stringify(stats);
    if (text === lastStats) return;
    lastStats = text;
    post({ kind: 'stats', stats });
  };
  const statsTimer = setInterval(postStats, STATS_EVERY_MS);
  statsTimer.unref();

  port.on('message', (message: ToDeliveryThread) => {
    switch (message.kind) {
      case 'start':
        engine.start();
        return postStats();
      case 'wake':
        return committed?.();
      case 'stop':
        void engine.stop(message.deadlineMs).then(async () => {
          await own.close();
          clearInterval(statsTimer);
          postStats();
          post({ kind: 'stopped' });
          port.close();
        });
    }
  });

  /**
   * The SQLite writer thread went away (the event loop's next write starts a new one): this
   * thread ends too; started again, it gets a port to the new one, and the messages it held
   * come back when their leases run out, as after a crash.
   */
  function lost(): void {
    log('delivery: the store writer thread went away; the delivery thread starts again');
    process.exit(1);
  }
}

if (parentPort !== null) void main(parentPort, workerData as DeliveryThreadData);
