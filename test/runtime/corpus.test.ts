/**
 * The runtime over real-world WSDLs with complex types (arrays, nested types, nillable and
 * optional fields, several schemas): descriptors from the generator's parser and
 * toDescriptor, sample values for every operation, and a round trip through our client and
 * server over every binding each WSDL declares. Needs ../shared/wsdl-corpus; skipped, with one
 * line saying so, without it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl, toDescriptor } from '../../generator/index.js';
import {
  createRequestListener,
  listen,
  ServiceClient,
  type Listening,
  type OperationHandler,
} from '../../runtime/index.js';
import type { OperationDescriptor, Protocol, ServiceDescriptor } from '../../runtime/descriptor.js';
import { soapWrappers } from '../../runtime/http/binding.js';
import { addressPath } from '../../runtime/wire.js';
import { normalise, sampleValue } from '../fixtures/runtime/sample-values.js';
import { sharedDir } from '../helpers/shared-dir.js';
import { requireShared } from '../helpers/peers.js';

const CORPUS = join(sharedDir, 'wsdl-corpus');
const SKIP = requireShared('wsdl-corpus', 'runtime/corpus').reason;
const FILES = [
  'countryinfo-oorsprong-dataflex.wsdl',
  'wsf-schedule-wsdot-asmx.wsdl',
  'taxcloud-asmx.wsdl',
  'interhome-partner-asmx.wsdl',
  'geocoder-tamu-v04_01-asmx.wsdl',
  'properties-multischema-asmx.wsdl',
  'weather-cdyne-asmx.wsdl',
];

interface Sample {
  input: unknown;
  output: unknown;
}

/** Input and output samples per method, the same on every binding (HTTP maps parameters by name). */
function samplesFor(d: ServiceDescriptor): Map<string, Sample> {
  const samples = new Map<string, Sample>();
  const wrappers = soapWrappers(d);
  const bodyValue = (op: OperationDescriptor, which: 'input' | 'output'): unknown => {
    const body = op[which];
    if (body.kind === 'element') return sampleValue(d, d.elements[body.element]!.value);
    if (body.kind === 'params')
      return Object.fromEntries(
        body.params.map((p) => [
          wrappers.get(op.method)?.inputByWireName.get(p.name)?.prop ?? p.name,
          sampleValue(d, p.value),
        ]),
      );
    if (body.kind === 'xml-result') return { [body.field]: sampleValue(d, d.elements[body.element]!.value) };
    return undefined;
  };
  for (const binding of d.bindings) {
    for (const op of binding.operations) {
      if (samples.has(op.method) && binding.protocol.startsWith('http')) continue;
      samples.set(op.method, { input: bodyValue(op, 'input'), output: bodyValue(op, 'output') });
    }
  }
  return samples;
}

if (SKIP === undefined) {
  describe.each(FILES)('%s', roundTrips);
} else {
  describe.skip(SKIP, () => it.each(FILES)('%s round-trips', () => {}));
}

/** Every operation of `file` round-trips over every binding, through our client and server. */
function roundTrips(file: string): void {
  const d = toDescriptor(parseWsdl(join(CORPUS, file)));
  const samples = samplesFor(d);
  let server: Listening;
  let endpoint: string;
  const received = new Map<string, unknown>();

  beforeAll(async () => {
    const handlers: Record<string, OperationHandler> = {};
    for (const [method, sample] of samples) {
      handlers[method] = (input: unknown) => {
        received.set(method, input);
        return sample.output;
      };
    }
    server = await listen(createRequestListener(d, handlers), {});
    endpoint = `${server.url}${addressPath(d.bindings[0]!.address!)}`;
  });
  afterAll(async () => {
    await server.close();
  });

  const cases = d.bindings.flatMap((b) => b.operations.map((op): [Protocol, string] => [b.protocol, op.method]));
  it.each(cases)('%s %s round-trips', async (protocol, method) => {
    const binding = d.bindings.find((b) => b.protocol === protocol)!;
    const op = binding.operations.find((o) => o.method === method)!;
    const sample = samples.get(method)!;
    // HTTP bindings carry only their own parameters and result element; compare those.
    const input = op.input.kind === 'params' ? pick(sample.input, op, d) : sample.input;
    const expectedOutput =
      op.output.kind === 'xml-result'
        ? { [op.output.field]: (sample.output as Record<string, unknown>)[op.output.field] }
        : sample.output;
    const client = new ServiceClient(d, { url: endpoint, binding: protocol });
    try {
      const output = await client.call(method, input);
      expect(normalise(received.get(method))).toEqual(normalise(input));
      expect(normalise(output)).toEqual(normalise(expectedOutput));
    } finally {
      await client.close();
    }
  });
}

function pick(input: unknown, op: OperationDescriptor, d: ServiceDescriptor): unknown {
  if (op.input.kind !== 'params') return input;
  const wrapper = soapWrappers(d).get(op.method);
  const record = input as Record<string, unknown>;
  return Object.fromEntries(
    op.input.params.map((p) => {
      const prop = wrapper?.inputByWireName.get(p.name)?.prop ?? p.name;
      return [prop, record[prop]];
    }),
  );
}
