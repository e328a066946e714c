/**
 * Reading a request body with a size limit and a time limit. The declared Content-Length is
 * checked before anything is read (a 100 MB upload is refused at once, without buffering);
 * chunked bodies are counted while they stream.
 */
import type { IncomingMessage } from 'node:http';

export interface BodyLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

export type BodyFailure = { readonly status: 408 | 413 | 400; readonly message: string };

const EMPTY = Buffer.alloc(0);

/** Calls exactly one of `onBody` / `onFailure` (neither when the client went away first). */
export function readBody(req: IncomingMessage, limits: BodyLimits, onBody: (body: Buffer) => void, onFailure: (failure: BodyFailure) => void): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) return onFailure({ status: 400, message: 'Invalid Content-Length.' });
    if (length > limits.maxBytes) return onFailure({ status: 413, message: `Request body too large (limit ${limits.maxBytes} bytes).` });
    if (length === 0) return onBody(EMPTY);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const finish = (): boolean => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    return true;
  };
  const timer = setTimeout(() => {
    if (finish()) onFailure({ status: 408, message: 'Request body not received in time.' });
  }, limits.timeoutMs);
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received > limits.maxBytes) {
      if (finish()) onFailure({ status: 413, message: `Request body too large (limit ${limits.maxBytes} bytes).` });
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (): void => {
    if (finish()) onBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.once('error', () => finish()); // the client went away: there is nobody to answer
}
