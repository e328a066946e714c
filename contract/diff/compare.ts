/**
 * `diffSides(old, new)`: every difference between two versions of a contract, once, with its
 * verdict. Services are matched by name; each matched pair is compared binding by binding
 * (operations.ts), message by message (values.ts); documentation-only differences and files
 * that differ only in formatting are reported as such.
 */
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import type { WsdlModel } from '../model/index.js';
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
  compareServices(c, old, now);
  if (old.model !== undefined && now.model !== undefined) compareDefinitions(c, old.model, now.model);
  const changes = c
    .results()
    .map(({ finding: f, reaches }) => judgeFinding(f, reaches))
    .filter((ch) => !(options.ignoreDocs === true && ch.verdict === 'documentation'));
  return { old: old.label, new: now.label, changes: sortChanges(changes), summary: summarize(changes) };
}

/** Services matched by name: each pair compared (with its documentation), the rest removed or added. */
function compareServices(c: Collector, old: Side, now: Side): void {
  const oldLocate = new Locator(old.model);
  const newLocate = new Locator(now.model);
  const compareDocs = old.model !== undefined && now.model !== undefined;
  for (const od of old.services) {
    const nd = now.services.find((s) => s.name === od.name);
    if (nd === undefined) {
      const at = where(oldLocate.service(od.name), undefined);
      c.at(finding('service-removed', od.name, od.name, `service ${od.name} removed`, {}, at), serviceUsages(od));
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
    if (compareDocs) compareServiceDocs(p);
  }
  for (const nd of now.services.filter((s) => !old.services.some((o) => o.name === s.name))) {
    const at = where(undefined, newLocate.service(nd.name));
    c.at(finding('service-added', nd.name, nd.name, `service ${nd.name} added`, {}, at), serviceUsages(nd));
  }
}

function compareServiceDocs(p: PairContext): void {
  const oldDecl = p.old.locate.service(p.old.d.name);
  const newDecl = p.new.locate.service(p.new.d.name);
  if (!docsDiffer(oldDecl.documentation, newDecl.documentation)) return;
  p.c.alone(
    finding(
      'documentation-changed',
      `service|${p.service}`,
      p.service,
      'service documentation changed',
      {},
      where(oldDecl, newDecl),
    ),
  );
}

/**
 * What only the WSDL files themselves show: facets, the definitions' documentation, and files
 * that differ while nothing else does (formatting only).
 */
function compareDefinitions(c: Collector, old: WsdlModel, now: WsdlModel): void {
  compareFacets(c, old, now);
  if (docsDiffer(old.documentation, now.documentation)) {
    c.alone(
      finding(
        'documentation-changed',
        'definitions',
        'definitions',
        'WSDL documentation changed',
        {},
        { old: { file: old.file, line: 1 }, new: { file: now.file, line: 1 } },
      ),
    );
  }
  if (c.isEmpty() && old.hash !== now.hash) {
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
