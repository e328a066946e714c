/**
 * The report in one line, for `smskit generate --check`: whether the WSDL change breaks
 * deployed peers, on which bindings, and the first change that does.
 */
import { counted } from '../../../report/text.js';
import { PROTOCOLS, type Change, type DiffReport, type Protocol } from '../types.js';

/** The bindings any of `changes` names, in the protocols' order; empty for none. */
function union(changes: readonly Change[], pick: (c: Change) => readonly Protocol[]): string {
  const all = new Set(changes.flatMap(pick));
  return PROTOCOLS.filter((p) => all.has(p)).join(', ');
}

export function oneLineSummary(report: DiffReport): string {
  const wire = report.changes.filter((c) => c.verdict !== 'documentation');
  if (wire.length === 0) return 'no change on the wire (documentation, formatting or generator output only)';
  const breaking = wire.filter((c) => c.verdict === 'breaking');
  const compatible = wire.length - breaking.length;
  if (breaking.length === 0)
    return `compatible: ${counted(compatible, 'change')}, none breaks deployed clients or servers (first: ${wire[0]!.subject}: ${wire[0]!.what})`;
  const clients = union(breaking, (c) => c.breaksClients);
  const servers = union(breaking, (c) => c.breaksServers);
  const whom = [
    clients === '' ? '' : `existing clients on ${clients}`,
    servers === '' ? '' : `existing servers on ${servers}`,
  ]
    .filter((s) => s !== '')
    .join(' and ');
  const first = breaking[0]!;
  const verb = breaking.length === 1 ? 'breaks' : 'break';
  return `BREAKING: ${counted(breaking.length, 'change')} ${verb} ${whom}${compatible > 0 ? ` (+${compatible} compatible)` : ''}; first: ${first.subject}: ${first.what}`;
}
