/**
 * Case selection: `--binding`, `--operation`, `--run`/`--skip` globs on ids and `--level`.
 * Globs: `*` matches within one id segment, `**` across segments, `?` one character; a
 * pattern also selects everything under it (`Send/soap11` = `Send/soap11/**`).
 * A case left out is reported as skipped with the reason, never dropped silently.
 */
import { escapeRegExp } from '../../runtime/escape/regexp.js';
import { ConformanceError } from '../errors.js';
import { atOrAbove, type Case, type CaseBinding, type Level } from '../types.js';

export interface Selection {
  readonly bindings?: readonly CaseBinding[];
  readonly operations?: readonly string[];
  readonly run?: readonly string[];
  readonly skip?: readonly string[];
  readonly level: Level;
}

export function globToRegExp(glob: string): RegExp {
  if (glob.trim() === '')
    throw new ConformanceError('CONFORMANCE_OPTIONS', 'an empty --run/--skip pattern selects nothing');
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}(/.*)?$`);
}

/** Why a case is not run, or undefined when it is selected. */
function skipReason(
  testCase: Case,
  selection: Selection,
  run: readonly RegExp[],
  skip: readonly RegExp[],
): string | undefined {
  // The service-wide wsdl case belongs to no operation; --operation does not deselect it.
  if (selection.bindings !== undefined && !selection.bindings.includes(testCase.binding))
    return `binding ${testCase.binding} not selected`;
  if (
    selection.operations !== undefined &&
    testCase.binding !== 'wsdl' &&
    !selection.operations.includes(testCase.operation)
  )
    return `operation ${testCase.operation} not selected`;
  if (run.length > 0 && !run.some((r) => r.test(testCase.id))) return 'not matched by --run';
  const skipped = skip.find((r) => r.test(testCase.id));
  if (skipped !== undefined) return `matched by --skip ${skipped.source}`;
  if (!atOrAbove(testCase.level, selection.level))
    return `case level ${testCase.level} is below --level ${selection.level}`;
  if (testCase.unusable !== undefined) return `cannot be exercised: ${testCase.unusable}`;
  return undefined;
}

/** Splits the catalogue into cases to run and cases skipped (with reasons). */
export function selectCases(
  cases: readonly Case[],
  selection: Selection,
): { run: Case[]; skipped: { testCase: Case; reason: string }[] } {
  const runRes = (selection.run ?? []).map(globToRegExp);
  const skipRes = (selection.skip ?? []).map(globToRegExp);
  const known = new Set(cases.filter((c) => c.binding !== 'wsdl').map((c) => c.operation));
  for (const op of selection.operations ?? []) {
    if (!known.has(op))
      throw new ConformanceError(
        'CONFORMANCE_OPTIONS',
        `--operation ${op}: no such operation (operations: ${[...known].join(', ')})`,
      );
  }
  // A --run pattern that matches no case id is a typo, never a selection: a CI gate would pass on nothing.
  for (const [i, re] of runRes.entries()) {
    if (!cases.some((c) => re.test(c.id))) {
      const example = cases.find((c) => c.binding !== 'wsdl')?.id ?? cases[0]?.id ?? '';
      throw new ConformanceError(
        'NOTHING_SELECTED',
        `--run ${selection.run![i]} matches no case (case ids look like ${example}; --list shows them all)`,
      );
    }
  }
  const out = { run: [] as Case[], skipped: [] as { testCase: Case; reason: string }[] };
  for (const c of cases) {
    const reason = skipReason(c, selection, runRes, skipRes);
    if (reason === undefined) out.run.push(c);
    else out.skipped.push({ testCase: c, reason });
  }
  return out;
}
