/**
 * The case-kind tables are data, so they are checked as data, once, when the catalogue loads:
 * every row has a well-formed `<group>/<name>` id, unique per binding across all tables; known
 * bindings and a known level; an alteration its builder knows on each of its bindings; checks
 * that exist; and no fault expected on a binding without SOAP.
 */
import { ConformanceError } from '../errors.js';
import { CASE_BINDINGS, type CaseBinding, LEVELS } from '../types.js';
import type { CaseKind } from './case-kinds.js';

const GROUPS = ['ok', 'fault', 'error', 'invalid', 'compat'];
const KIND_ID = /^([a-z]+)\/[a-z0-9{}-]+$/;

/** One table and the alterations its builder knows, per binding. */
export interface KindTable {
  readonly name: string;
  readonly kinds: readonly CaseKind[];
  readonly knows: (binding: CaseBinding, sends: string) => boolean;
}

function rowProblems(table: KindTable, kind: CaseKind, checks: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const group = KIND_ID.exec(kind.id)?.[1];
  if (group === undefined || !GROUPS.includes(group))
    problems.push(`the id is not <group>/<name> with a group of ${GROUPS.join(', ')}`);
  if (kind.bindings.length === 0) problems.push('it names no binding');
  for (const binding of kind.bindings) {
    if (!CASE_BINDINGS.includes(binding) || binding === 'wsdl') problems.push(`unknown binding "${binding}"`);
    else if (!table.knows(binding, kind.sends)) problems.push(`"${kind.sends}" is no alteration known on ${binding}`);
    if (kind.expects.kind === 'fault' && binding !== 'soap11' && binding !== 'soap12')
      problems.push(`a fault is expected on ${binding}, a binding without SOAP`);
  }
  if (!LEVELS.includes(kind.level)) problems.push(`unknown level "${kind.level}"`);
  if (kind.checks.length === 0) problems.push('it names no check that judges it');
  for (const check of kind.checks) if (!checks.has(check)) problems.push(`unknown check "${check}"`);
  return problems;
}

/** Every problem of every row, `table id: problem`; empty when the tables are sound. */
export function caseKindProblems(tables: readonly KindTable[], checks: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const table of tables) {
    for (const kind of table.kinds) {
      const where = `${table.name} ${kind.id}`;
      for (const problem of rowProblems(table, kind, checks)) problems.push(`${where}: ${problem}`);
      for (const binding of kind.bindings) {
        if (seen.has(`${binding} ${kind.id}`)) problems.push(`${where}: the id is used twice on ${binding}`);
        seen.add(`${binding} ${kind.id}`);
      }
    }
  }
  return problems;
}

/** Refuses unsound tables with every problem named (a defect of the catalogue, found at load). */
export function assertCaseKinds(tables: readonly KindTable[], checks: ReadonlySet<string>): void {
  const problems = caseKindProblems(tables, checks);
  if (problems.length > 0) throw new ConformanceError('CONFORMANCE_CATALOGUE', `case kinds: ${problems.join('; ')}`);
}
