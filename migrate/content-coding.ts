/**
 * Content codings (RFC 9110 §8.4) on the recorder's and the replay's hops. Both ask for none
 * (`Accept-Encoding: identity`), so answers come as the service wrote them; a server that
 * compresses anyway has its gzip, deflate or br body decoded here before anything reads it (a
 * WSDL rewritten, secrets redacted, an answer stored or compared).
 */
import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { HeaderList } from './recording.js';

/** What both hops send in place of a client's Accept-Encoding. */
export const IDENTITY_ONLY = 'identity';

/** The codings a message's Content-Encoding lists, in the order applied; [] for none or identity. */
export function contentCodings(headers: HeaderList): string[] {
  return headers
    .filter(([name]) => name.toLowerCase() === 'content-encoding')
    .flatMap(([, value]) => value.split(','))
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The most a body may decode to: a few compressed kilobytes can expand to gigabytes (a
 * decompression bomb), and a body over this is treated as one that does not decode.
 */
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

// A body stored cut at its limit still decodes as far as it goes.
const PARTIAL = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_DECODED_BYTES };
const PARTIAL_BR = { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: MAX_DECODED_BYTES };

function decodeOne(coding: string, body: Buffer): Buffer | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body, PARTIAL);
    case 'deflate':
      // RFC 9110 §8.4.1.2 says zlib-wrapped; some servers send raw deflate.
      try {
        return inflateSync(body, PARTIAL);
      } catch {
        return inflateRawSync(body, PARTIAL);
      }
    case 'br':
      return brotliDecompressSync(body, PARTIAL_BR);
    default:
      return undefined;
  }
}

/**
 * The body with its content codings undone, and the headers without Content-Encoding and
 * Content-Length (which described the coded bytes); undefined for a coding not known or a body
 * that does not decode.
 */
export function decodedBody(headers: HeaderList, body: Buffer): { headers: HeaderList; body: Buffer } | undefined {
  const codings = contentCodings(headers);
  if (codings.length === 0) return { headers, body };
  let out = body;
  try {
    for (const coding of codings.reverse()) {
      const next = decodeOne(coding, out);
      if (next === undefined) return undefined;
      out = next;
    }
  } catch {
    return undefined;
  }
  const kept = headers.filter(([n]) => !/^content-(encoding|length)$/i.test(n));
  return { headers: kept, body: out };
}
