/**
 * The fuzzer's options as the library takes them, validated in one place: unknown and
 * conflicting values are refused with a FuzzError naming the option, and the result is frozen
 * (never changed downstream). Safety is explicit, as for replay: fuzzing sends requests that may
 * change data, so either `allowWrites` or an `operations` allow-list is required.
 */
import type { WsdlModel } from '../contract/model/index.js';
import { LEVELS, type Level } from '../conformance/types.js';
import type { RawNetworkOptions } from '../runtime/network/raw.js';
import type { Protocol } from '../runtime/descriptor.js';
import { FuzzError } from './errors.js';
import { FUZZ_MODES, type FuzzMode } from './properties.js';

export interface FuzzOptions {
  /** The contract (contract/read's `readContract` gives it). */
  readonly wsdlModel: WsdlModel;
  /** The service endpoint to fuzz, e.g. http://127.0.0.1:8080/Service.asmx. */
  readonly target: string;
  /** A second server to compare valid inputs' answers with (its endpoint URL). */
  readonly reference?: string | undefined;
  /** The run's seed (default: from the clock, and reported). */
  readonly seed?: number | undefined;
  /** Replay one finding: `Operation/binding/mode:<fast-check path>` as printed, with `seed` the finding's. */
  readonly path?: string | undefined;
  /** Inputs in all, spread over the properties. */
  readonly runs?: number | undefined;
  /** Time for the whole run (ms); 60 s when neither this nor `runs` is given. */
  readonly budgetMs?: number | undefined;
  readonly concurrency?: number | undefined;
  /** Requests started per second at most (0: no limit). */
  readonly ratePerSecond?: number | undefined;
  readonly operations?: readonly string[] | undefined;
  readonly allowWrites?: boolean | undefined;
  readonly bindings?: readonly Protocol[] | undefined;
  readonly modes?: readonly FuzzMode[] | undefined;
  /** Time limit of each request (ms): an answer later than this is a finding. */
  readonly timeoutMs?: number | undefined;
  /** Answer paths the reference comparison leaves out (replay's globs). */
  readonly ignore?: readonly string[] | undefined;
  /** The strictest level of conformance check that counts (default should). */
  readonly level?: Level | undefined;
  readonly baseline?: { readonly file: string; readonly keys: ReadonlySet<string> } | undefined;
  /** TLS, proxy and HTTP authentication, as the client takes them. */
  readonly network?: RawNetworkOptions | undefined;
  readonly signal?: AbortSignal | undefined;
  /** `smskit 1.2.3`, for the report. */
  readonly tool?: string | undefined;
  /** The WSDL as the user gave it (path or URL), for the report. */
  readonly wsdlSource?: string | undefined;
  readonly onRound?: ((property: string, cases: number) => void) | undefined;
}

export interface ValidatedFuzzOptions extends Required<Pick<FuzzOptions, 'wsdlModel'>> {
  readonly target: URL;
  readonly reference: URL | undefined;
  readonly seed: number;
  readonly replay: { readonly property: string; readonly path: string } | undefined;
  readonly runs: number | undefined;
  readonly budgetMs: number | undefined;
  readonly concurrency: number;
  readonly ratePerSecond: number;
  readonly operations: readonly string[] | undefined;
  readonly bindings: readonly Protocol[] | undefined;
  readonly modes: readonly FuzzMode[];
  readonly timeoutMs: number;
  readonly ignore: readonly string[];
  readonly level: Level;
  readonly options: FuzzOptions;
}

const PROTOCOLS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const DEFAULT_BUDGET_MS = 60_000;

function serverUrl(name: string, value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new FuzzError(
      'FUZZ_OPTIONS',
      `${name} must be the service's http(s) URL, e.g. http://127.0.0.1:8080/Service.asmx`,
    );
  return url;
}

function integer(name: string, value: number | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new FuzzError('FUZZ_OPTIONS', `${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function replayOf(path: string | undefined, seed: number | undefined): ValidatedFuzzOptions['replay'] {
  if (path === undefined) return undefined;
  const m = /^([^/\s]+\/[\w-]+\/(?:valid|invalid)):(\d+(?::\d+)*)$/.exec(path);
  if (m === null)
    throw new FuzzError(
      'FUZZ_OPTIONS',
      `path must be a finding's path as printed (Operation/binding/mode:1:2:3), not ${JSON.stringify(path)}`,
    );
  if (seed === undefined) throw new FuzzError('FUZZ_OPTIONS', 'path needs the seed printed with it');
  return { property: m[1]!, path: m[2]! };
}

function listOf<T extends string>(
  name: string,
  given: readonly string[] | undefined,
  allowed: readonly T[],
): readonly T[] | undefined {
  if (given === undefined) return undefined;
  const bad = given.filter((g) => !(allowed as readonly string[]).includes(g));
  if (bad.length > 0)
    throw new FuzzError('FUZZ_OPTIONS', `${name} must be among ${allowed.join(', ')} (not ${bad.join(', ')})`);
  return given as readonly T[];
}

export function validateFuzzOptions(options: FuzzOptions): ValidatedFuzzOptions {
  const target = serverUrl('target', options.target);
  if (target === undefined) throw new FuzzError('FUZZ_OPTIONS', 'target is required');
  if (options.allowWrites === true && options.operations !== undefined)
    throw new FuzzError('FUZZ_OPTIONS', 'allowWrites and operations cannot be used together');
  if (options.allowWrites !== true && (options.operations === undefined || options.operations.length === 0))
    throw new FuzzError(
      'FUZZ_OPTIONS',
      'fuzzing sends requests that may change data on the target: give allowWrites, or operations with the operations that are safe to send',
    );
  const seed = integer('seed', options.seed, -(2 ** 31), 2 ** 31 - 1);
  const runs = integer('runs', options.runs, 1, 100_000_000);
  const budgetMs = integer('budget', options.budgetMs, 1, 7 * 24 * 3600_000);
  return Object.freeze({
    wsdlModel: options.wsdlModel,
    target,
    reference: serverUrl('reference', options.reference),
    seed: seed ?? (Date.now() ^ (process.pid << 16)) | 0,
    replay: replayOf(options.path, seed),
    runs,
    budgetMs: budgetMs ?? (runs === undefined ? DEFAULT_BUDGET_MS : undefined),
    concurrency: integer('concurrency', options.concurrency, 1, 64) ?? 4,
    ratePerSecond: options.ratePerSecond ?? 0,
    operations: options.allowWrites === true ? undefined : options.operations,
    bindings: listOf('bindings', options.bindings, PROTOCOLS),
    modes: listOf('modes', options.modes, FUZZ_MODES) ?? FUZZ_MODES,
    timeoutMs: integer('timeout', options.timeoutMs, 1, 600_000) ?? 10_000,
    ignore: options.ignore ?? [],
    level: listOf('level', options.level === undefined ? undefined : [options.level], LEVELS)?.[0] ?? 'should',
    options,
  });
}
