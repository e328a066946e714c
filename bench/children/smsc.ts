/**
 * The SMSC simulator in its own process (so it never shares an event loop with the service):
 * starts, answers `{ port }` over IPC, then `{ stats, received }` for every request. `received`
 * counts the whole messages taken since the last `{ reset: true }` request (or the start) with
 * the time of the first and the last one (ms since the epoch, 0 when none) and of every 1,000th:
 * what the gateway and backlog sections time delivery by, on the SMSC's side of the wire.
 */
import { startSmsc } from '../../service/delivery/simulator/index.js';

export interface ReceivedCount {
  readonly count: number;
  readonly firstAt: number;
  readonly lastAt: number;
  /** Arrival of the 1,000th, 2,000th, … message (ms since the epoch): the pace along the way. */
  readonly thousands: readonly number[];
}

/** The arrival time of the `n`-th message (a multiple of 1,000), or undefined before it came. */
export function arrivalOf(received: ReceivedCount, n: number): number | undefined {
  return received.thousands[n / 1_000 - 1];
}

const [systemId = 'bench', password = 'bench123', throttle = '0'] = process.argv.slice(2);
const fresh = () => ({ count: 0, firstAt: 0, lastAt: 0, thousands: [] as number[] });
let received = fresh();
const smsc = await startSmsc({
  systemId,
  password,
  throttlePerSecond: Number(throttle),
  keep: 10,
  onMessage: () => {
    const now = Date.now();
    if (received.count === 0) received.firstAt = now;
    received.count++;
    received.lastAt = now;
    if (received.count % 1_000 === 0) received.thousands.push(now);
  },
});
process.send?.({ port: smsc.port });
process.on('message', (message: { reset?: boolean }) => {
  const answer = { stats: { ...smsc.stats }, received };
  if (message?.reset === true) received = fresh();
  process.send?.(answer);
});
process.on('SIGTERM', () => {
  void smsc.close().then(() => process.exit(0));
});
