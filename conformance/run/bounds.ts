/**
 * The runner's bounds: what one exchange may cost (bytes of head, bytes of body, wall time from
 * connect to the last body byte) and how a bound that was hit is named in a report. A target
 * under test may be broken or hostile, so nothing it sends is trusted to end by itself.
 *
 * `ExchangeDeadline` is the whole-exchange clock: one AbortSignal that fires when the exchange's
 * time is up or when the run's own deadline (`--run-timeout`) fires, whichever comes first. Both
 * the pooled path (undici's `signal`) and the raw-socket path destroy their socket on it.
 */

/** Defaults: a real SOAP answer is kilobytes; the largest real ASMX WSDLs are under 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RUN_TIMEOUT_MS = 10 * 60 * 1000;
/** The status line and headers of one response: Node's and undici's own header limit. */
export const MAX_HEAD_BYTES = 16 * 1024;

/** Accepted ranges, shared by the CLI flags and the programmatic options. */
export const BOUND_RANGES = {
  timeoutMs: { min: 1, max: 600_000 },
  runTimeoutMs: { min: 1, max: 24 * 60 * 60 * 1000 },
  maxResponseBytes: { min: 1024, max: 1024 * 1024 * 1024 },
} as const;

/** `16 MiB`, `1 KiB`, `1500 bytes`: the unit the number was most likely given in. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Why an exchange was cut short by the runner itself (the abort reason carries it). */
export type BoundCode = 'DEADLINE' | 'RUN_TIMEOUT' | 'RESPONSE_TOO_LARGE' | 'HEAD_TOO_LARGE';

export class BoundHit extends Error {
  override readonly name = 'BoundHit';
  readonly code: BoundCode;
  constructor(code: BoundCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function responseTooLarge(limit: number, declared?: number): BoundHit {
  const detail = declared === undefined ? '' : `: it declares Content-Length ${declared}`;
  return new BoundHit(
    'RESPONSE_TOO_LARGE',
    `the response exceeded ${formatBytes(limit)} (--max-response-bytes)${detail}`,
  );
}

export function headTooLarge(): BoundHit {
  return new BoundHit(
    'HEAD_TOO_LARGE',
    `the response head (status line and headers) exceeded ${formatBytes(MAX_HEAD_BYTES)}`,
  );
}

export function runTimedOut(runTimeoutMs: number): BoundHit {
  return new BoundHit('RUN_TIMEOUT', `the run did not finish within ${runTimeoutMs} ms (--run-timeout)`);
}

/** One exchange's clock, joined to the run's signal. Call `clear()` when the exchange is over. */
export class ExchangeDeadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #run: AbortSignal | undefined;
  readonly #onRunAbort = (): void => this.#controller.abort(this.#run!.reason);

  constructor(timeoutMs: number, run: AbortSignal | undefined) {
    this.#timer = setTimeout(
      () => this.#controller.abort(new BoundHit('DEADLINE', `no complete answer within ${timeoutMs} ms (--timeout)`)),
      timeoutMs,
    );
    this.#run = run;
    if (run?.aborted === true) this.#onRunAbort();
    else run?.addEventListener('abort', this.#onRunAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#run?.removeEventListener('abort', this.#onRunAbort);
  }
}
