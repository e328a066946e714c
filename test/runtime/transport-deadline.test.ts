/**
 * The client transport's whole-call limit without a caller signal: a body that trickles with
 * pauses just under the limit, or a head that comes late and is followed by silence, ends at
 * the call's deadline (undici's own timers only bound each pause); a head over undici's header
 * limit is TOO_LARGE.
 */
import net from 'node:net';
import { once } from 'node:events';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../runtime/errors.js';
import { send } from '../../runtime/transport.js';

/**
 * The call's limit. The wrong behaviours end the calls below at 1.8 and 1.6 times it, the right
 * one at the limit. Each test checks the order of events rather than a duration: the server,
 * in the same event loop, does something at 1.3 times the limit (timers fire in the order they
 * are due, however loaded the machine), and the call must have ended before that.
 */
const TIMEOUT_MS = 1000;
const LATE = 1.3;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A server that runs `answer` on each connection once the request head has arrived. */
async function serve(answer: (socket: net.Socket) => void): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => answer(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

function every(socket: net.Socket, ms: number, tick: () => void): void {
  const timer = setInterval(tick, ms);
  socket.once('close', () => clearInterval(timer));
  cleanups.push(() => clearInterval(timer));
}

/** Whether `ms` have passed since the server began answering: a marker the call must end before. */
function marker(ms: number): () => boolean {
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
  }, ms);
  cleanups.push(() => clearTimeout(timer));
  return () => passed;
}

async function call(origin: string): Promise<{ error: unknown }> {
  const pool = new Pool(origin, { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  cleanups.push(() => void pool.destroy().catch(() => {}));
  const error = await send(
    pool,
    { method: 'POST', path: '/x', headers: {}, body: '<x/>' },
    { timeoutMs: TIMEOUT_MS, maxResponseBytes: 1024 * 1024, signal: undefined },
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error };
}

describe('send without a caller signal', () => {
  it('ends a body that trickles with pauses just under the limit at the deadline', async () => {
    let late = (): boolean => false;
    let written = 0;
    const origin = await serve((socket) => {
      late = marker(TIMEOUT_MS * LATE);
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\ncontent-length: 100\r\n\r\n<');
      every(socket, TIMEOUT_MS * 0.9, () => {
        written++;
        socket.write('a');
      });
    });
    const { error } = await call(origin);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('TIMEOUT');
    expect((error as TransportError).message).toBe(`No complete response within ${TIMEOUT_MS} ms`);
    // Checked only as chunks arrive, the call would end at the second pause's end (1.8 x the limit):
    // it ended after the first trickled byte and before the marker, so before the second.
    expect({ written, late: late() }).toEqual({ written: 1, late: false });
  });

  it('ends a call whose head comes late and whose body never does at the deadline', async () => {
    let late = (): boolean => false;
    const origin = await serve((socket) => {
      late = marker(TIMEOUT_MS * LATE);
      const timer = setTimeout(
        () => socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\ncontent-length: 100\r\n\r\n'),
        TIMEOUT_MS * 0.6,
      );
      cleanups.push(() => clearTimeout(timer));
    });
    const { error } = await call(origin);
    expect((error as TransportError).code).toBe('TIMEOUT');
    // undici's body timeout alone would end it a whole limit after the head (1.6 x the limit).
    expect(late()).toBe(false);
  });

  it('calls a head over the header limit TOO_LARGE', async () => {
    const origin = await serve((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      every(socket, 1, () => socket.write(`x-filler: ${'a'.repeat(1000)}\r\n`));
    });
    const { error } = await call(origin);
    expect({ code: (error as TransportError).code, message: (error as Error).message }).toEqual({
      code: 'TOO_LARGE',
      message: 'The response head (status line and headers) is over the 16 KiB header limit',
    });
  });

  it('still reads a whole answer, in one read or in many', async () => {
    const body = 'z'.repeat(50_000);
    const origin = await serve((socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      setTimeout(() => socket.write(body.slice(10)), 50);
    });
    const pool = new Pool(origin);
    cleanups.push(() => void pool.destroy().catch(() => {}));
    const response = await send(
      pool,
      { method: 'GET', path: '/x', headers: {}, body: undefined },
      { timeoutMs: TIMEOUT_MS, maxResponseBytes: 1024 * 1024, signal: undefined },
    );
    expect(response.body.toString()).toBe(body);
  });
});
