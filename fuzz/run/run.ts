/**
 * `runFuzz`: the contract made into properties, the servers' transports made ready, the
 * properties scheduled, and the report assembled (the baseline applied). Never prints or exits.
 *
 *   model ──toDescriptor──▶ contracts ──▶ properties (arbitraries) ──fast-check──▶ trials
 *         ──conformance's checks, replay's outline──▶ findings (shrunk) ──▶ FuzzReport
 */
import { endpointPath } from '../../conformance/catalogue/build.js';
import { operationContracts, type OperationContract } from '../../conformance/catalogue/operation-contract.js';
import { schemaFacts } from '../../conformance/catalogue/schema-facts.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../conformance/run/bounds.js';
import { Transport } from '../../conformance/run/transport.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { declaredTypeNormaliser } from '../../migrate/declared-types.js';
import { rateGate } from '../../migrate/replay.js';
import { makeRedactor } from '../../report/redact.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { resolveRawNetwork } from '../../runtime/network/raw.js';
import { FuzzError } from '../errors.js';
import { ValueArbitraries } from '../generate/values.js';
import { type FuzzOptions, validateFuzzOptions, type ValidatedFuzzOptions } from '../options.js';
import { caseBuilder, type FuzzProperty, fuzzProperties } from '../properties.js';
import type { FuzzFinding, FuzzReport } from '../types.js';
import { NoiseLearned } from './reference.js';
import { runSchedule, type ScheduleResult } from './scheduler.js';
import type { TrialContext } from './trial.js';

function transportTo(url: URL, options: ValidatedFuzzOptions): Transport {
  const network = options.options.network === undefined ? undefined : resolveRawNetwork(url, options.options.network);
  return new Transport({
    origin: url.origin,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    retries: 0,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    headers: {},
    network,
  });
}

/** The contracts the run may send: usable, in the allow-list and the bindings chosen. */
function selectedContracts(d: ServiceDescriptor, options: ValidatedFuzzOptions): OperationContract[] {
  const all = operationContracts(d);
  const known = new Set(all.map((c) => c.operation.name));
  const unknown = (options.operations ?? []).filter((o) => !known.has(o));
  if (unknown.length > 0)
    throw new FuzzError(
      'FUZZ_OPTIONS',
      `operations: ${unknown.join(', ')} not in the contract (it has ${[...known].join(', ')})`,
    );
  return all.filter(
    (c) =>
      c.unusable === undefined &&
      (options.operations === undefined || options.operations.includes(c.operation.name)) &&
      (options.bindings === undefined || options.bindings.includes(c.protocol)),
  );
}

function propertiesOf(d: ServiceDescriptor, options: ValidatedFuzzOptions): FuzzProperty[] {
  const values = new ValueArbitraries(d, schemaFacts(options.wsdlModel));
  const properties = fuzzProperties(selectedContracts(d, options), values, options.modes);
  const chosen =
    options.replay === undefined ? properties : properties.filter((p) => p.id === options.replay!.property);
  if (chosen.length === 0)
    throw new FuzzError(
      'NOTHING_TO_FUZZ',
      options.replay === undefined
        ? 'no operation to fuzz: none of the selected operations can be exercised on the selected bindings'
        : `path names ${options.replay.property}, which is not a property of this run`,
    );
  return chosen;
}

function contextOf(d: ServiceDescriptor, options: ValidatedFuzzOptions): TrialContext {
  const network = options.options.network;
  const secrets = network === undefined ? [] : resolveRawNetwork(options.target, network).secrets;
  const redact = makeRedactor(secrets);
  const targetBase = endpointPath(d, options.target.pathname);
  const reference = options.reference;
  return {
    target: transportTo(options.target, options),
    ...(reference === undefined
      ? {}
      : {
          reference: {
            transport: transportTo(reference, options),
            judge: { normalise: declaredTypeNormaliser(d), ignore: options.ignore, noise: new NoiseLearned() },
            rebase: (path: string) => {
              const referenceBase = endpointPath(d, reference.pathname);
              return path.startsWith(targetBase) ? referenceBase + path.slice(targetBase.length) : path;
            },
          },
        }),
    gate: rateGate(options.ratePerSecond),
    level: options.level,
    redact,
    signal: options.options.signal,
    stats: { requests: 0, answered: false, noise: 0 },
  };
}

function withBaseline(findings: readonly FuzzFinding[], options: ValidatedFuzzOptions): FuzzFinding[] {
  const keys = options.options.baseline?.keys;
  return findings.map((f) => (keys?.has(f.key) === true ? { ...f, baseline: 'known' as const } : f));
}

/** Runs the properties against the target (and the reference) and returns the report. */
export async function runFuzz(given: FuzzOptions): Promise<FuzzReport> {
  const startedAt = new Date();
  const started = performance.now();
  const options = validateFuzzOptions(given);
  const d = toDescriptor(options.wsdlModel);
  const properties = propertiesOf(d, options);
  const ctx = contextOf(d, options);
  const basePath = endpointPath(d, options.target.pathname);
  const perProperty = options.runs === undefined ? undefined : Math.max(1, Math.ceil(options.runs / properties.length));
  let result: ScheduleResult;
  try {
    result = await runSchedule(ctx, caseBuilder(d, schemaFacts(options.wsdlModel), basePath), properties, {
      seed: options.seed,
      runsPerProperty: perProperty,
      deadline: options.budgetMs === undefined ? undefined : started + options.budgetMs,
      concurrency: options.concurrency,
      onRound: given.onRound,
      ...(options.replay === undefined ? {} : { replay: options.replay }),
    });
  } finally {
    await Promise.all([ctx.target.close(), ctx.reference?.transport.close()]);
  }
  return reportOf(options, ctx, result, startedAt, performance.now() - started);
}

function reportOf(
  options: ValidatedFuzzOptions,
  ctx: TrialContext,
  result: ScheduleResult,
  startedAt: Date,
  durationMs: number,
): FuzzReport {
  const findings = withBaseline(result.findings, options);
  const gating = findings.filter((f) => f.baseline !== 'known').length;
  const baseline = options.options.baseline;
  const keys = new Set(findings.map((f) => f.key));
  return {
    meta: {
      tool: options.options.tool ?? 'smskit',
      wsdl: { source: options.options.wsdlSource ?? options.wsdlModel.file, sha256: options.wsdlModel.hash },
      target: ctx.redact(options.target.href),
      reference: options.reference === undefined ? undefined : ctx.redact(options.reference.href),
      seed: options.seed,
      runs: options.runs,
      budgetMs: options.budgetMs,
      ignore: options.ignore,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
    },
    summary: {
      properties: result.properties.length,
      cases: result.properties.reduce((n, p) => n + p.cases, 0),
      requests: ctx.stats.requests,
      refused: result.properties.reduce((n, p) => n + p.refused, 0),
      findings: findings.length,
      gating,
      ...(baseline === undefined
        ? {}
        : {
            baseline: {
              file: baseline.file,
              known: findings.length - gating,
              new: gating,
              fixed: [...baseline.keys].filter((k) => !keys.has(k)).sort(),
            },
          }),
      noise: ctx.stats.noise,
      ...(result.unreachable === undefined ? {} : { unreachable: result.unreachable }),
      interrupted: result.interrupted,
      durationMs: Math.round(durationMs),
      ok: gating === 0 && result.unreachable === undefined && !result.interrupted,
    },
    properties: result.properties,
    findings,
    noise: ctx.reference?.judge.noise.entries() ?? [],
  };
}
