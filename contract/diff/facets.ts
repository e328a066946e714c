/**
 * Restriction facets other than enumerations (pattern, lengths, ranges, digits) of named
 * simple types. Neither the smskit runtime nor .NET's XmlSerializer checks them, so a change
 * is reported as compatible, with where it is; the descriptor does not carry them, hence the
 * model.
 */
import type { Collector } from './collector.js';
import { finding } from './context.js';
import type { SimpleType, WsdlModel } from '../model/index.js';

export function compareFacets(c: Collector, old: WsdlModel, now: WsdlModel): void {
  for (const [key, ot] of Object.entries(old.schema.types)) {
    const nt = now.schema.types[key];
    if (ot.kind !== 'simple' || nt?.kind !== 'simple') continue;
    const changed = facetNames(ot, nt);
    if (changed.length === 0) continue;
    const name = nt.name?.local ?? key;
    c.alone(
      finding(
        'facet-changed',
        key,
        name,
        `facets changed: ${changed.join(', ')} (not checked by smskit or by ASMX)`,
        {},
        { old: ot.source, new: nt.source },
      ),
    );
  }
}

function facetNames(a: SimpleType, b: SimpleType): string[] {
  const keys = new Set([...Object.keys(a.facets), ...Object.keys(b.facets)]) as Set<keyof SimpleType['facets']>;
  return [...keys].filter((k) => JSON.stringify(a.facets[k]) !== JSON.stringify(b.facets[k])).sort();
}
