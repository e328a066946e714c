/**
 * node-smpp writes each PDU with its own socket.write, i.e. one system call per PDU, which was
 * the largest single cost of a busy bind (about half of its CPU). Corking the socket for the rest
 * of the current turn of the event loop sends every PDU written in that turn (a window's worth of
 * submits, the responses to a batch of receipts) in one writev.
 */
import type { Socket } from 'node:net';

const corked = new WeakSet<Socket>();

/** Holds this socket's writes until the event loop's next check phase; call before writing. */
export function batchWrites(socket: Socket): void {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  setImmediate(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
