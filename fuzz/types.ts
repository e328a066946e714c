/** What a fuzz run produces: the report every reporter renders (report/) and the exit code reads. */
import type { Failure, Trace } from '../conformance/types.js';
import type { Difference } from '../migrate/compare.js';
import type { Protocol } from '../runtime/descriptor.js';
import type { FuzzMode } from './properties.js';

/** One property's failure, shrunk: what failed, the smallest input that fails it, and how to run it again. */
export interface FuzzFinding {
  /** `property check`: what a baseline lists (stable across runs and shrinks). */
  readonly key: string;
  /** `Operation/binding/mode`. */
  readonly property: string;
  readonly operation: string;
  readonly binding: Protocol;
  readonly mode: FuzzMode;
  /** The checks the answer failed (conformance's), transport included. */
  readonly failures: readonly Failure[];
  /** With a reference: where the answers differ (after noise and ignores). */
  readonly differences: readonly Difference[];
  /** The shrunk input as JSON (the value tree; bigints and bytes as text), and its SOAP headers. */
  readonly value: unknown;
  readonly headers?: unknown;
  /** An invalid input's mutation, e.g. `out-of-range at Add/a (xs:int): "2147483648"`. */
  readonly mutation?: string;
  /** The request sent and the answer (redacted, bodies cut), with a curl command. */
  readonly trace: Trace | undefined;
  /** The seed and path that replay exactly this input (`--seed S --path P`). */
  readonly seed: number;
  readonly path: string;
  /** Inputs tried before the first failure, and shrinking steps taken from it. */
  readonly casesToFind: number;
  readonly shrinks: number;
  /** `known`: listed in the baseline (reported, not failing the run). */
  readonly baseline?: 'known';
}

export type PropertyStatus = 'passed' | 'failed' | 'not-run' | 'skipped';

export interface PropertyResult {
  readonly id: string;
  readonly operation: string;
  readonly binding: Protocol;
  readonly mode: FuzzMode;
  readonly status: PropertyStatus;
  /** Inputs generated and sent (shrinking steps not counted). */
  readonly cases: number;
  /** Valid inputs the server refused with a well-formed client fault or error answer (allowed). */
  readonly refused: number;
  readonly reason?: string;
}

export interface FuzzSummary {
  readonly properties: number;
  readonly cases: number;
  /** Requests sent to the target in all (shrinking included). */
  readonly requests: number;
  readonly refused: number;
  readonly findings: number;
  /** Findings not in the baseline: the ones that fail the run. */
  readonly gating: number;
  readonly baseline?: {
    readonly file: string;
    readonly known: number;
    readonly new: number;
    readonly fixed: readonly string[];
  };
  /** Differences at paths the reference varied on (noise), not reported as findings. */
  readonly noise: number;
  /** The target never answered: nothing was judged. */
  readonly unreachable?: string;
  readonly interrupted: boolean;
  readonly durationMs: number;
  readonly ok: boolean;
}

export interface FuzzReport {
  readonly meta: {
    readonly tool: string;
    readonly wsdl: { readonly source: string; readonly sha256: string };
    readonly target: string;
    readonly reference: string | undefined;
    /** The run's seed: the same seed, contract and servers generate the same inputs. */
    readonly seed: number;
    readonly runs: number | undefined;
    readonly budgetMs: number | undefined;
    readonly ignore: readonly string[];
    readonly startedAt: string;
    readonly finishedAt: string;
  };
  readonly summary: FuzzSummary;
  readonly properties: readonly PropertyResult[];
  readonly findings: readonly FuzzFinding[];
  /** The noise learned from the reference, by `operation binding`. */
  readonly noise: readonly { readonly scope: string; readonly paths: readonly string[] }[];
}
