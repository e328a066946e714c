/**
 * A body left unread by an answer given from the request's head (404, 405, 415, a SOAPAction no
 * operation has, a page answered to a GET that came with a body). node:http would read and drop
 * the rest of it before the connection's next request, however long it ran, outside the body
 * reader's size and time limits. It is read on for at most LINGER_BYTES or LINGER_MS: a client
 * still sending a body of a usual size keeps its connection (and is not cut off mid-upload before
 * it reads its answer, which a close at once did), and one sending without end is cut off.
 */
import type { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';

const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2_000;

export function lingerOnUnreadBody(req: IncomingMessage): void {
  let left = LINGER_BYTES;
  const cutOff = (): void => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(cutOff, LINGER_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cutOff();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
}
