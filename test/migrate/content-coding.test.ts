/** Content codings undone before a body is read: gzip, deflate (zlib or raw) and br, bounded. */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { decodedBody, MAX_DECODED_BYTES } from '../../migrate/content-coding.js';

const text = Buffer.from('<a>Grüße</a>');

it('undoes gzip, deflate (zlib and raw) and br, dropping Content-Encoding and Content-Length', () => {
  for (const [coding, body] of [
    ['gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['deflate', deflateRawSync(text)],
    ['br', brotliCompressSync(text)],
  ] as const) {
    const decoded = decodedBody(
      [
        ['Content-Encoding', coding],
        ['Content-Length', String(body.length)],
        ['Content-Type', 'text/xml'],
      ],
      body,
    );
    expect(decoded?.body.toString(), coding).toBe(text.toString());
    expect(decoded?.headers, coding).toEqual([['Content-Type', 'text/xml']]);
  }
});

it('treats a body that would decode past the bound (a decompression bomb) as one that does not decode', () => {
  const bomb = gzipSync(Buffer.alloc(MAX_DECODED_BYTES + 1));
  expect(bomb.length).toBeLessThan(1024 * 1024);
  expect(decodedBody([['Content-Encoding', 'gzip']], bomb)).toBeUndefined();
});
