/**
 * Our runtime against genuine ASMX, exchange by exchange (test/fixtures/asmx/captures/rich):
 *
 * - server: each captured request, sent as is to our server (richDescriptor + handlers that
 *   answer as the peer's methods do), gets the same status, media type and document structure
 *   as ASMX's response — nil, empty and absent values, xsi:type, headers, void answers — on
 *   every binding; errors the same status, media type and fault code (the texts differ: ASMX
 *   sends stack traces);
 * - client: ASMX's captured response, decoded by our client, gives the same output as our
 *   server's response to the same request.
 *
 * Skipped, with one line saying so, when the captures are not there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener, listen, ServiceClient, type Listening, type Protocol } from '../../runtime/index.js';
import { richDescriptor as d } from '../fixtures/runtime/rich-descriptor.js';
import { richHandlers } from '../fixtures/runtime/rich-handlers.js';
import { header, readCapture, readCaptures, type Capture } from '../helpers/asmx-captures.js';
import { documentStructure } from '../helpers/document-structure.js';

const SITE = 'rich';
const BINDINGS: Record<string, Protocol> = { soap11: 'soap11', soap12: 'soap12', get: 'http-get', post: 'http-post' };
const SOAP_ENV = {
  soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
  soap12: 'http://www.w3.org/2003/05/soap-envelope',
};

/** A valid input per method, for the client side (the fake peer ignores the request). */
const INPUTS: Record<string, unknown> = {
  SumValues: { values: [1] },
  EchoStrings: { items: ['a'] },
  EchoColors: { colors: ['Red'] },
  MakeShape: { kind: 'x', size: 1 },
  EchoAccess: { access: 'Read' },
  DescribeHttpScalars: {
    flag: 65,
    amount: '1',
    count: 1n,
    when: '2024-02-29',
    yes: true,
    ratio: 1,
    small: 1,
    s16: 1,
    f32: 1,
    big: 1n,
  },
  EchoNullableInt: { value: null },
};

/**
 * Where our server answers differently from ASMX on purpose. Everything else must match.
 * - `not-offered`: ASMX answers a method its HTTP bindings leave out like an unknown method,
 *   500 text/plain "method name is not valid"; our server answers every unknown HTTP path 404.
 * - `strict`: the request lacks an element the schema requires (minOccurs=1); ASMX's
 *   serializer fills in the C# default (null, 0001-01-01...), our decoder refuses it with a
 *   Client fault naming the element (runtime/codec/decode.ts).
 * - `value`: ASMX parses a Guid into System.Guid and writes it back in lower case; the runtime
 *   carries a guid as the string it received. DescribeHttpScalars answers with the values it
 *   parsed formatted by .NET (`when=...+00:00|kind=Local`), which the handler here does not imitate.
 *   An empty [Flags] value is the number 0 in .NET, written back as its name `None`; here it stays ''.
 */
const DIFFERENT: Record<string, 'not-offered' | 'strict' | 'value'> = {
  'EchoLines.get.error-not-offered.txt': 'not-offered',
  'EchoNullableInt.get.error-not-offered.txt': 'not-offered',
  'EchoNullableInt.post.error-not-offered.txt': 'not-offered',
  'EchoNullableInt.soap11.absent.txt': 'strict',
  'EchoOrder.soap11.sparse.txt': 'strict',
  'EchoOrder.soap11.reordered.txt': 'strict',
  'EchoOrder.soap11.optionals-present.txt': 'value',
  'EchoAccess.soap11.none.txt': 'value',
  'EchoAccess.soap12.none.txt': 'value',
  'DescribeHttpScalars.get.txt': 'value',
  'DescribeHttpScalars.post.txt': 'value',
  'DescribeHttpScalars.soap11.txt': 'value',
  'DescribeHttpScalars.soap12.txt': 'value',
};

const OPERATIONS = new Set(d.bindings[0]!.operations.map((op) => op.name));
const files = readCaptures(SITE)
  .filter((capture) => OPERATIONS.has(capture.operation))
  .map((capture) => `${capture.name}.txt`);

describe('replaying ASMX exchanges', replay);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

function replay(): void {
  let server: Listening;
  let origin: string;
  let fake: Server;
  let fakeUrl: string;
  let fakeAnswer: Answer = { status: 500, headers: {}, body: '' };

  beforeAll(async () => {
    server = await listen(createRequestListener(d, richHandlers, { logger: { error: () => {} } }), {});
    origin = server.url;
    fake = createServer((_req, res) => {
      res.writeHead(fakeAnswer.status, fakeAnswer.headers);
      res.end(fakeAnswer.body);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/rich.asmx`;
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => fake.close(resolve));
  });

  /** Our server's answer to the captured request, sent byte for byte. */
  async function ours(capture: Capture): Promise<Answer & { body: string }> {
    const [method, target] = capture.request.startLine.split(' ');
    const headers = Object.fromEntries(
      capture.request.headers.filter(([k]) => !['host', 'content-length'].includes(k.toLowerCase())),
    );
    const res = await fetch(`${origin}${target}`, {
      method: method ?? 'GET',
      headers,
      body: method === 'GET' ? null : capture.request.body,
    });
    return {
      status: res.status,
      headers: { 'content-type': res.headers.get('content-type') ?? '' },
      body: await res.text(),
    };
  }

  const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim();

  it.each(files)('server answers %s as ASMX does', async (file) => {
    const capture = readCapture(SITE, file)!;
    const binding = file.split('.')[1]!;
    const answer = await ours(capture);
    if (DIFFERENT[file] === 'not-offered') return expect(answer.status).toBe(404);
    if (DIFFERENT[file] === 'strict') return expect([answer.status, faultCode(answer.body)]).toEqual([500, 'Client']);
    if (DIFFERENT[file] === 'value') return expect(answer.status).toBe(capture.status);
    expect(answer.status).toBe(capture.status);
    expect(mediaType(answer.headers['content-type'])).toBe(mediaType(header(capture.response, 'content-type')));
    if (capture.response.body.length === 0) return expect(answer.body).toBe('');
    if (capture.status !== 200) {
      if (binding === 'soap11' || binding === 'soap12')
        expect(faultShape(answer.body)).toEqual(faultShape(capture.response.body.toString('utf8')));
      return;
    }
    // ASMX writes an InOut header block back with the mustUnderstand it arrived with (its header
    // object keeps the flag); our handlers write a new value. Not compared.
    const ignore = binding === 'soap11' || binding === 'soap12' ? [`{${SOAP_ENV[binding]}}mustUnderstand`] : [];
    expect(documentStructure(answer.body, ignore)).toEqual(documentStructure(capture.response.body, ignore));
  });

  const successes = files.filter((f) => readCapture(SITE, f)!.status === 200 && DIFFERENT[f] === undefined);
  it.each(successes)("client reads ASMX's %s as it reads our answer", async (file) => {
    const capture = readCapture(SITE, file)!;
    const [method, binding] = file.split('.') as [string, string];
    const client = new ServiceClient(d, { url: fakeUrl, binding: BINDINGS[binding]! });
    try {
      const input = INPUTS[method] ?? {};
      fakeAnswer = {
        status: capture.status,
        headers: { 'content-type': header(capture.response, 'content-type') ?? '' },
        body: capture.response.body,
      };
      if (fakeAnswer.headers['content-type'] === '') fakeAnswer.headers = {};
      const fromAsmx = await client.callWithHeaders(method, input);
      fakeAnswer = await ours(capture);
      if (fakeAnswer.headers['content-type'] === '') fakeAnswer.headers = {};
      const fromOurs = await client.callWithHeaders(method, input);
      expect(fromAsmx).toEqual(fromOurs);
    } finally {
      await client.close();
    }
  });
}

/** The fault code and whether there is a detail element (ASMX: on every Client/Server fault). */
function faultShape(body: string): [string | undefined, boolean] {
  return [faultCode(body), /<detail\b|<soap12?:Detail\b/.test(body)];
}

function faultCode(body: string): string | undefined {
  return /<faultcode>([^<]*)<\/faultcode>|<soap12?:Value>([^<]*)<\/soap12?:Value>/
    .exec(body)
    ?.slice(1)
    .find((x) => x !== undefined)
    ?.replace(/^[^:]*:/, '');
}
