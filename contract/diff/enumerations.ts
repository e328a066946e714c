/**
 * Two enumerations of the same primitive type: values added or removed. An enumeration facet
 * that appears restricts every other value (reported as values removed); one that disappears
 * admits every other value (values added).
 */
import { finding, type PairContext, type Where } from './context.js';

/** Where an enumeration sits: its graph node and member, its finding key, subject and location. */
export interface EnumerationSite {
  readonly node: string;
  readonly member: string;
  readonly key: string;
  readonly subject: string;
  readonly at: Where;
}

type EnumerationRule = 'enum-values-added' | 'enum-values-removed';

export function compareEnumerations(
  p: PairContext,
  site: EnumerationSite,
  o: readonly string[] | undefined,
  n: readonly string[] | undefined,
): void {
  const report = (rule: EnumerationRule, what: string, values: readonly string[]): void =>
    p.c.inMember(site.node, site.member, finding(rule, site.key, site.subject, what, { values }, site.at));
  const restricted = (e: readonly string[] | undefined): e is readonly string[] => e !== undefined && e.length > 0;
  if (!restricted(o) && restricted(n)) {
    report('enum-values-removed', `enumeration facet added (${n.join(', ')})`, [`values other than ${n.join(', ')}`]);
    return;
  }
  if (restricted(o) && !restricted(n)) {
    report('enum-values-added', 'enumeration facet removed', [`values other than ${o.join(', ')}`]);
    return;
  }
  const added = n!.filter((v) => !o!.includes(v));
  const removed = o!.filter((v) => !n!.includes(v));
  if (added.length > 0) report('enum-values-added', `enumeration values added: ${added.join(', ')}`, added);
  if (removed.length > 0) report('enum-values-removed', `enumeration values removed: ${removed.join(', ')}`, removed);
}
