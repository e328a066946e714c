/**
 * An application's callback receiver in its own process (it never shares an event loop or a
 * core's time slice with the service's process in a way the bench could mistake for the
 * service's cost): answers every POST 204 after `delayMs` (0, or 1,000 for a slow receiver),
 * answers `{ port }` over IPC at start, then `{ received, lastAt }` for every request.
 * It does not verify signatures: the tests do (test/reliability/callback-receiver.ts); here it
 * would only add the receiver's CPU to the measurement.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const delayMs = Number(process.argv[2] ?? '0');
let received = 0;
let lastAt = 0;
const server = createServer((request, response) => {
  request.resume();
  request.once('end', () => {
    received++;
    lastAt = Date.now();
    if (delayMs === 0) response.writeHead(204).end();
    else setTimeout(() => response.writeHead(204).end(), delayMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', () => process.send?.({ received, lastAt }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
