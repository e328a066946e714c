/**
 * What every diff report format shares: locations, binding lists, the groups by severity, the
 * summary line. Counts and lists are written with the report kit (report/text.ts); the groups
 * and the verbs (`1 breaks`, `2 break`) are the diff's own.
 */
import { counted, listText } from '../../../report/text.js';
import { gatingChanges } from '../compare.js';
import type { Change, DiffReport, FailOn, Location, Protocol } from '../types.js';

function at(location: Location | undefined): string {
  return location === undefined ? '—' : `${location.file}:${location.line}`;
}

/** `old.wsdl:3 -> new.wsdl:4`, a dash for a side the change is not on; empty when on neither. */
export function whereText(change: Change, arrow = '->'): string {
  if (change.old === undefined && change.new === undefined) return '';
  return `${at(change.old)} ${arrow} ${at(change.new)}`;
}

/** The bindings a change breaks, a dash for none. */
export function bindings(list: readonly Protocol[]): string {
  return listText(list);
}

export type Group = 'both' | 'clients' | 'servers' | 'compatible' | 'documentation';

export const GROUP_TITLES: Readonly<Record<Group, string>> = {
  both: 'Breaks existing clients and existing servers',
  clients: 'Breaks existing clients',
  servers: 'Breaks existing servers',
  compatible: 'Compatible',
  documentation: 'Documentation and formatting only',
};

export const GROUPS: readonly Group[] = ['both', 'clients', 'servers', 'compatible', 'documentation'];

export function groupOf(change: Change): Group {
  if (change.verdict === 'documentation') return 'documentation';
  if (change.verdict === 'compatible') return 'compatible';
  if (change.breaksClients.length > 0 && change.breaksServers.length > 0) return 'both';
  return change.breaksClients.length > 0 ? 'clients' : 'servers';
}

/** `3 breaking (2 break existing clients, 2 break existing servers), 1 compatible, 1 documentation` */
export function summaryText(report: DiffReport): string {
  const s = report.summary;
  if (report.changes.length === 0) return 'no changes';
  const verb = (n: number): string => `${n} ${n === 1 ? 'breaks' : 'break'}`;
  const parts = [
    `${s.breaking} breaking${s.breaking === 0 ? '' : ` (${verb(s.breaksClients)} existing clients, ${verb(s.breaksServers)} existing servers)`}`,
    `${s.compatible} compatible`,
    `${s.documentation} documentation`,
  ];
  return parts.join(', ');
}

export function gateText(report: DiffReport, failOn: FailOn): string {
  const gating = gatingChanges(report, failOn).length;
  return gating === 0 ? `--fail-on ${failOn}: passes` : `--fail-on ${failOn}: fails (${counted(gating, 'change')})`;
}

/** The lines of `why` worth showing by default: the failures for a breaking change, else all. */
export function shownWhy(change: Change): readonly string[] {
  if (change.verdict !== 'breaking') return change.why;
  return change.why.filter((line) => line.includes(': fails on '));
}
