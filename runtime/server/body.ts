/**
 * Reading a request body with a size limit and a time limit. The declared Content-Length is
 * checked before anything is read (a 100 MB upload is refused at once, without buffering);
 * chunked bodies are counted while they stream. The time limit is kept by one sweeper per
 * `BodyReader` rather than a timer per request: arming and clearing a timer for every request
 * was ~8% of the in-process cost of a SOAP request. The sweeper counts its ticks, and a read
 * remembers the tick it began in (no clock read per request); a body times out between
 * `timeoutMs` and `timeoutMs` plus two sweep intervals (a tenth of the limit each, 10-250 ms).
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';

export interface BodyLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

export type BodyFailure = { readonly status: 408 | 413 | 400; readonly message: string };

/** What a read gives: the body, a failure to answer, or `undefined` when the client went away first. */
export type BodyRead = Buffer | BodyFailure | undefined;

const EMPTY = Buffer.alloc(0);

/**
 * Per-request state lives on the request under a symbol and the listeners are module-level
 * functions reading it through `this`: no closures per request (under tsx every named closure
 * also costs an Object.defineProperty for its name).
 */
const STATE = Symbol('smskit.body');

/**
 * A read in progress. The reads a reader waits for form a doubly linked list through their
 * states (`pending`), so joining and leaving it costs two pointer writes: a Set keyed by the
 * request object hashed a large object on every request.
 */
interface BodyState {
  readonly reader: BodyReader;
  readonly req: StatefulRequest;
  readonly settle: (read: BodyRead) => void;
  /** The first chunk, and the rest when there are more (most bodies arrive in one). */
  first: Buffer | undefined;
  more: Buffer[] | undefined;
  /** The sweeper tick at which the read times out. */
  readonly deadline: number;
  received: number;
  settled: boolean;
  previous: BodyState | undefined;
  next: BodyState | undefined;
}

type StatefulRequest = IncomingMessage & { [STATE]?: BodyState | undefined };

export class BodyReader {
  /** The first of the reads whose body is still coming (a list through BodyState). */
  pending: BodyState | undefined;
  /** Sweeps so far: the reader's clock, in sweep intervals. */
  ticks = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;
  /** Whole sweep intervals a read may last: at least the limit, at most one interval more. */
  private readonly ticksAllowed: number;

  constructor(readonly limits: BodyLimits) {
    this.sweepMs = Math.min(250, Math.max(10, Math.round(limits.timeoutMs / 10)));
    this.ticksAllowed = Math.ceil(limits.timeoutMs / this.sweepMs);
  }

  /**
   * The body, or what to answer instead: at once when the declared Content-Length decides it,
   * else a promise settled once by the end of the body, a limit or the client going away.
   */
  read(req: IncomingMessage): BodyRead | Promise<BodyRead> {
    const declared = req.headers['content-length'];
    if (declared !== undefined) {
      const length = contentLength(declared);
      const refused = lengthFailure(length, this.limits.maxBytes);
      if (refused !== undefined) return refused;
      if (length === 0) return EMPTY;
    }
    return new Promise<BodyRead>((settle) => this.stream(req as StatefulRequest, settle));
  }

  private stream(req: StatefulRequest, settle: (read: BodyRead) => void): void {
    const state: BodyState = {
      reader: this,
      req,
      settle,
      first: undefined,
      more: undefined,
      // A read begun just before a tick has lost almost one interval to it: one tick more.
      deadline: this.ticks + this.ticksAllowed + 1,
      received: 0,
      settled: false,
      previous: undefined,
      next: this.pending,
    };
    if (this.pending !== undefined) this.pending.previous = state;
    this.pending = state;
    req[STATE] = state;
    this.sweeper ??= setInterval(sweep, this.sweepMs, this).unref();
    req.on('data', onData);
    req.on('end', onEnd);
    // Never removed: an 'error' after the read ended (a client resetting a refused upload) must
    // find a listener, and `on` allocates no once-wrapper per request.
    req.on('error', onError);
  }

  /** Stops the sweeper once nothing is pending (restarted by the next read). */
  stopIfIdle(): void {
    if (this.pending === undefined && this.sweeper !== undefined) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

function sweep(reader: BodyReader): void {
  const now = ++reader.ticks;
  for (let state = reader.pending; state !== undefined; ) {
    const next = state.next;
    if (state.deadline <= now && finish(state.req) !== undefined)
      state.settle({ status: 408, message: 'Request body not received in time.' });
    state = next;
  }
  reader.stopIfIdle();
}

function unlink(state: BodyState): void {
  if (state.previous === undefined) state.reader.pending = state.next;
  else state.previous.next = state.next;
  if (state.next !== undefined) state.next.previous = state.previous;
  state.previous = undefined;
  state.next = undefined;
}

/**
 * A Content-Length value (RFC 9110: one or more digits) as a number, or -1. By hand rather than
 * `Number()`, which accepts more ("0x10", "1e3", " 12 ") and hashes the fresh header string.
 */
function contentLength(text: string): number {
  if (text.length === 0 || text.length > 15) return -1; // 15 digits stay below 2^53
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

function tooLarge(limits: Pick<BodyLimits, 'maxBytes'>): string {
  return `Request body too large (limit ${limits.maxBytes} bytes).`;
}

/** Whether the request's framing says it has a body (RFC 9112 §6.3): a Transfer-Encoding, or a Content-Length above 0. */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * What a request's declared Content-Length alone decides: 400 for one that is no length, 413
 * for one over the limit. Also asked before `100 Continue` (listen.ts), so that a client told
 * to wait is told no before it sends a body that would only be refused (RFC 9110 §10.1.1).
 */
export function declaredBodyFailure(req: IncomingMessage, maxBytes: number): BodyFailure | undefined {
  const declared = req.headers['content-length'];
  return declared === undefined ? undefined : lengthFailure(contentLength(declared), maxBytes);
}

/** A declared length (-1: not a length) that refuses the body by itself. */
function lengthFailure(length: number, maxBytes: number): BodyFailure | undefined {
  if (length < 0) return { status: 400, message: 'Invalid Content-Length.' };
  if (length > maxBytes) return { status: 413, message: tooLarge({ maxBytes }) };
  return undefined;
}

/** The body limit when the options give none. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Ends the read once; returns the state if this call is the one that ended it. */
function finish(req: StatefulRequest): BodyState | undefined {
  const state = req[STATE];
  if (state === undefined || state.settled) return undefined;
  state.settled = true;
  unlink(state);
  // The listeners stay (they find no state from now on): a request object is never reused, and
  // removing them cost more than the calls that may still come.
  // Not `delete`: deleting a property turns the request object into a slow dictionary-mode
  // object for everything that touches it afterwards (node:http included).
  req[STATE] = undefined;
  return state;
}

function onData(this: StatefulRequest, chunk: Buffer): void {
  const state = this[STATE];
  if (state === undefined) return;
  state.received += chunk.length;
  if (state.received > state.reader.limits.maxBytes) {
    finish(this);
    state.settle({ status: 413, message: tooLarge(state.reader.limits) });
    return;
  }
  if (state.first === undefined) state.first = chunk;
  else (state.more ??= []).push(chunk);
}

function onEnd(this: StatefulRequest): void {
  const state = finish(this);
  if (state === undefined) return;
  const { first, more } = state;
  if (first === undefined) state.settle(EMPTY);
  else if (more === undefined) state.settle(first);
  else state.settle(Buffer.concat([first, ...more], state.received));
}

/** The client went away: there is nobody to answer. */
function onError(this: StatefulRequest): void {
  finish(this)?.settle(undefined);
}
