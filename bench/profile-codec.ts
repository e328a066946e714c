/**
 * The codec alone on the rich section's payload, in one process, without HTTP: what the
 * generated client spends per EchoOrder / EchoShapes call building the request and reading the
 * answer, for before/after comparisons of codec changes.
 *
 *   npx tsx bench/profile-codec.ts [--seconds 1] [--rounds 7] [--op EchoOrder|EchoShapes]
 *     [--measures encode,read,decode,response]
 * (with --cpu-prof, --measures decode profiles the decoder alone).
 *
 * Figures (µs per operation, median over rounds; rounds interleave the measures, so a drift in
 * the machine's load touches them alike), plus the share of each measure's time V8 spent in GC:
 *   encode   buildSoapRequest: the request envelope from the input object, as the bytes sent;
 *   read     the response bytes -> the XML tree (the fast reader);
 *   decode   the tree -> the output value (the codec's part of the response);
 *   response parseSoapResponse: read + decode + the envelope checks, what the client pays.
 * Not part of `npm run bench`: its numbers are absolute and machine-bound, only useful against
 * another run of this script on the same machine.
 */
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { buildSoapRequest, parseSoapResponse, soap11, type OperationDescriptor } from '../runtime/index.js';
import { decodeBody } from '../runtime/message.js';
import { encodeSoapResponse } from '../runtime/soap/response.js';
import { readXmlFast } from '../runtime/xml/fast-reader.js';
import type { XmlElement } from '../runtime/xml/types.js';
import { RichServiceDescriptor as d } from '../test/golden/generated/asmx-rich/rich-service/index.js';
import { RICH_OPS, RICH_PATH, richInput, type RichOp } from './lib/rich-payloads.js';
import { firstDifference } from './lib/rich-wire.js';
import { median } from './lib/stats.js';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : (process.argv[i + 1] ?? fallback);
}
const seconds = Number(option('seconds', '1'));
const rounds = Number(option('rounds', '7'));
const ops = option('op', RICH_OPS.join(',')).split(',') as RichOp[];
const only = option('measures', 'encode,read,decode,response').split(',');

function operation(op: RichOp): OperationDescriptor {
  const found = d.bindings.find((b) => b.protocol === 'soap11')?.operations.find((o) => o.method === op);
  if (found === undefined) throw new Error(`rich.wsdl has no soap11 operation ${op}`);
  return found;
}

/** The Body child of an envelope tree. */
function bodyChild(root: XmlElement): XmlElement {
  for (const c of root.children) {
    if (c.type === 'element' && c.local === 'Body') for (const b of c.children) if (b.type === 'element') return b;
  }
  throw new Error('no Body child');
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** Runs `fn` for about `seconds`; µs per call and the share of that time spent in GC. */
function measure(fn: () => unknown): { us: number; gc: number } {
  let n = 0;
  const gcBefore = gcMs;
  const start = performance.now();
  const until = start + seconds * 1000;
  let sink: unknown;
  while (performance.now() < until) {
    for (let i = 0; i < 20; i++) sink = fn();
    n += 20;
  }
  const elapsed = performance.now() - start;
  if (sink === undefined) throw new Error('nothing produced');
  // GC entries are delivered asynchronously; the caller awaits a tick before reading gcMs.
  return { us: (elapsed * 1000) / n, gc: gcBefore };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

for (const op of ops) {
  const descriptor = operation(op);
  const { input, output } = richInput(op);
  const response = Buffer.from(encodeSoapResponse(d, soap11, descriptor, output).text);
  const request = buildSoapRequest(d, soap11, RICH_PATH, descriptor, input, undefined, {}).body!;
  const tree = bodyChild(readXmlFast(response).root);
  const mismatch = firstDifference(
    output,
    parseSoapResponse(d, soap11, descriptor, 200, 'text/xml; charset=utf-8', response),
    op,
  );
  if (mismatch !== undefined) throw new Error(`the response does not decode to the output: ${mismatch}`);

  const all: Record<string, () => unknown> = {
    // The bytes, as the transport sends them: the envelope string is built of pieces that V8
    // joins only when it is used, and that joining is part of the cost.
    encode: () => Buffer.from(buildSoapRequest(d, soap11, RICH_PATH, descriptor, input, undefined, {}).body!),
    read: () => readXmlFast(response),
    decode: () => decodeBody(d, descriptor.output, tree),
    response: () => parseSoapResponse(d, soap11, descriptor, 200, 'text/xml; charset=utf-8', response),
  };
  const measures = Object.fromEntries(Object.entries(all).filter(([name]) => only.includes(name)));
  const us = new Map<string, number[]>();
  const gc = new Map<string, number[]>();
  for (let round = 0; round <= rounds; round++) {
    for (const [name, fn] of Object.entries(measures)) {
      const start = performance.now();
      const result = measure(fn);
      const wall = performance.now() - start;
      await tick();
      if (round === 0) continue; // warm-up
      (us.get(name) ?? us.set(name, []).get(name)!).push(result.us);
      (gc.get(name) ?? gc.set(name, []).get(name)!).push((gcMs - result.gc) / wall);
    }
  }
  process.stdout.write(
    `${op}: request ${Buffer.byteLength(request)} B, response ${response.length} B; ${rounds} rounds of ${seconds} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  for (const name of Object.keys(measures)) {
    const all = us.get(name)!;
    process.stdout.write(
      `  ${name.padEnd(9)} ${median(all).toFixed(1).padStart(8)} µs/op  (min ${Math.min(...all).toFixed(1)}, max ${Math.max(...all).toFixed(1)})  GC ${(median(gc.get(name)!) * 100).toFixed(1)}%\n`,
    );
  }
}
