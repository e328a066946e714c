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

/**
 * Per-request state lives on the request under a symbol and the listeners are module-level
 * functions reading it through `this`: no closures per request (under tsx every named closure
 * also costs an Object.defineProperty for its name).
 */
const STATE = Symbol('smskit.body');

interface BodyState {
  readonly limits: BodyLimits;
  readonly onBody: (body: Buffer) => void;
  readonly onFailure: (failure: BodyFailure) => void;
  readonly chunks: Buffer[];
  received: number;
  settled: boolean;
  timer: NodeJS.Timeout | undefined;
}

type StatefulRequest = IncomingMessage & { [STATE]?: BodyState };

/** Calls exactly one of `onBody` / `onFailure` (neither when the client went away first). */
export function readBody(req: IncomingMessage, limits: BodyLimits, onBody: (body: Buffer) => void, onFailure: (failure: BodyFailure) => void): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) return onFailure({ status: 400, message: 'Invalid Content-Length.' });
    if (length > limits.maxBytes) return onFailure({ status: 413, message: tooLarge(limits) });
    if (length === 0) return onBody(EMPTY);
  }
  const state: BodyState = { limits, onBody, onFailure, chunks: [], received: 0, settled: false, timer: undefined };
  (req as StatefulRequest)[STATE] = state;
  state.timer = setTimeout(onTimeout, limits.timeoutMs, req);
  req.on('data', onData);
  req.on('end', onEnd);
  req.once('error', onError);
}

function tooLarge(limits: BodyLimits): string {
  return `Request body too large (limit ${limits.maxBytes} bytes).`;
}

/** Ends the read once; returns the state if this call is the one that ended it. */
function settle(req: StatefulRequest): BodyState | undefined {
  const state = req[STATE];
  if (state === undefined || state.settled) return undefined;
  state.settled = true;
  clearTimeout(state.timer);
  req.removeListener('data', onData);
  req.removeListener('end', onEnd);
  req[STATE] = undefined;
  return state;
}

function onData(this: StatefulRequest, chunk: Buffer): void {
  const state = this[STATE];
  if (state === undefined) return;
  state.received += chunk.length;
  if (state.received > state.limits.maxBytes) {
    settle(this);
    state.onFailure({ status: 413, message: tooLarge(state.limits) });
    return;
  }
  state.chunks.push(chunk);
}

function onEnd(this: StatefulRequest): void {
  const state = settle(this);
  if (state === undefined) return;
  const { chunks } = state;
  state.onBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, state.received));
}

function onTimeout(req: StatefulRequest): void {
  const state = settle(req);
  if (state !== undefined) state.onFailure({ status: 408, message: 'Request body not received in time.' });
}

/** The client went away: there is nobody to answer. */
function onError(this: StatefulRequest): void {
  settle(this);
}
