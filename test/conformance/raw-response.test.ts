/**
 * The raw-socket path's incremental response reader: the same answer however the bytes are
 * split, framing by Content-Length, chunked coding or close, and every bound refused the
 * moment it is passed (not when the connection ends).
 */
import { describe, expect, it } from 'vitest';
import { BoundHit } from '../../conformance/run/bounds.js';
import { RawResponseReader } from '../../conformance/run/raw-response.js';

const LIMIT = 64 * 1024;

/** Feeds `wire` in pieces of `size` bytes; returns the reader (or the error it threw) and how much it took. */
function feed(
  wire: string | Buffer,
  size: number,
  limit = LIMIT,
): { reader: RawResponseReader; error?: unknown; fed: number } {
  const bytes = typeof wire === 'string' ? Buffer.from(wire, 'latin1') : wire;
  const reader = new RawResponseReader(limit);
  let at = 0;
  try {
    while (at < bytes.length && !reader.complete) {
      reader.push(bytes.subarray(at, at + size));
      at += size;
    }
  } catch (error) {
    return { reader, error, fed: Math.min(at + size, bytes.length) };
  }
  return { reader, fed: at };
}

function chunkedBody(text: string, size: number): string {
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size)
    parts.push(`${text.slice(at, at + size).length.toString(16)};ext=1\r\n${text.slice(at, at + size)}\r\n`);
  return `${parts.join('')}0\r\nx-trailer: yes\r\n\r\n`;
}

const BODY = `<r>${'abcdefghij'.repeat(50)}</r>`;

describe('framing, whatever the split', () => {
  it.each([
    [
      'Content-Length',
      `HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}trailing junk`,
      true,
    ],
    [
      'chunked, with extensions and a trailer',
      `HTTP/1.1 500 Internal Server Error\r\ntransfer-encoding: chunked\r\n\r\n${chunkedBody(BODY, 7)}`,
      true,
    ],
    [
      'an interim 100 Continue first',
      `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Payload Too Large\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`,
      true,
    ],
    ['close-delimited (complete only when the connection closes)', `HTTP/1.0 200 OK\r\n\r\n${BODY}`, false],
  ])('%s', (_, wire, completes) => {
    const whole = feed(wire, wire.length);
    expect(whole.error).toBeUndefined();
    expect(whole.reader.complete).toBe(completes);
    const expected = whole.reader.result()!;
    expect(Buffer.from(expected.body).toString('latin1')).toBe(BODY);
    for (const size of [1, 2, 3, 5, 64]) {
      const split = feed(wire, size);
      expect(split.error, `pieces of ${size}`).toBeUndefined();
      expect(split.reader.complete, `pieces of ${size}`).toBe(completes);
      expect(split.reader.result(), `pieces of ${size}`).toEqual(expected);
    }
  });

  it('a 204 is complete at the end of its head', () => {
    const { reader } = feed('HTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\n', 1);
    expect(reader.complete).toBe(true);
    expect(reader.result()).toEqual({ status: 204, headers: { 'x-a': '1' }, body: new Uint8Array(0) });
  });

  it('repeated headers are joined', () => {
    expect(
      feed('HTTP/1.1 200 OK\r\nVary: a\r\nvary: b\r\ncontent-length: 0\r\n\r\n', 4).reader.result()!.headers,
    ).toEqual({ vary: 'a, b', 'content-length': '0' });
  });
});

describe('bounds and refusals, at the byte that passes them', () => {
  const code = (error: unknown): string => (error as { code?: string }).code ?? String(error);

  it.each([
    [
      'endless headers',
      `HTTP/1.1 200 OK\r\n${'x-filler: aaaaaaaaaa\r\n'.repeat(2000)}\r\n`,
      'HEAD_TOO_LARGE',
      /exceeded 16 KiB/,
      16 * 1024,
    ],
    [
      'a declared length over the limit',
      `HTTP/1.1 200 OK\r\ncontent-length: ${10 * 1024 ** 3}\r\n\r\nabc`,
      'RESPONSE_TOO_LARGE',
      /exceeded 64 KiB \(--max-response-bytes\): it declares Content-Length 10737418240/,
      undefined,
    ],
    [
      'a close-delimited body over the limit',
      `HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(LIMIT + 100)}`,
      'RESPONSE_TOO_LARGE',
      /^the response exceeded 64 KiB \(--max-response-bytes\)$/,
      19 + LIMIT + 1,
    ],
    [
      'a chunked body over the limit',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunkedBody('y'.repeat(LIMIT + 100), 1000)}`,
      'RESPONSE_TOO_LARGE',
      /exceeded 64 KiB/,
      undefined,
    ],
    [
      'garbage instead of a status line',
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      'HPE_INVALID_CONSTANT',
      /not an HTTP status line/,
      5,
    ],
    [
      'an endless chunk-size line',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'e'.repeat(10_000)}`,
      'HPE_CHUNK_SIZE',
      /too long/,
      undefined,
    ],
    [
      'a chunk size that is not hex',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      'HPE_INVALID_CHUNK_SIZE',
      /not a chunk size/,
      undefined,
    ],
    [
      'a Content-Length that is not a number',
      'HTTP/1.1 200 OK\r\ncontent-length: lots\r\n\r\n',
      'HPE_INVALID_CONTENT_LENGTH',
      /invalid Content-Length/,
      undefined,
    ],
  ])('%s', (_, wire, wantCode, message, failsAtByte) => {
    for (const size of [1, 1000]) {
      const { error, fed } = feed(wire, size);
      expect(code(error), `pieces of ${size}`).toBe(wantCode);
      expect((error as Error).message).toMatch(message);
      if (size === 1 && failsAtByte !== undefined) expect(fed).toBe(failsAtByte);
    }
  });

  it('bound hits are BoundHits (the transport names the bound), protocol errors are not', () => {
    expect(feed(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(LIMIT + 1)}`, 4096).error).toBeInstanceOf(BoundHit);
    expect(feed('garbage!', 8).error).not.toBeInstanceOf(BoundHit);
  });
});

describe('cost', () => {
  it('a 1 MiB chunked answer fed a byte at a time is read in linear time (no re-scan of what arrived)', () => {
    const text = 'z'.repeat(1024 * 1024);
    const wire = Buffer.from(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunkedBody(text, 8)}`, 'latin1');
    const started = performance.now();
    const { reader, error } = feed(wire, 1, 2 * 1024 * 1024);
    // Linear takes about a second on a slow machine; re-scanning or re-concatenating what has
    // arrived on every read (the quadratic way) takes minutes.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(error).toBeUndefined();
    expect(reader.complete).toBe(true);
    expect(reader.result()!.body.length).toBe(text.length);
  });
});
