/**
 * The proof by execution: for every fixture pair, peers built from each version exchange real
 * requests on every binding, in both directions (old client -> new server, new client -> old
 * server), and what happens must be what `smskit diff` says: an operation a change breaks for
 * that direction and binding fails in at least one sample profile, every other operation works
 * in all of them. A profile counts only where the same call works between peers of one version.
 */
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../../generator/index.js';
import { diffSides } from '../../../contract/diff/compare.js';
import { operationKey } from '../../../contract/diff/operations.js';
import { sideFromModel } from '../../../contract/diff/source.js';
import type { DiffReport, Protocol } from '../../../contract/diff/types.js';
import type { OperationDescriptor, ServiceDescriptor } from '../../../runtime/descriptor.js';
import { exchange, startVersion, type RunningVersion, type Version } from './exchange.js';
import { PROFILES, distinctOf } from './samples.js';

const ROOT = 'test/fixtures/diff';
const DIRS = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

type Direction = 'clients' | 'servers';

interface Row {
  readonly direction: Direction;
  readonly service: string;
  readonly protocol: Protocol;
  readonly operation: string;
  readonly expected: 'fails' | 'works';
  readonly observed: 'fails' | 'works';
  readonly detail: string;
}

const totals = { pairs: 0, rows: 0, fails: 0, works: 0, calls: 0 };

function expectedOutcome(
  report: DiffReport,
  direction: Direction,
  service: string,
  protocol: Protocol,
  operation: string,
): 'fails' | 'works' {
  const breaks = report.changes.some((c) =>
    c.effects.some(
      (e) =>
        e.service === service &&
        e.protocol === protocol &&
        e.operation === operation &&
        (direction === 'clients' ? e.breaksClients : e.breaksServers),
    ),
  );
  return breaks ? 'fails' : 'works';
}

/** Every profile whose baseline works, crossed to the other version's server. */
async function observe(
  client: Version,
  d: ServiceDescriptor,
  protocol: Protocol,
  op: OperationDescriptor,
  own: RunningVersion,
  other: RunningVersion,
): Promise<{ observed: 'fails' | 'works'; detail: string }> {
  const failures: string[] = [];
  let applicable = 0;
  for (const profile of PROFILES) {
    const baseline = await exchange(client, d, protocol, op, own, profile);
    totals.calls++;
    if (!baseline.works) continue;
    applicable++;
    const cross = await exchange(client, d, protocol, op, other, profile);
    totals.calls++;
    if (!cross.works) failures.push(`${profile}: ${cross.detail}`);
  }
  if (applicable === 0)
    throw new Error(`no sample profile works between peers of one version for ${d.name} ${op.name} on ${protocol}`);
  return failures.length > 0
    ? { observed: 'fails', detail: failures.join(' | ') }
    : { observed: 'works', detail: `${applicable} profile(s) work` };
}

/** `claim` stands in for the diff's verdicts: the self-test hands it deliberately wrong ones. */
async function runPair(dir: string, claim: (report: DiffReport) => DiffReport = (r) => r): Promise<Row[]> {
  const oldSide = sideFromModel(`${ROOT}/${dir}/old.wsdl`, parseWsdl(`${ROOT}/${dir}/old.wsdl`));
  const newSide = sideFromModel(`${ROOT}/${dir}/new.wsdl`, parseWsdl(`${ROOT}/${dir}/new.wsdl`));
  const report = claim(diffSides(oldSide, newSide));
  const oldVersion: Version = { services: oldSide.services, distinct: distinctOf(oldSide.services, newSide.services) };
  const newVersion: Version = { services: newSide.services, distinct: distinctOf(newSide.services, oldSide.services) };
  const [oldServer, newServer] = await Promise.all([startVersion(oldVersion), startVersion(newVersion)]);
  const rows: Row[] = [];
  try {
    const plans = [
      ['clients', oldVersion, oldServer, newServer],
      ['servers', newVersion, newServer, oldServer],
    ] as const;
    for (const [direction, client, own, other] of plans) {
      for (const d of client.services) {
        for (const binding of d.bindings) {
          for (const op of binding.operations) {
            const operation = operationKey(binding, op);
            const { observed, detail } = await observe(client, d, binding.protocol, op, own, other);
            rows.push({
              direction,
              service: d.name,
              protocol: binding.protocol,
              operation,
              expected: expectedOutcome(report, direction, d.name, binding.protocol, operation),
              observed,
              detail,
            });
          }
        }
      }
    }
  } finally {
    await Promise.all([oldServer.close(), newServer.close()]);
  }
  return rows;
}

const disagreements = (rows: readonly Row[]): string[] =>
  rows
    .filter((r) => r.expected !== r.observed)
    .map(
      (r) =>
        `${r.direction} ${r.service}.${r.operation} on ${r.protocol}: diff says ${r.expected}, the exchange ${r.observed} (${r.detail})`,
    );

/** Every effect of every change flipped: each breaking verdict claimed compatible and the reverse. */
function flipped(report: DiffReport): DiffReport {
  return {
    ...report,
    changes: report.changes.map((c) => ({
      ...c,
      effects: c.effects.map((e) => ({ ...e, breaksClients: !e.breaksClients, breaksServers: !e.breaksServers })),
    })),
  };
}

describe('the execution proof can fail', () => {
  it('catches a breaking change claimed compatible, and a compatible one claimed breaking', async () => {
    const breaking = disagreements(await runPair('member-added', flipped));
    expect(breaking).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^clients Shop\.Echo on soap11: diff says works, the exchange fails .*required element is missing/,
        ),
      ]),
    );
    const compatible = disagreements(await runPair('members-reordered', flipped));
    expect(compatible).toContain(
      'clients Shop.Echo on soap11: diff says fails, the exchange works (5 profile(s) work)',
    );
  });
});

describe('every verdict of smskit diff holds on the wire (old <-> new peers, every binding)', () => {
  it.each(DIRS)(
    '%s',
    async (dir) => {
      const rows = await runPair(dir);
      totals.pairs++;
      totals.rows += rows.length;
      totals.fails += rows.filter((r) => r.observed === 'fails').length;
      totals.works += rows.filter((r) => r.observed === 'works').length;
      expect(disagreements(rows)).toEqual([]);
      expect(rows.length).toBeGreaterThan(0);
      // The largest pair (a few hundred calls between two peers) took over the default 30 s on a loaded machine.
    },
    120_000,
  );

  afterAll(() => {
    process.stdout.write(
      `diff execution proof: ${totals.pairs} pairs, ${totals.rows} (direction, binding, operation) rows: ${totals.fails} fail and ${totals.works} work as predicted, ${totals.calls} calls\n`,
    );
  });
});
