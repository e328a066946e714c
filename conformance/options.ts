/**
 * The one place conformance options are validated: unknown keys, conflicting sources, bad
 * values are refused with a CONFORMANCE_OPTIONS error; the result is frozen and never mutated.
 * The run's settings (their defaults and accepted values) are defined in run/settings.ts.
 */
import type { WsdlModel } from '../contract/model/index.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import type { Baseline } from './validate/baseline.js';
import { ConformanceError } from './errors.js';
import type { ConformanceInputs } from './catalogue/inputs.js';
import { type RawNetwork, type RawNetworkOptions, resolveRawNetwork } from '../runtime/network/raw.js';
import type { SchemaFacts } from './catalogue/schema-facts.js';
import { type ResolvedSettings, resolveSettings, type RunSettings, SETTINGS } from './run/settings.js';
import type { CaseOutcome } from './types.js';

/** Where the run's contract and tool come from, recorded in every report. */
export interface Provenance {
  readonly toolVersion: string;
  /** The WSDL as the user gave it (path or URL). */
  readonly wsdlSource: string;
  /** sha256 (hex) of the WSDL's bytes (and of its local imports). */
  readonly wsdlSha256: string;
}

/**
 * What a run needs besides its settings (RunSettings: SETTINGS in run/settings.ts); `tls`, `proxy`,
 * `auth` and `wsse` as a ServiceClient takes them (runtime/network/raw.ts).
 */
interface RunContext extends RawNetworkOptions {
  /** The service endpoint URL, e.g. `http://127.0.0.1:8080/service.asmx`. */
  readonly target: string;
  /** The contract: a descriptor, or a WSDL model to derive it from (exactly one). */
  readonly descriptor?: ServiceDescriptor;
  readonly wsdlModel?: WsdlModel;
  readonly inputs?: ConformanceInputs;
  /** Facets and list items for sample values; derived from `wsdlModel` when not given. */
  readonly facts?: SchemaFacts;
  /** Known failures: reported, never failing the run. */
  readonly baseline?: { readonly file: string; readonly baseline: Baseline };
  /** Aborted (Ctrl-C): stop sending, wait briefly for the exchanges in flight, report what ran. */
  readonly signal?: AbortSignal;
  readonly provenance?: Provenance;
  /** Called once the cases are selected, before anything is sent (for progress output). */
  readonly onStart?: (selected: number) => void;
  readonly onCase?: (outcome: CaseOutcome, done: number, total: number) => void;
}

export interface ConformanceOptions extends RunContext, RunSettings {}

export type ValidatedOptions = Omit<RunContext, 'target' | 'inputs' | keyof RawNetworkOptions> &
  ResolvedSettings & {
    readonly target: URL;
    readonly inputs: ConformanceInputs;
    /** Undefined without network options: plain connections. */
    readonly network: RawNetwork | undefined;
  };

/** Every option of the context (the settings' names come from SETTINGS). */
const CONTEXT_KEYS: Readonly<Record<keyof RunContext, true>> = {
  target: true,
  descriptor: true,
  wsdlModel: true,
  inputs: true,
  facts: true,
  baseline: true,
  signal: true,
  provenance: true,
  onStart: true,
  onCase: true,
  tls: true,
  proxy: true,
  auth: true,
  wsse: true,
};

const NETWORK_KEYS = ['tls', 'proxy', 'auth', 'wsse'] as const;

function refuse(message: string): never {
  throw new ConformanceError('CONFORMANCE_OPTIONS', message);
}

function targetUrl(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return refuse(`target ${JSON.stringify(target)} is not a URL (e.g. http://127.0.0.1:8080/service.asmx)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    refuse(`target must be an http or https URL, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') refuse('target must not carry a query or a fragment');
  return url;
}

export function validateOptions(options: ConformanceOptions): ValidatedOptions {
  for (const key of Object.keys(options))
    if (!Object.hasOwn(CONTEXT_KEYS, key) && !Object.hasOwn(SETTINGS, key)) refuse(`unknown option ${key}`);
  if ((options.descriptor === undefined) === (options.wsdlModel === undefined))
    refuse('give exactly one of descriptor and wsdlModel');
  const { target, inputs, ...rest } = options;
  const context: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest))
    if (Object.hasOwn(CONTEXT_KEYS, key) && !NETWORK_KEYS.includes(key as never) && value !== undefined)
      context[key] = value;
  const settings = resolveSettings(options);
  const url = targetUrl(target);
  return Object.freeze({
    ...(context as Omit<ValidatedOptions, keyof ResolvedSettings | 'target' | 'inputs' | 'network'>),
    ...settings,
    target: url,
    inputs: inputs ?? { values: {} },
    network: networkOf(url, options, settings.headers),
  });
}

/** The network options made ready for the target; a conflict with the target or the headers is refused. */
function networkOf(
  target: URL,
  options: RawNetworkOptions,
  headers: Readonly<Record<string, string>>,
): RawNetwork | undefined {
  if (NETWORK_KEYS.every((key) => options[key] === undefined)) return undefined;
  if (options.tls !== undefined && target.protocol === 'http:' && options.proxy === undefined)
    refuse('tls applies to an https:// target, and the target is http://');
  if (options.auth !== undefined && Object.hasOwn(headers, 'authorization'))
    refuse('auth and an Authorization header in headers conflict: give one');
  return resolveRawNetwork(target, options);
}
