/**
 * Load over all four bindings with the generated client, for the soak, crash and shutdown tests
 * and scripts: every call carries a unique text (so the outbox can be matched to what clients
 * saw), and its outcome is recorded: acknowledged (the id), refused (a fault: code), or a
 * transport failure (code). A fraction of calls is deliberately refused (a bad recipient), so
 * "refused is never stored" is checked too.
 */
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { SoapFaultError, TransportError } from '../../runtime/index.js';
import { Rng, type Binding } from './mutate.js';

export interface Outcome {
  readonly text: string;
  readonly binding: Binding;
  readonly kind: 'ack' | 'fault' | 'transport' | 'other';
  /** The id for 'ack', the fault code (detail code when present) or transport code otherwise. */
  readonly value: string;
  readonly ms: number;
  /** Whether the request was meant to be refused. */
  readonly refusal: boolean;
}

export interface LoadOptions {
  readonly url: string;
  readonly email: string;
  readonly password: string;
  readonly keyword: string;
  /** Concurrent callers. */
  readonly concurrency: number;
  /** Calls per second over all callers (steady rate); unlimited when absent. */
  readonly ratePerSecond?: number;
  /** Prefix of every text, e.g. the round number. */
  readonly tag: string;
  readonly seed: number;
  /** Fraction of calls that are meant to be refused (default 0.1). */
  readonly refusals?: number;
  readonly timeoutMs?: number;
  /** Calls to issue in all; unlimited when absent. */
  readonly limit?: number;
}

export interface Load {
  readonly outcomes: Outcome[];
  /**
   * Resolves as soon as `condition` holds for the outcomes so far. Rejects only when it still
   * does not after `timeoutMs` (default 120 s): a bound on a hang, not a speed requirement.
   */
  until(what: string, condition: (outcomes: readonly Outcome[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops issuing new calls; resolves when the calls in flight have settled. */
  stop(): Promise<void>;
}

/** Outcomes of one kind, e.g. `count(outcomes, 'ack')` for the acknowledged calls. */
export function count(outcomes: readonly Outcome[], kind: Outcome['kind']): number {
  let n = 0;
  for (const outcome of outcomes) if (outcome.kind === kind) n++;
  return n;
}

const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'http-get', 'http-post'];

export function startLoad(options: LoadOptions): Load {
  const clients = BINDINGS.map(
    (binding) =>
      new ServiceAPIClient({
        url: options.url,
        binding,
        timeoutMs: options.timeoutMs ?? 10_000,
        connections: Math.max(1, Math.ceil(options.concurrency / 4)),
      }),
  );
  const outcomes: Outcome[] = [];
  const waiters = new Set<() => void>();
  const record = (outcome: Outcome): void => {
    outcomes.push(outcome);
    for (const check of waiters) check();
  };
  const rng = new Rng(options.seed, 1);
  let stopped = false;
  let issued = 0;
  const started = performance.now();
  const interval = options.ratePerSecond === undefined ? 0 : 1000 / options.ratePerSecond;

  const one = async (): Promise<void> => {
    const n = issued++;
    const index = n % 4;
    const binding = BINDINGS[index]!;
    const refusal = rng.chance(options.refusals ?? 0.1);
    const text = `${options.tag} ${n}`;
    const input = {
      keyword: options.keyword,
      emailAddress: options.email,
      password: options.password,
      smsto: refusal ? 'not a number' : '+14155550123',
      carrierCode: 'att',
      smsmsg: text,
    };
    const t0 = performance.now();
    try {
      const client = clients[index]!;
      const id =
        n % 8 < 4
          ? (await client.SMSSend(input)).SMSSendResult
          : (await client.SMSSendToPort({ ...input, port: '2948' })).SMSSendToPortResult;
      record({ text, binding, kind: 'ack', value: id ?? '', ms: performance.now() - t0, refusal });
    } catch (error) {
      const kind = error instanceof SoapFaultError ? 'fault' : error instanceof TransportError ? 'transport' : 'other';
      const value =
        error instanceof SoapFaultError
          ? (error.detail.code ?? error.code)
          : error instanceof TransportError
            ? error.code
            : String(error);
      record({ text, binding, kind, value, ms: performance.now() - t0, refusal });
    }
  };

  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const worker = async (): Promise<void> => {
    while (!stopped && issued < limit) {
      if (interval > 0) {
        const due = started + (issued + 1) * interval - performance.now();
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
        if (stopped || issued >= limit) break;
      }
      await one();
    }
  };
  const workers = Array.from({ length: options.concurrency }, worker);
  return {
    outcomes,
    until(what, condition, timeoutMs = 120_000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!condition(outcomes)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const seen = `${count(outcomes, 'ack')} acknowledged, ${count(outcomes, 'fault')} refused, ${count(outcomes, 'transport')} unanswered`;
          reject(new Error(`load: still not ${what} after ${timeoutMs} ms (${seen})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await Promise.all(workers);
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    },
  };
}

/** p-th percentile (0-100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Resident set size of a process from /proc (Linux), in bytes; undefined elsewhere. */
export async function rssOf(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}
