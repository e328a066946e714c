/**
 * Reading an upstream answer's body whole, within a bound, without losing what arrived when the
 * upstream breaks off: the recorder reads a WSDL whole (to learn its secret names and rewrite its
 * address) and must still store, and say, what went wrong with it.
 */
import type { Dispatcher } from 'undici';

/** The most of a WSDL answer read whole (coded bytes; decoding is bounded on its own). */
export const MAX_WSDL_BYTES = 16 * 1024 * 1024;

export interface ReadBody {
  /** What arrived (at most `limit` bytes). */
  readonly bytes: Buffer;
  /** Why the body is not whole: it broke off, or went past the limit; undefined when whole. */
  readonly failure?: string;
}

/** Why a request or a body failed, as a code (`UND_ERR_SOCKET`) or a message: never a body or a header. */
export function failureText(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : (error as Error).message;
}

/** An answer's headers (undici's, or a stored one's) as a list, a repeated header once per value. */
export function responseHeaderList(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): [string, string][] {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
  );
}

/** The body, read to its end or to `limit` bytes (then the rest is not read), or to where it broke off. */
export async function readUpstreamBody(body: Dispatcher.ResponseData['body'], limit: number): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      if (size + bytes.length > limit) {
        chunks.push(bytes.subarray(0, limit - size));
        body.destroy();
        return { bytes: Buffer.concat(chunks), failure: `the answer is over ${limit} bytes` };
      }
      chunks.push(bytes);
      size += bytes.length;
    }
  } catch (error) {
    const got = Buffer.concat(chunks);
    return { bytes: got, failure: `the answer broke off after ${got.length} bytes (${failureText(error)})` };
  }
  return { bytes: Buffer.concat(chunks) };
}
