/**
 * The replay behind `smskit replay`: sends each recorded request to the target and compares the
 * answer's outline (outline.ts) with the recorded answer's, or, with a reference server, with
 * the reference's answer to the same request at the same time. In that mode each request goes to
 * the reference twice first: paths where the two reference answers differ (generated ids,
 * timestamps) are noise for that operation and binding, and target differences there are
 * reported as noise, not as differences (Diffy's idea).
 *
 * Safety: only the operations allowed are sent (all with allowWrites, else the allow-list);
 * recorded credentials (a recording made with --keep-secrets) never go to a host other than the
 * recorded upstream's unless sendCredentials; at most `concurrency` exchanges in flight and at
 * most `ratePerSecond` requests started per second.
 */
import { makeRedactor } from '../report/redact.js';
import { type Classified, classify } from './classify.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { canonicalText } from './canonical.js';
import { declaredTypeNormaliser, recordedDescriptor } from './declared-types.js';
import { compareOutlines, type Difference, groupPath } from './compare.js';
import { pathIgnorer } from './ignore.js';
import { type Answer, outlineEntries, type TextNormaliser } from './outline.js';
import type { Exchange, LoadedRecording, StoredMessage } from './recording.js';
import { answerHeaders, curlFor, ReplayServer, type SendSettings } from './send.js';
import { isSecretName, Redactor } from './redact.js';
import { groupDifferences } from './grouping.js';
import type { DifferenceGroup, ReplayReport, ShownAnswer } from './types.js';

export interface ReplayOptions {
  readonly recording: LoadedRecording;
  readonly recordingDir: string;
  readonly target: string;
  readonly reference?: string | undefined;
  readonly network: Omit<SendSettings, 'connections'>;
  readonly allowWrites: boolean;
  /** Operations that may be sent (when allowWrites is false). */
  readonly operations: readonly string[];
  readonly sendCredentials: boolean;
  readonly concurrency: number;
  readonly ratePerSecond: number;
  readonly ignore: readonly string[];
  /**
   * The service's descriptor, for canonical parsing of leaf texts by declared type (`--wsdl`);
   * without it, the recording's own `?wsdl` exchange if it has one, else the lexical rule.
   */
  readonly descriptor?: { readonly descriptor: ServiceDescriptor; readonly from: string } | undefined;
  readonly baseline?: { readonly file: string; readonly keys: ReadonlySet<string> } | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly tool: string;
  /** Called after each exchange, for progress. */
  readonly onExchange?: ((done: number, total: number) => void) | undefined;
}

type Outcome =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'not-judged'; readonly reason: string }
  | {
      readonly kind: 'compared';
      readonly exchange: Exchange;
      readonly classified: Classified;
      readonly differences: readonly Difference[];
      /** Paths where the reference's two answers differed. */
      readonly noisePaths: readonly string[];
      readonly want: ShownAnswer;
      readonly got: ShownAnswer;
      readonly targetAnswered: boolean;
    };

const SHOWN_BODY_LIMIT = 8 * 1024;

/**
 * Reports show no secret, also from a recording made with --keep-secrets: the report kit's
 * named-credential rules (report/redact.ts: password fields, Authorization, user:password@) on
 * every text shown.
 */
const redactNamed = makeRedactor([]);

function shownRedactor(secretFields: readonly string[]): (text: string) => string {
  const rules = new Redactor(secretFields);
  return (text) => rules.text(redactNamed(text));
}
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$/i;

function shown(redact: (text: string) => string, answer: Answer | undefined, error?: string): ShownAnswer {
  if (answer === undefined) return { status: undefined, headers: [], body: '', error: error ?? 'no answer' };
  const text = redact(answer.body.toString('utf8'));
  return {
    status: answer.status,
    headers: answerHeaders(answer).map(([n, v]): [string, string] => [n, SECRET_HEADER.test(n) ? '***' : v]),
    body: text.length > SHOWN_BODY_LIMIT ? `${text.slice(0, SHOWN_BODY_LIMIT)}… [cut]` : text,
  };
}

/** A value shown at a path: `***` when the path's field is named like a secret. */
function shownValue(path: string, value: string | undefined): string | undefined {
  const last = path.split('/').at(-1) ?? '';
  return value !== undefined && isSecretName(last.replace(/\[\d+\]$/, ''))
    ? value.replace(/= ".*"$/, '= "***"')
    : value;
}

/**
 * The answer with the servers' own addresses (the recorded upstream's, the target's, the
 * reference's) written as one placeholder: a WSDL names the server it came from, and that is
 * not a difference.
 */
function withoutOrigins(answer: Answer, origins: readonly string[]): Answer {
  let text = answer.body.toString('latin1');
  const before = text;
  for (const origin of origins) text = text.split(origin).join('http://server');
  return text === before ? answer : { ...answer, body: Buffer.from(text, 'latin1') };
}

function storedAnswer(message: StoredMessage & { status: number }): Answer {
  const headers: Record<string, string> = {};
  for (const [name, value] of message.headers) headers[name.toLowerCase()] = value;
  return { status: message.status, headers, body: Buffer.from(message.body, 'base64') };
}

/** Why an exchange is not sent, or undefined when it is. */
function skipReason(
  exchange: Exchange,
  classified: Classified,
  options: ReplayOptions,
  hosts: string[],
): string | undefined {
  if (exchange.request.truncated) return 'request body cut at recording (over --max-body-bytes)';
  // A failed exchange's answer, if any, is only what arrived: never a complete answer to compare with.
  if (options.reference === undefined && exchange.failure !== undefined)
    return 'the recorded exchange failed (its `failure` says why): no complete answer to compare with';
  if (options.reference === undefined && exchange.response === undefined)
    return 'no recorded answer (the upstream did not answer)';
  if (options.reference === undefined && exchange.response?.truncated)
    return 'recorded answer cut (over --max-body-bytes)';
  const reads = classified.binding === 'wsdl' || classified.binding === 'page';
  if (!reads && !options.allowWrites && !options.operations.includes(classified.operation))
    return 'operation not in --operations (give --allow-writes to send every operation)';
  const recordedHost = new URL(options.recording.meta.upstream).hostname;
  const carries = exchange.secrets.some((s) => !s.startsWith('answer '));
  if (
    options.recording.meta.secretsKept &&
    carries &&
    !options.sendCredentials &&
    hosts.some((h) => h !== recordedHost)
  )
    return `carries recorded credentials, and the replay goes to another host than ${recordedHost} (--send-credentials to allow)`;
  return undefined;
}

/** A start gate: at most `perSecond` starts in any second, spaced evenly. */
export function rateGate(perSecond: number): () => Promise<void> {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return async () => undefined;
  const interval = 1000 / perSecond;
  let next = 0;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}

interface Servers {
  readonly target: ReplayServer;
  readonly reference: ReplayServer | undefined;
  readonly gate: () => Promise<void>;
  /** Leaf texts to their canonical form (by declared type where known). */
  readonly normalise: TextNormaliser;
  /** Where the declared types came from, for the report. */
  readonly leafTypes: string;
  /** Takes secrets out of what a report shows. */
  readonly redact: (text: string) => string;
  /** Every server origin a body may name (the recorded upstream first). */
  readonly origins: readonly string[];
}

const errorText = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : (error as Error).message;
};

async function sendVia(servers: Servers, server: ReplayServer, exchange: Exchange): Promise<Answer | string> {
  await servers.gate();
  try {
    return await server.send(exchange.request);
  } catch (error) {
    return errorText(error);
  }
}

async function replayOne(exchange: Exchange, options: ReplayOptions, servers: Servers): Promise<Outcome> {
  const classified = classify(exchange.request);
  const hosts = [
    servers.target.url.hostname,
    ...(servers.reference === undefined ? [] : [servers.reference.url.hostname]),
  ];
  const reason = skipReason(exchange, classified, options, hosts);
  if (reason !== undefined) return { kind: 'skipped', reason };
  let want: Answer;
  let noisePaths: string[] = [];
  const ignored = pathIgnorer(options.ignore);
  if (servers.reference !== undefined) {
    const first = await sendVia(servers, servers.reference, exchange);
    const second = await sendVia(servers, servers.reference, exchange);
    if (typeof first === 'string' || typeof second === 'string')
      return {
        kind: 'not-judged',
        reason: `the reference did not answer (${typeof first === 'string' ? first : second})`,
      };
    want = withoutOrigins(first, servers.origins);
    noisePaths = compareOutlines(
      outlineEntries(first, servers.normalise),
      outlineEntries(second, servers.normalise),
    ).map((d) => groupPath(d.path));
  } else want = withoutOrigins(storedAnswer(exchange.response!), servers.origins);
  const got = await sendVia(servers, servers.target, exchange);
  const wantEntries = outlineEntries(want, servers.normalise);
  const differences =
    typeof got === 'string'
      ? [{ kind: 'changed' as const, path: 'status', want: `status ${want.status}`, got: `no answer (${got})` }]
      : compareOutlines(wantEntries, outlineEntries(withoutOrigins(got, servers.origins), servers.normalise), ignored);
  return {
    kind: 'compared',
    exchange,
    classified,
    differences,
    noisePaths,
    want: shown(servers.redact, want),
    got: typeof got === 'string' ? shown(servers.redact, undefined, got) : shown(servers.redact, got),
    targetAnswered: typeof got !== 'string',
  };
}

export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const startedAt = new Date();
  const started = performance.now();
  const settings = { ...options.network, connections: options.concurrency };
  const target = new ReplayServer(options.target, settings);
  const reference = options.reference === undefined ? undefined : new ReplayServer(options.reference, settings);
  const declared = options.descriptor ?? recordedDescriptor(options.recording);
  const servers: Servers = {
    normalise: declared === undefined ? canonicalText : declaredTypeNormaliser(declared.descriptor),
    leafTypes:
      declared === undefined ? 'lexical forms (no WSDL: give --wsdl)' : `declared types, from ${declared.from}`,
    target,
    reference,
    gate: rateGate(options.ratePerSecond),
    redact: shownRedactor(options.recording.meta.secretFields),
    origins: [
      new URL(options.recording.meta.upstream).origin,
      target.url.origin,
      ...(reference === undefined ? [] : [reference.url.origin]),
    ],
  };
  const exchanges = options.recording.exchanges;
  const outcomes: Outcome[] = new Array(exchanges.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < exchanges.length && options.signal?.aborted !== true) {
      const i = next++;
      outcomes[i] = await replayOne(exchanges[i]!, options, servers);
      options.onExchange?.(++done, exchanges.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    await Promise.all([servers.target.close(), servers.reference?.close()]);
  }
  return buildReport(options, servers, outcomes, startedAt, performance.now() - started);
}

function buildReport(
  options: ReplayOptions,
  servers: Servers,
  outcomes: readonly (Outcome | undefined)[],
  startedAt: Date,
  durationMs: number,
): ReplayReport {
  const compared = outcomes.filter((o): o is Compared => o?.kind === 'compared');
  const { groups: sortedGroups, noise, matched, differing } = differenceGroups(options, servers, compared);
  const skipped = outcomes.filter((o) => o?.kind === 'skipped').length;
  const notJudged = outcomes.filter((o) => o?.kind === 'not-judged').length;
  const gating = sortedGroups.filter((g) => g.baseline !== 'known').length;
  const interrupted = options.signal?.aborted === true;
  const unreachable = compared.length > 0 && compared.every((o) => !o.targetAnswered);
  const baseline = baselineSummary(options, sortedGroups);
  return {
    meta: metaOf(options, servers, startedAt),
    summary: {
      exchanges: options.recording.exchanges.length,
      replayed: compared.length,
      matched,
      differing,
      skipped,
      notJudged,
      groups: sortedGroups.length,
      gating,
      ...(baseline === undefined ? {} : { baseline }),
      unreachable,
      interrupted,
      durationMs: Math.round(durationMs),
      ok: gating === 0 && notJudged === 0 && !unreachable && !interrupted && compared.length > 0,
    },
    groups: sortedGroups,
    noise,
    skipped: skippedReasons(outcomes),
    warnings: options.recording.warnings,
  };
}

type Compared = Extract<Outcome, { kind: 'compared' }>;

/** The compared exchanges' differences grouped (noise and the baseline applied), each group with its examples. */
function differenceGroups(
  options: ReplayOptions,
  servers: Servers,
  compared: readonly Compared[],
): ReturnType<typeof groupDifferences> {
  // Noise is learned over the whole run: a path the reference varied on in any exchange of an
  // operation and binding is noise in all of them.
  const noiseKeys = new Set(
    compared.flatMap((o) => o.noisePaths.map((p) => `${o.classified.operation} ${o.classified.binding} ${p}`)),
  );
  return groupDifferences(
    compared.map((o) => ({
      id: o.exchange.id,
      ...o.classified,
      differences: o.differences,
      example: (d) => ({
        exchange: o.exchange.id,
        want: shownValue(d.path, d.want),
        got: shownValue(d.path, d.got),
        wantAnswer: o.want,
        gotAnswer: o.got,
        curl: servers.redact(curlFor(servers.target, o.exchange.request)),
      }),
    })),
    noiseKeys,
    options.baseline?.keys,
  );
}

function metaOf(options: ReplayOptions, servers: Servers, startedAt: Date): ReplayReport['meta'] {
  return {
    tool: options.tool,
    recording: options.recordingDir,
    upstream: options.recording.meta.upstream,
    target: servers.target.url.origin,
    reference: servers.reference?.url.origin,
    secretsKept: options.recording.meta.secretsKept,
    ignore: options.ignore,
    leafTypes: servers.leafTypes,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
  };
}

/** Why exchanges were not replayed (or not judged), with counts. */
function skippedReasons(outcomes: readonly (Outcome | undefined)[]): { reason: string; count: number }[] {
  const reasons = new Map<string, number>();
  for (const o of outcomes)
    if (o?.kind === 'skipped' || o?.kind === 'not-judged') reasons.set(o.reason, (reasons.get(o.reason) ?? 0) + 1);
  return [...reasons].map(([reason, count]) => ({ reason, count }));
}

/** Known, new and fixed groups against the baseline, when one was given. */
function baselineSummary(
  options: ReplayOptions,
  groups: readonly DifferenceGroup[],
): ReplayReport['summary']['baseline'] | undefined {
  if (options.baseline === undefined) return undefined;
  const keys = new Set(groups.map((g) => g.key));
  return {
    file: options.baseline.file,
    known: groups.filter((g) => g.baseline === 'known').length,
    new: groups.filter((g) => g.baseline !== 'known').length,
    fixed: [...options.baseline.keys].filter((k) => !keys.has(k)).sort(),
  };
}
