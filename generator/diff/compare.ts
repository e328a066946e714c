/**
 * `diffSides(old, new)`: every difference between two versions of a contract, once, with its
 * verdict. Services are matched by name; each matched pair is compared binding by binding
 * (operations.ts), message by message (values.ts); documentation-only differences and files
 * that differ only in formatting are reported as such.
 */
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { Collector } from './collector.js';
import { docsDiffer, finding, where, type PairContext } from './context.js';
import { judgeFinding } from './judge.js';
import { Locator } from './locate.js';
import { compareService, operationKey } from './operations.js';
import { compareFacets } from './facets.js';
import type { Change, DiffReport, FailOn, Side, Usage } from './types.js';

export interface DiffOptions {
  /** Leave documentation-only changes out of the report. */
  readonly ignoreDocs?: boolean;
}

export function diffSides(old: Side, now: Side, options: DiffOptions = {}): DiffReport {
  const c = new Collector();
  const oldLocate = new Locator(old.model);
  const newLocate = new Locator(now.model);
  const compareDocs = old.model !== undefined && now.model !== undefined;
  for (const od of old.services) {
    const nd = now.services.find((s) => s.name === od.name);
    if (nd === undefined) {
      c.at(
        finding(
          'service-removed',
          od.name,
          od.name,
          `service ${od.name} removed`,
          {},
          where(oldLocate.service(od.name), undefined),
        ),
        serviceUsages(od),
      );
      continue;
    }
    const p: PairContext = {
      c,
      old: { d: od, locate: oldLocate },
      new: { d: nd, locate: newLocate },
      service: od.name,
      compareDocs,
    };
    compareService(p);
    if (compareDocs && docsDiffer(oldLocate.service(od.name).documentation, newLocate.service(nd.name).documentation)) {
      c.alone(
        finding(
          'documentation-changed',
          `service|${od.name}`,
          od.name,
          'service documentation changed',
          {},
          where(oldLocate.service(od.name), newLocate.service(nd.name)),
        ),
      );
    }
  }
  for (const nd of now.services.filter((s) => !old.services.some((o) => o.name === s.name))) {
    c.at(
      finding(
        'service-added',
        nd.name,
        nd.name,
        `service ${nd.name} added`,
        {},
        where(undefined, newLocate.service(nd.name)),
      ),
      serviceUsages(nd),
    );
  }
  if (old.model !== undefined && now.model !== undefined) {
    compareFacets(c, old.model, now.model);
    if (docsDiffer(old.model.documentation, now.model.documentation)) {
      c.alone(
        finding(
          'documentation-changed',
          'definitions',
          'definitions',
          'WSDL documentation changed',
          {},
          { old: { file: old.model.file, line: 1 }, new: { file: now.model.file, line: 1 } },
        ),
      );
    }
    if (c.isEmpty() && old.model.hash !== now.model.hash) {
      c.alone(
        finding(
          'formatting-only',
          'files',
          'files',
          'the files differ, but not in anything on the wire or in documentation (formatting, comments, prefixes, names that are not on the wire)',
          {},
          {},
        ),
      );
    }
  }
  const changes = c
    .results()
    .map(({ finding: f, reaches }) => judgeFinding(f, reaches))
    .filter((ch) => !(options.ignoreDocs === true && ch.verdict === 'documentation'));
  return { old: old.label, new: now.label, changes: sortChanges(changes), summary: summarize(changes) };
}

function serviceUsages(d: ServiceDescriptor): Usage[] {
  return d.bindings.flatMap((b) =>
    b.operations.map((op) => ({
      service: d.name,
      protocol: b.protocol,
      operation: operationKey(b, op),
      role: 'call' as const,
    })),
  );
}

const RANK = { breaking: 0, compatible: 1, documentation: 2 } as const;

function sortChanges(changes: readonly Change[]): Change[] {
  const weight = (c: Change): number =>
    RANK[c.verdict] * 4 + (c.breaksClients.length > 0 ? 0 : 1) + (c.breaksServers.length > 0 ? 0 : 2);
  return changes
    .map((c, i) => ({ c, i }))
    .sort((a, b) => weight(a.c) - weight(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

function summarize(changes: readonly Change[]): DiffReport['summary'] {
  return {
    breaksClients: changes.filter((c) => c.breaksClients.length > 0).length,
    breaksServers: changes.filter((c) => c.breaksServers.length > 0).length,
    breaking: changes.filter((c) => c.verdict === 'breaking').length,
    compatible: changes.filter((c) => c.verdict === 'compatible').length,
    documentation: changes.filter((c) => c.verdict === 'documentation').length,
  };
}

/** The changes at or above `failOn`: what makes `smskit diff` exit 1. */
export function gatingChanges(report: DiffReport, failOn: FailOn): Change[] {
  return report.changes.filter((c) => {
    if (failOn === 'any') return true;
    if (failOn === 'client') return c.breaksClients.length > 0;
    if (failOn === 'server') return c.breaksServers.length > 0;
    return c.verdict === 'breaking';
  });
}
