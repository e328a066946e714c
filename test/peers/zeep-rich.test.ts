/**
 * Python zeep against the rich service served by smskit (the generated skeleton with
 * rich-handlers.ts): zeep reads our ?wsdl and calls through all four ports
 * (test/peers/zeep_rich_client.py). The same script against the genuine ASMX peer must give the
 * same expected values, which shows the expectations are ASMX's and not ours.
 * Skipped with one line when no python3 can import zeep (the ASMX half also needs Mono), except in
 * CI, where zeep is required.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAsmxPeer } from '../helpers/asmx-peer.js';
import { startSmskitPeer } from '../helpers/smskit-peers.js';
import { pythonWith, requirePeer } from '../helpers/peers.js';

const SCRIPT = fileURLToPath(new URL('./zeep_rich_client.py', import.meta.url));
const zeepSkip = requirePeer('zeep', 'peers/zeep-rich').reason;
const PYTHON = pythonWith('zeep');
const asmxSkip = zeepSkip ?? requirePeer('asmx', 'peers/zeep-rich (the genuine ASMX half)').reason;

type Outcome = { ok?: unknown; error?: string };
type Results = Record<string, Outcome>;

const SPECIAL = 'Grüße 你好 📱 <&>"\'';
const SOAP_PORTS = ['RichServiceSoap', 'RichServiceSoap12'];
const HTTP_PORTS = ['RichServiceHttpGet', 'RichServiceHttpPost'];

const circle = { $type: 'Circle', Label: 'circle', Radius: 1.25 };
const square = { $type: 'Square', Label: 'square', Width: 3, Height: 3, Rotated: true };

/** What zeep must get on every port (including what zeep itself makes of ASMX's answers). */
const ON_EVERY_PORT: Record<string, Outcome> = {
  'MakeShape(circle)': { ok: circle },
  'MakeShape(square)': { ok: square },
};

const ON_SOAP_PORTS: Record<string, Outcome> = {
  'MakeShape(blob)': { ok: null },
  Ping: { ok: null },
  // zeep gives an empty and an absent array alike.
  EmptyList: { ok: null },
  NullList: { ok: null },
  SumValues: { ok: -34 },
  EchoStrings: { ok: ['a', SPECIAL, 'b'] },
  EchoShapes: {
    ok: [
      { $type: 'Circle', Label: 'c', Radius: 1 },
      { $type: 'Rectangle', Label: SPECIAL, Width: 2, Height: 3 },
      { $type: 'Square', Label: 's', Width: 2, Height: 2, Rotated: true },
    ],
  },
  WhoAmI: {
    ok: {
      $type: null,
      header: {
        $type: null,
        SessionHeader: { $type: 'SessionHeader', SessionId: 'S-1', Counter: 42 },
        TraceHeader: { $type: 'TraceHeader', Server: 'rich-peer', Operation: 'WhoAmI' },
      },
      body: { $type: 'WhoAmIResponse', WhoAmIResult: SPECIAL },
    },
  },
  'EchoNullableInt(None)': { ok: null },
  'EchoNullableInt(0)': { ok: 0 },
  EchoOrder: {
    ok: {
      $type: 'Order',
      Id: 'O-1',
      Version: 3,
      Customer: {
        $type: 'Customer',
        Name: SPECIAL,
        Email: 'z@example.com',
        Address: { $type: 'Address', Street: null, City: 'Köln', PostalCode: null, Country: 'DE' },
      },
      Lines: {
        $type: 'ArrayOfOrderLine',
        OrderLine: [
          {
            $type: 'OrderLine',
            Sku: 'A-1',
            Quantity: 2,
            UnitPrice: '9.90',
            Color: 'Red',
            Shape: { $type: 'Circle', Label: 'c', Radius: 1.5 },
          },
        ],
      },
      Priority: null,
      Note: 'note',
      Discount: null,
      Created: '2024-02-29 12:34:56+00:00',
      Reference: '0f8fad5b-d9cb-469f-a165-70867728950e',
      Attachment: [0, 1, 255],
      Flag: 65,
      Total: '19.80',
      Sequence: '-9223372036854775808',
      Tags: { $type: 'ArrayOfString', string: ['x', SPECIAL] },
      Colors: { $type: 'ArrayOfColor', Color: ['Blue', 'Red'] },
      Access: ['Read', 'Write'],
      Comment: ['c1', 'c2'],
    },
  },
};

const ON_HTTP_PORTS = (post: boolean): Record<string, Outcome> => ({
  // zeep reads ASMX's nil root element as an object with no members.
  'MakeShape(blob)': { ok: { $type: 'Shape', Label: null } },
  // zeep cannot read a void HTTP answer (it looks for an output part there is none of).
  Ping: { error: "AttributeError: 'NoneType' object has no attribute 'deserialize'" },
  EmptyList: { ok: { $type: 'ArrayOfString', string: [] } },
  NullList: { ok: { $type: 'ArrayOfString', string: [] } },
  // POST: one value (see the script); GET: one pair per item.
  SumValues: { ok: post ? 7 : -34 },
  EchoStrings: { ok: { $type: 'ArrayOfString', string: post ? [SPECIAL] : ['a', SPECIAL, 'b'] } },
  WhoAmI: { ok: '(anonymous)' },
});

function expected(port: string): Record<string, Outcome> {
  const own = SOAP_PORTS.includes(port) ? ON_SOAP_PORTS : ON_HTTP_PORTS(port.endsWith('HttpPost'));
  return { ...ON_EVERY_PORT, ...own };
}

function runZeep(wsdlUrl: string): Promise<Results> {
  return new Promise((resolve, reject) =>
    execFile(
      PYTHON!,
      [SCRIPT, wsdlUrl],
      { timeout: 60_000, env: { ...process.env, PYTHONIOENCODING: 'utf-8' } },
      (err, out, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(out) as Results),
    ),
  );
}

function defineChecks(results: () => Results): void {
  it.each([...SOAP_PORTS, ...HTTP_PORTS])('%s: every call gives what it should', (port) => {
    const want = expected(port);
    const got = Object.fromEntries(
      Object.entries(results())
        .filter(([key]) => key.startsWith(`${port}/`))
        .map(([key, value]) => [key.slice(port.length + 1), value]),
    );
    expect(got).toEqual(want);
  });
}

describe.skipIf(zeepSkip !== undefined)('zeep -> smskit rich server', () => {
  let results: Results = {};
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (PYTHON === undefined) throw new Error('CI is set but no python3 can import zeep: install python3-zeep');
    const server = await startSmskitPeer('rich');
    close = server.close;
    results = await runZeep(`${server.url}?wsdl`);
  }, 90_000);
  afterAll(async () => {
    await close?.();
  });
  defineChecks(() => results);
});

describe.skipIf(asmxSkip !== undefined)('zeep -> genuine ASMX rich peer (the expectations are right)', () => {
  let results: Results = {};
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const peer = await startAsmxPeer('rich');
    stop = peer.stop;
    results = await runZeep(`${peer.url}?WSDL`);
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });
  defineChecks(() => results);
});
