/**
 * The conformance kit's data: cases (what to send, what to expect), exchanges (what was seen),
 * checks (pure rules over an exchange) and their mismatches.
 *
 * Pipeline: descriptor ──catalogue──▶ cases ──expand──▶ selection ──run──▶ exchanges
 *           ──checks──▶ outcomes ──report──▶ pretty / json / junit.
 */
import type { NameDescriptor, Protocol, ServiceDescriptor, ValueDescriptor } from '../runtime/descriptor.js';

/** How much a finding matters: MUST (service spec), SHOULD (SOAP, WS-I BP), COMPAT (ASMX habits). */
export type Level = 'must' | 'should' | 'compat';

/** Strictest first: `--level should` runs must + should, `--fail-on should` fails on both. */
export const LEVELS: readonly Level[] = ['must', 'should', 'compat'];

/** True when `level` is at least as strict as `threshold`. */
export function atOrAbove(level: Level, threshold: Level): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(threshold);
}

/** The weaker of two levels: a finding in a COMPAT case is never worse than COMPAT. */
export function weaker(a: Level, b: Level): Level {
  return LEVELS.indexOf(a) >= LEVELS.indexOf(b) ? a : b;
}

/** The binding a case belongs to; `wsdl` is the service description itself. */
export type CaseBinding = Protocol | 'wsdl';

export const CASE_BINDINGS: readonly CaseBinding[] = ['soap11', 'soap12', 'http-get', 'http-post', 'wsdl'];

/** The HTTP request a case sends, fully built (bytes are final, nothing is added later but -H headers). */
export interface RequestSpec {
  readonly method: string;
  /** Path plus query, relative to the target origin (e.g. `/service.asmx/Send?a=1`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /**
   * The server may answer before reading the whole body (and close): sent over a fresh socket
   * that tolerates the early answer instead of the keep-alive pool.
   */
  readonly mayAnswerEarly?: boolean;
}

/** One expected field of a response wrapper, from the descriptor, in schema order. */
export interface ExpectedField {
  readonly name: NameDescriptor;
  /** Its schema type: the response is validated against it, at every depth. */
  readonly value: ValueDescriptor;
  /** Primitive XSD type name when the value is a primitive (e.g. 'string', 'int'); else undefined. */
  readonly xsd?: string;
  readonly enumeration?: readonly string[];
  readonly required: boolean;
  readonly nillable: boolean;
  readonly repeated: boolean;
  /** -1 for unbounded. */
  readonly maxOccurs: number;
  /** A repeating group (FieldDescriptor.group): its members are the result elements, `value` its occurrence type. */
  readonly group?: 'sequence' | 'choice';
}

/** A SOAP header block the operation declares in its output. */
export interface ExpectedHeader {
  readonly name: NameDescriptor;
  readonly value: ValueDescriptor;
  readonly nillable: boolean;
  /** Declared in the input too (in-out) and sent with the request: it must come back. */
  readonly echoed: boolean;
}

/** What a successful answer looks like for one operation on one binding. */
export type SuccessShape =
  | {
      readonly kind: 'soap';
      readonly version: '1.1' | '1.2';
      readonly element: NameDescriptor;
      readonly fields: readonly ExpectedField[];
      /** The output header blocks the operation declares. */
      readonly headers: readonly ExpectedHeader[];
      /** The contract the values are validated against (a reference, not a copy). */
      readonly schema: ServiceDescriptor;
    }
  | {
      readonly kind: 'xml-root';
      readonly element: NameDescriptor;
      readonly field: ExpectedField;
      readonly schema: ServiceDescriptor;
    }
  /** HTTP GET/POST of an operation without output: 200, any (usually empty) body. */
  | { readonly kind: 'empty' }
  /**
   * A one-way SOAP operation (no wsdl:output): 202 or 200 and no body, never an envelope (WS-I
   * BP R2714, R1112). `version` is the request's: a refusal a server sends anyway comes as a fault in it.
   */
  | { readonly kind: 'one-way'; readonly version: '1.1' | '1.2' };

/** Which fault code a negative case expects. */
export type FaultFamily = 'client' | 'server' | 'version-mismatch' | 'must-understand';

export type Expectation =
  /**
   * A positive case. `allowRefusal`: the service's own validation may refuse the value (empty,
   * long, non-ASCII): then a well-formed Client/Sender fault (SOAP) or an error answer (GET/POST)
   * in the right shape is accepted instead, and counted as "refused" in the summary.
   */
  | {
      readonly kind: 'success';
      readonly shape: SuccessShape;
      readonly allowRefusal: boolean;
      /**
       * Plain HTTP answers accepted as a refusal whatever their body (ASMX answers a query string
       * over its 2048-character limit with 400 and an HTML page); each names why it is allowed.
       */
      readonly acceptStatuses?: readonly { readonly status: number; readonly why: string }[];
      /**
       * HTTP GET/POST: the SOAP headers the operation declares on its SOAP bindings. No header
       * can travel over HTTP, so a service that needs one refuses every HTTP call: that refusal
       * is accepted (allowRefusal) and reported once by `http.header-unsendable`, not as
       * failures of a success answer.
       */
      readonly soapHeadersOnly?: readonly string[];
    }
  /**
   * A SOAP negative case: a fault in `version` (or either version for a version mismatch) of the
   * given family; `acceptStatuses` lists plain HTTP answers SOAP/HTTP also allow (415, 405, 413).
   */
  | {
      readonly kind: 'fault';
      readonly version: '1.1' | '1.2';
      readonly family: FaultFamily;
      readonly acceptAnyVersion: boolean;
      readonly acceptStatuses: readonly number[];
    }
  /** A GET/POST negative case: a plain HTTP error (ASMX: 500 text/plain with a one-line message). */
  | { readonly kind: 'http-error'; readonly acceptStatuses: readonly number[]; readonly message?: string }
  /** The server's `?wsdl` must describe the same contract (`contract` is its structural summary). */
  | { readonly kind: 'wsdl'; readonly contract: readonly string[] };

/** One case of the catalogue: data only, validated when built. */
export interface Case {
  /** Path-like id, e.g. `Send/soap12/ok/non-ascii`. */
  readonly id: string;
  readonly operation: string;
  readonly binding: CaseBinding;
  /** The level of the behaviour the case probes; it caps the level of the case's findings. */
  readonly level: Level;
  readonly description: string;
  readonly request: RequestSpec;
  readonly expect: Expectation;
  /**
   * Set when the case cannot be exercised (an operation style the runner does not support, a
   * value it cannot build, a binding that cannot carry the value): the case is reported as
   * skipped with this reason, and its request is a placeholder that is never sent.
   */
  readonly unusable?: string;
}

/** What was sent and what came back. Header names are lowercase. */
export interface Exchange {
  /** `proxy`: the proxy it went through (its URL without credentials). */
  readonly request: RequestSpec & { readonly url: string; readonly proxy?: string };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: Uint8Array;
  };
  readonly durationMs: number;
  /**
   * The `wsdl` case: the documents the served WSDL imports, fetched by the runner from the
   * target's origin (conformance/run/served-imports.ts), and the imports it did not fetch, with why.
   */
  readonly imports?: {
    readonly documents: ReadonlyMap<string, Uint8Array>;
    readonly refused: ReadonlyMap<string, string>;
  };
}

/** One difference between what the case expects and what the exchange shows. */
export interface Mismatch {
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}

/** One conformance rule. `run` is a pure function of the exchange and the case. */
export interface Check {
  readonly id: string;
  readonly level: Level;
  /** What the rule enforces: `spec §4.1`, `SOAP 1.1 §6.2`, `WS-I BP R1141`, `ASMX`. */
  readonly source: string;
  readonly title: string;
  applies(testCase: Case): boolean;
  run(exchange: Exchange, testCase: Case): Mismatch[];
  /**
   * Where the rule allows several answers (400 or 500, 415 or a fault), which one this exchange
   * shows, so that a passing report still says what was accepted.
   */
  observe?(exchange: Exchange, testCase: Case): string | undefined;
}

/** A check's findings on one case, with the level it counts at. */
export interface Failure {
  readonly check: string;
  /** The weaker of the check's level and the case's level. */
  readonly level: Level;
  readonly source: string;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
  /** `known`: listed in the baseline (`--baseline`): reported, but it does not fail the run. */
  readonly baseline?: 'known';
}

/** `not-run`: selected, but the run ended before a verdict (`--run-timeout`, Ctrl-C, `--max-failures`). */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'not-run';

export interface CaseOutcome {
  readonly id: string;
  readonly operation: string;
  readonly binding: CaseBinding;
  readonly level: Level;
  readonly status: CaseStatus;
  readonly durationMs: number;
  readonly failures: readonly Failure[];
  /** Checks that ran on the case (for reporting what was verified). */
  readonly checks: readonly string[];
  /** What the checks that allow several answers saw (e.g. `fault.status: 400 (SOAP 1.2 Sender)`). */
  readonly observations: readonly string[];
  /** Set when a positive case was refused by the service's validation (accepted, counted). */
  readonly refused?: string;
  /** Why the case was skipped (selection or level) or not run (the run timed out). */
  readonly skipReason?: string;
  /** Request and response for display: redacted, bodies truncated, with a curl command. */
  readonly trace?: Trace;
  /** A transport failure on this case (the target was reachable at first). */
  readonly transportError?: string;
  /** What kind of answer came back (for the run's diagnosis: 404 everywhere, HTML pages, ...). */
  readonly answer?: AnswerSummary;
}

/** The gist of an answer: its status, what its body is, and a fault's or error's first line. */
export interface AnswerSummary {
  readonly status: number;
  readonly body: 'soap' | 'soap-fault' | 'xml' | 'html' | 'text' | 'empty' | 'other';
  readonly reason?: string;
}

export interface ReportSummary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Selected cases the run did not complete (it timed out, was interrupted or stopped). */
  readonly notRun: number;
  /** The run was ended by its deadline (`--run-timeout`): the report is incomplete. */
  readonly timedOut: boolean;
  readonly runTimeoutMs: number;
  /** The run was interrupted (Ctrl-C): the report holds what ran. */
  readonly interrupted: boolean;
  /** Set when `--max-failures` stopped the run: the limit it reached. */
  readonly stoppedAfterFailures?: number;
  /** Positive cases the service refused with a well-formed client error (accepted). */
  readonly refused: number;
  /** Failures by level (after capping by the case's level), known ones (baseline) included. */
  readonly failuresByLevel: Readonly<Record<Level, number>>;
  /** With `--baseline`: failures it lists (reported, not gating), new ones, and listed ones now passing. */
  readonly baseline?: {
    readonly file: string;
    readonly known: number;
    readonly new: number;
    readonly fixed: readonly string[];
  };
  /** Why the run's answers cannot be judged (not this SOAP service, credentials refused); exit 2. */
  readonly diagnosis?: string;
  readonly durationMs: number;
  readonly failOn: Level;
  /** True when the run completed and no failure (not known in the baseline) is at or above `failOn`. */
  readonly ok: boolean;
}

/** Where the report comes from: enough to tell two reports apart and to reproduce the run. */
export interface ReportMeta {
  readonly tool: string;
  readonly version: string;
  /** The WSDL as given (path or URL) and the sha256 of its bytes (and of its local imports). */
  readonly wsdl: { readonly source: string; readonly sha256: string };
  readonly target: string;
  /** ISO 8601 UTC. */
  readonly startedAt: string;
  readonly finishedAt: string;
}

export interface Report {
  readonly meta: ReportMeta;
  readonly target: string;
  readonly summary: ReportSummary;
  readonly cases: readonly CaseOutcome[];
  /** Every check that exists, with its level and source, for the reporters' legends. */
  readonly checks: readonly Pick<Check, 'id' | 'level' | 'source' | 'title'>[];
}

/** The display form of an exchange (validate/trace.ts builds it): redacted, bodies truncated, with a curl command. */
export interface Trace {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
    readonly bodyBytes: number;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
    readonly bodyBytes: number;
  };
  readonly curl: string;
}
