/**
 * Section `fuzz`: how fast the fuzzer makes valid requests for the rich contract
 * (test/fixtures/asmx/rich.wsdl), generation and encoding together, on one core (in this
 * process), so the target and not the fuzzer sets the pace of a run. Every usable operation on
 * every binding in turn, values drawn from fast-check's arbitraries and encoded by the runtime
 * through conformance's request builder, as a run sends them. The peer in the same run is
 * conformance's case building for the same contract (its catalogue: samples, requests and
 * negative cases), the other way smskit turns the contract into requests. The live heap (after a
 * full collection) must not grow over the second half of a round: a long run keeps no request
 * once it is sent.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { buildCatalogue } from '../../conformance/catalogue/build.js';
import { operationContracts } from '../../conformance/catalogue/operation-contract.js';
import { schemaFacts } from '../../conformance/catalogue/schema-facts.js';
import { readContract } from '../../contract/read/index.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { ValueArbitraries } from '../../fuzz/generate/values.js';
import { caseBuilder, fuzzProperties } from '../../fuzz/properties.js';
import { limitRow, ratioRow, type Row, type Settings } from '../lib/report.js';
import { median } from '../lib/stats.js';

const BATCH = 500;

/** A full collection on demand (the heap is read after one, so the figure is what is kept, not garbage). */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

interface Measured {
  readonly perSecond: number;
  readonly heapGrowthMb: number;
}

async function fuzzRequests(seconds: number): Promise<Measured> {
  const model = (await readContract('test/fixtures/asmx/rich.wsdl')).model;
  const d = toDescriptor(model);
  const facts = schemaFacts(model);
  const properties = fuzzProperties(operationContracts(d), new ValueArbitraries(d, facts), ['valid']);
  const caseOf = caseBuilder(d, facts, '/rich.asmx');
  let made = 0;
  let bytes = 0;
  let batch = 0;
  const heap: number[] = [];
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    const property = properties[batch % properties.length]!;
    for (const input of fc.sample(property.arbitrary, { numRuns: BATCH, seed: batch })) {
      const body = caseOf(property, input)?.testCase.request.body;
      bytes += typeof body === 'string' ? body.length : (body?.length ?? 0);
      made++;
    }
    batch++;
    if (heap.length === 0 && performance.now() - started >= (seconds * 1000) / 2) {
      collect();
      heap.push(process.memoryUsage().heapUsed);
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  if (bytes === 0) throw new Error('no request body was made');
  collect();
  // What the second half of the round left live (the caches of arbitraries are made in the first).
  const growth = heap.length === 0 ? 0 : (process.memoryUsage().heapUsed - heap[0]!) / 2 ** 20;
  return { perSecond: made / elapsed, heapGrowthMb: growth };
}

async function catalogueCases(seconds: number): Promise<number> {
  const model = (await readContract('test/fixtures/asmx/rich.wsdl')).model;
  const d = toDescriptor(model);
  const facts = schemaFacts(model);
  let made = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    made += buildCatalogue({ descriptor: d, inputs: { values: {} }, basePath: '/rich.asmx', facts }).length;
  }
  return made / ((performance.now() - started) / 1000);
}

export async function runFuzzSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const seconds = Math.max(2, settings.seconds * 2);
  await fuzzRequests(settings.warmupSeconds);
  await catalogueCases(settings.warmupSeconds);
  const fuzz: Measured[] = [];
  const catalogue: number[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    fuzz.push(await fuzzRequests(seconds));
    catalogue.push(await catalogueCases(seconds));
    log(
      `  round ${round + 1}: fuzz ${Math.round(fuzz.at(-1)!.perSecond)} valid requests/s, conformance ${Math.round(catalogue.at(-1)!)} cases/s`,
    );
  }
  const perSecond = median(fuzz.map((m) => m.perSecond));
  const peer = median(catalogue);
  const growth = Math.max(...fuzz.map((m) => m.heapGrowthMb));
  const rows: Row[] = [
    limitRow(
      {
        section: 'fuzz',
        name: 'valid requests generated and encoded, rich contract, one core',
        figure: perSecond,
        unit: 'req/s',
      },
      { min: 2000 },
    ),
    ratioRow(
      {
        section: 'fuzz',
        name: 'fuzz requests vs conformance cases built per second',
        figure: perSecond,
        unit: 'req/s',
        peer: 'conformance catalogue',
        peerFigure: peer,
      },
      { min: 0.5 },
    ),
    limitRow(
      { section: 'fuzz', name: 'live heap growth over the second half of a round', figure: growth, unit: 'MB' },
      { below: 16 },
    ),
  ];
  return { rows, figures: { fuzzRequestsPerSecond: fuzz, conformanceCasesPerSecond: catalogue } };
}
