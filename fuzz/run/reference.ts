/**
 * `--reference`: the same valid input to a second server, outcomes compared as replay compares
 * them (migrate/): both answers as outlines (migrate/outline.ts), leaf texts read by their
 * declared types, the user's `--ignore` globs left out. The reference is asked twice first; the
 * paths where its two answers differ (ids, timestamps) are noise for that operation and binding
 * for the rest of the run, as replay learns it. Verdicts: both succeed with equal outlines, or
 * both refuse (a fault or an error answer, whatever its wording); anything else is a difference.
 */
import { answerKind } from '../../conformance/validate/checks/support.js';
import type { Case, Exchange } from '../../conformance/types.js';
import { compareOutlines, type Difference, groupPath } from '../../migrate/compare.js';
import { pathIgnorer } from '../../migrate/ignore.js';
import { type Answer, outlineEntries, type TextNormaliser } from '../../migrate/outline.js';

export interface ReferenceVerdict {
  /** Differences left after noise and ignores; empty when the outcomes agree. */
  readonly differences: readonly Difference[];
  /** Differences at paths learned as noise (reported as a count, never as a finding). */
  readonly noise: number;
}

/** The noise paths learned so far, by `operation binding`. */
export class NoiseLearned {
  readonly #paths = new Map<string, Set<string>>();

  note(scope: string, paths: Iterable<string>): void {
    const known = this.#paths.get(scope) ?? new Set<string>();
    for (const p of paths) known.add(p);
    this.#paths.set(scope, known);
  }

  has(scope: string, path: string): boolean {
    return this.#paths.get(scope)?.has(groupPath(path)) === true;
  }

  /** Every path learned, by scope, for the report. */
  entries(): { readonly scope: string; readonly paths: readonly string[] }[] {
    return [...this.#paths]
      .filter(([, paths]) => paths.size > 0)
      .map(([scope, paths]) => ({ scope, paths: [...paths].sort() }));
  }
}

export function answerOf(exchange: Exchange): Answer {
  return {
    status: exchange.response.status,
    headers: exchange.response.headers,
    body: Buffer.from(exchange.response.body),
  };
}

/** Whether an answer refuses the request (a fault, or a GET/POST error answer), as conformance judges it. */
function refuses(exchange: Exchange, testCase: Case): boolean {
  return answerKind(exchange, testCase) === 'refusal' || exchange.response.status >= 400;
}

export interface ReferenceJudge {
  readonly normalise: TextNormaliser;
  readonly ignore: readonly string[];
  readonly noise: NoiseLearned;
}

/** The verdict on one input: the target's exchange against the reference's two. */
export function judgeAgainstReference(
  judge: ReferenceJudge,
  testCase: Case,
  target: Exchange,
  first: Exchange,
  second: Exchange,
): ReferenceVerdict {
  const scope = `${testCase.operation} ${testCase.binding}`;
  const entries = (e: Exchange) => outlineEntries(answerOf(e), judge.normalise);
  judge.noise.note(
    scope,
    compareOutlines(entries(first), entries(second)).map((d) => groupPath(d.path)),
  );
  const targetRefuses = refuses(target, testCase);
  const referenceRefuses = refuses(first, testCase);
  if (targetRefuses && referenceRefuses) return { differences: [], noise: 0 };
  if (targetRefuses !== referenceRefuses)
    return {
      differences: [
        {
          kind: 'changed',
          path: 'outcome',
          want: referenceRefuses
            ? `refused (HTTP ${first.response.status})`
            : `succeeded (HTTP ${first.response.status})`,
          got: targetRefuses
            ? `refused (HTTP ${target.response.status})`
            : `succeeded (HTTP ${target.response.status})`,
        },
      ],
      noise: 0,
    };
  const all = compareOutlines(entries(first), entries(target), pathIgnorer(judge.ignore));
  const differences = all.filter((d) => !judge.noise.has(scope, d.path));
  return { differences, noise: all.length - differences.length };
}
