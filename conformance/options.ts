/**
 * The one place conformance options are validated: unknown keys, conflicting sources, bad
 * values are refused with a CONFORMANCE_OPTIONS error; the result is frozen and never mutated.
 */
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { BOUND_RANGES, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_RUN_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './bounds.js';
import type { WsdlModel } from '../generator/model.js';
import { ConformanceError } from './errors.js';
import type { Baseline } from './baseline.js';
import type { ConformanceInputs } from './inputs.js';
import type { SchemaFacts } from './schema-facts.js';
import { LEVELS, type CaseBinding, type CaseOutcome, type Level } from './types.js';

/** Where the run's contract and tool come from, recorded in every report. */
export interface Provenance {
  readonly toolVersion: string;
  /** The WSDL as the user gave it (path or URL). */
  readonly wsdlSource: string;
  /** sha256 (hex) of the WSDL's bytes (and of its local imports). */
  readonly wsdlSha256: string;
}

export interface ConformanceOptions {
  /** The service endpoint URL, e.g. `http://127.0.0.1:8080/serviceapi.asmx`. */
  readonly target: string;
  /** The contract: a descriptor, or a WSDL model to derive it from (exactly one). */
  readonly descriptor?: ServiceDescriptor;
  readonly wsdlModel?: WsdlModel;
  readonly inputs?: ConformanceInputs;
  readonly binding?: readonly CaseBinding[];
  readonly operation?: readonly string[];
  readonly run?: readonly string[];
  readonly skip?: readonly string[];
  /** Which checks (and cases) run: this level and stricter. Default `compat` (all). */
  readonly level?: Level;
  /** Failures at or above this level make the run fail. Default `must`. */
  readonly failOn?: Level;
  readonly concurrency?: number;
  /** Whole-exchange time limit of each request (connect, head, body). Default 10 s. */
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Largest response body the runner reads (any exchange, the WSDL too). Default 16 MiB. */
  readonly maxResponseBytes?: number;
  /** Time limit of the whole run; when it passes, the cases without a verdict are not run. Default 10 min. */
  readonly runTimeoutMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The server's body limit, exceeded by the over-size cases. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Facets and list items for sample values; derived from `wsdlModel` when not given. */
  readonly facts?: SchemaFacts;
  /** Every result element is required in an answer (the built-in contract's spec §4.1). Default false. */
  readonly requireResults?: boolean;
  /** Stop sending after this many failing cases (at or above failOn, baseline ones excluded). */
  readonly maxFailures?: number;
  /** Known failures: reported, never failing the run. */
  readonly baseline?: { readonly file: string; readonly baseline: Baseline };
  /** Aborted (Ctrl-C): stop sending, wait briefly for the exchanges in flight, report what ran. */
  readonly signal?: AbortSignal;
  readonly provenance?: Provenance;
  /** Called once the cases are selected, before anything is sent (for progress output). */
  readonly onStart?: (selected: number) => void;
  readonly onCase?: (outcome: CaseOutcome, done: number, total: number) => void;
}

export interface ValidatedOptions {
  readonly target: URL;
  readonly descriptor?: ServiceDescriptor;
  readonly wsdlModel?: WsdlModel;
  readonly inputs: ConformanceInputs;
  readonly binding?: readonly CaseBinding[];
  readonly operation?: readonly string[];
  readonly run: readonly string[];
  readonly skip: readonly string[];
  readonly level: Level;
  readonly failOn: Level;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxResponseBytes: number;
  readonly runTimeoutMs: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly maxBodyBytes: number;
  readonly facts?: SchemaFacts;
  readonly requireResults: boolean;
  readonly maxFailures?: number;
  readonly baseline?: { readonly file: string; readonly baseline: Baseline };
  readonly signal?: AbortSignal;
  readonly provenance?: Provenance;
  readonly onStart?: (selected: number) => void;
  readonly onCase?: (outcome: CaseOutcome, done: number, total: number) => void;
}

const KNOWN_KEYS = new Set([
  'target',
  'descriptor',
  'wsdlModel',
  'inputs',
  'binding',
  'operation',
  'run',
  'skip',
  'level',
  'failOn',
  'concurrency',
  'timeoutMs',
  'retries',
  'maxResponseBytes',
  'runTimeoutMs',
  'headers',
  'maxBodyBytes',
  'onCase',
  'facts',
  'requireResults',
  'maxFailures',
  'baseline',
  'signal',
  'provenance',
  'onStart',
]);
const BINDINGS: readonly CaseBinding[] = ['soap11', 'soap12', 'http-get', 'http-post', 'wsdl'];

function refuse(message: string): never {
  throw new ConformanceError('CONFORMANCE_OPTIONS', message);
}

function integer(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    refuse(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

function bound(name: keyof typeof BOUND_RANGES, value: number | undefined, fallback: number): number {
  return integer(name, value, fallback, BOUND_RANGES[name].min, BOUND_RANGES[name].max);
}

function level(name: string, value: Level | undefined, fallback: Level): Level {
  if (value === undefined) return fallback;
  if (!LEVELS.includes(value)) refuse(`${name} must be one of ${LEVELS.join(', ')}, got ${String(value)}`);
  return value;
}

function targetUrl(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return refuse(`target ${JSON.stringify(target)} is not a URL (e.g. http://127.0.0.1:8080/serviceapi.asmx)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    refuse(`target must be an http or https URL, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') refuse('target must not carry a query or a fragment');
  return url;
}

export function validateOptions(options: ConformanceOptions): ValidatedOptions {
  for (const key of Object.keys(options)) if (!KNOWN_KEYS.has(key)) refuse(`unknown option ${key}`);
  if ((options.descriptor === undefined) === (options.wsdlModel === undefined))
    refuse('give exactly one of descriptor and wsdlModel');
  for (const b of options.binding ?? [])
    if (!BINDINGS.includes(b)) refuse(`unknown binding ${b} (bindings: ${BINDINGS.join(', ')})`);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n]/.test(value))
      refuse(`invalid extra header ${JSON.stringify(name)}`);
  }
  const validated: ValidatedOptions = {
    target: targetUrl(options.target),
    inputs: options.inputs ?? { values: {} },
    run: options.run ?? [],
    skip: options.skip ?? [],
    level: level('level', options.level, 'compat'),
    failOn: level('failOn', options.failOn, 'must'),
    concurrency: integer('concurrency', options.concurrency, 16, 1, 256),
    timeoutMs: bound('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    retries: integer('retries', options.retries, 1, 0, 10),
    maxResponseBytes: bound('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    runTimeoutMs: bound('runTimeoutMs', options.runTimeoutMs, DEFAULT_RUN_TIMEOUT_MS),
    headers: Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    maxBodyBytes: integer('maxBodyBytes', options.maxBodyBytes, 4 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    requireResults: options.requireResults === true,
    ...(options.maxFailures === undefined
      ? {}
      : { maxFailures: integer('maxFailures', options.maxFailures, 0, 1, 1_000_000) }),
    ...(options.facts === undefined ? {} : { facts: options.facts }),
    ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.provenance === undefined ? {} : { provenance: options.provenance }),
    ...(options.onStart === undefined ? {} : { onStart: options.onStart }),
    ...(options.descriptor === undefined ? {} : { descriptor: options.descriptor }),
    ...(options.wsdlModel === undefined ? {} : { wsdlModel: options.wsdlModel }),
    ...(options.binding === undefined ? {} : { binding: options.binding }),
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.onCase === undefined ? {} : { onCase: options.onCase }),
  };
  return Object.freeze(validated);
}
