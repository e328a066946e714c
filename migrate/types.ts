/** What a replay produces: the report every reporter renders (report/) and the exit code reads. */
import type { ExchangeBinding } from './classify.js';
import type { DifferenceKind } from './compare.js';

/** An answer as a report shows it: status, headers and the body as text (cut when long). */
export interface ShownAnswer {
  readonly status: number | undefined;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
  /** Why there is no answer (a transport error), when there is none. */
  readonly error?: string;
}

export interface Example {
  readonly exchange: number;
  /** The value at the path in the recorded (or reference) answer, and in the target's. */
  readonly want: string | undefined;
  readonly got: string | undefined;
  readonly wantAnswer: ShownAnswer;
  readonly gotAnswer: ShownAnswer;
  /** Sends the request to the target again. */
  readonly curl: string;
}

/** Exchanges that differ the same way: same operation, binding, kind and path (indices taken out). */
export interface DifferenceGroup {
  /** `operation binding kind path`: what --baseline lists. */
  readonly key: string;
  readonly operation: string;
  readonly binding: ExchangeBinding;
  readonly kind: DifferenceKind;
  readonly path: string;
  readonly count: number;
  /** The ids of the exchanges in the group (the first 1,000). */
  readonly exchanges: readonly number[];
  /** Set when a baseline was given: known (listed there) or new. */
  readonly baseline?: 'known' | 'new';
  readonly example: Example;
}

/** A path where two answers of the reference to the same request differed: ids, timestamps. */
export interface NoiseGroup {
  readonly operation: string;
  readonly binding: ExchangeBinding;
  readonly path: string;
  /** Differences between target and reference at this path, reported as noise. */
  readonly count: number;
}

export interface ReplaySummary {
  readonly exchanges: number;
  readonly replayed: number;
  readonly matched: number;
  readonly differing: number;
  readonly skipped: number;
  /** Exchanges that could not be judged (the reference did not answer). */
  readonly notJudged: number;
  readonly groups: number;
  /** Groups that make the run fail (not in the baseline). */
  readonly gating: number;
  readonly baseline?: {
    readonly file: string;
    readonly known: number;
    readonly new: number;
    readonly fixed: readonly string[];
  };
  /** No exchange got an answer from the target: nothing was compared. */
  readonly unreachable: boolean;
  readonly interrupted: boolean;
  readonly durationMs: number;
  readonly ok: boolean;
  /** `--write-baseline`: the file this run's difference groups were written to, as accepted. */
  readonly baselineWritten?: string;
}

export interface ReplayReport {
  readonly meta: {
    readonly tool: string;
    readonly recording: string;
    readonly upstream: string;
    readonly target: string;
    readonly reference: string | undefined;
    readonly secretsKept: boolean;
    readonly ignore: readonly string[];
    /** How leaf texts were compared: by declared type (and from which WSDL) or by lexical form. */
    readonly leafTypes: string;
    readonly startedAt: string;
    readonly finishedAt: string;
  };
  readonly summary: ReplaySummary;
  readonly groups: readonly DifferenceGroup[];
  readonly noise: readonly NoiseGroup[];
  /** Why exchanges were not replayed, with counts. */
  readonly skipped: readonly { readonly reason: string; readonly count: number }[];
  readonly warnings: readonly string[];
}
