/**
 * The request body reader on its own: what it makes of a declared Content-Length, how it joins
 * chunks, and when its time limit fires (never before the limit, at most two sweeps after).
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BodyReader, type BodyRead } from '../../runtime/server/body.js';

/** A request as the reader sees it: headers, then 'data' and 'end' when the test says. */
function request(headers: Record<string, string> = {}): IncomingMessage & EventEmitter {
  return Object.assign(new EventEmitter(), { headers }) as unknown as IncomingMessage & EventEmitter;
}

describe('BodyReader: the declared Content-Length', () => {
  const reader = new BodyReader({ maxBytes: 1000, timeoutMs: 1000 });

  it.each(['0x10', '1e3', ' 12', '12 ', '', '-1', '+5', '1.0', '9'.repeat(16)])(
    'refuses %j with 400 before reading',
    (declared) => {
      expect(reader.read(request({ 'content-length': declared }))).toEqual({
        status: 400,
        message: 'Invalid Content-Length.',
      });
    },
  );

  it('refuses a declared length over the limit with 413, and answers 0 with an empty body', () => {
    expect(reader.read(request({ 'content-length': '1001' }))).toMatchObject({ status: 413 });
    expect(reader.read(request({ 'content-length': '000000000001001' }))).toMatchObject({ status: 413 });
    const empty = reader.read(request({ 'content-length': '0' }));
    expect(Buffer.isBuffer(empty) && empty.length).toBe(0);
  });

  it('reads a body whose declared length is within the limit', async () => {
    const req = request({ 'content-length': '1000' });
    const read = reader.read(req);
    req.emit('data', Buffer.from('x'.repeat(1000)));
    req.emit('end');
    expect(((await read) as Buffer).length).toBe(1000);
  });
});

describe('BodyReader: chunks', () => {
  const reader = new BodyReader({ maxBytes: 10, timeoutMs: 1000 });

  it('gives one chunk as it came, joins several in order, and an empty body for none', async () => {
    const one = request();
    const chunk = Buffer.from('abc');
    const readOne = reader.read(one);
    one.emit('data', chunk);
    one.emit('end');
    expect(await readOne).toBe(chunk);

    const three = request();
    const readThree = reader.read(three);
    for (const piece of ['ab', 'cde', 'f']) three.emit('data', Buffer.from(piece));
    three.emit('end');
    expect(String(await readThree)).toBe('abcdef');

    const none = request();
    const readNone = reader.read(none);
    none.emit('end');
    expect(((await readNone) as Buffer).length).toBe(0);
  });

  it('stops at the limit while streaming (413) and ignores what comes after', async () => {
    const req = request();
    const read = reader.read(req);
    req.emit('data', Buffer.from('123456'));
    req.emit('data', Buffer.from('78901'));
    req.emit('data', Buffer.from('more'));
    req.emit('end');
    expect(await read).toMatchObject({ status: 413 });
  });

  it('settles with undefined when the client goes away first', async () => {
    const req = request();
    const read = reader.read(req);
    req.emit('data', Buffer.from('12'));
    req.emit('error', new Error('reset'));
    expect(await read).toBeUndefined();
  });
});

describe('BodyReader: the time limit', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Milliseconds from the read's start to its 408, for a read begun `offsetMs` into the reader's life. */
  async function timedOutAfter(reader: BodyReader, offsetMs: number): Promise<number> {
    await vi.advanceTimersByTimeAsync(offsetMs);
    let settled: BodyRead | 'pending' = 'pending';
    const started = Date.now();
    let at = Number.NaN;
    void (reader.read(request()) as Promise<BodyRead>).then((r) => {
      settled = r;
      at = Date.now();
    });
    for (let step = 0; step < 1000 && settled === 'pending'; step++) await vi.advanceTimersByTimeAsync(1);
    expect(settled).toMatchObject({ status: 408 });
    return at - started;
  }

  it.each([0, 1, 5, 9, 37])('a read begun %d ms in times out after the limit and within two sweeps', async (offset) => {
    // A 100 ms limit sweeps every 10 ms.
    const reader = new BodyReader({ maxBytes: 10, timeoutMs: 100 });
    // Keep one read pending from the start, so the sweeper runs from time 0.
    void reader.read(request());
    const elapsed = await timedOutAfter(reader, offset);
    expect(elapsed).toBeGreaterThanOrEqual(100);
    expect(elapsed).toBeLessThanOrEqual(120);
  });

  it('a read that began while the sweeper was idle also waits the whole limit', async () => {
    const reader = new BodyReader({ maxBytes: 10, timeoutMs: 95 });
    const first = request();
    const read = reader.read(first);
    first.emit('end');
    await read;
    await vi.advanceTimersByTimeAsync(500); // the sweeper stops once nothing is pending
    const elapsed = await timedOutAfter(reader, 3);
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThanOrEqual(95 + 2 * 10);
  });
});
