/**
 * SOAP headers in and out: the client sends the declared input header blocks (mustUnderstand
 * marked per version) and `callWithHeaders` reads the declared output blocks; the server gives
 * the handler the request's blocks and writes the ones it sets in `responseSoapHeaders`, in the
 * descriptor's order, before the Body. ASMX's forms come from the rich peer's WhoAmI captures.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodecError,
  createRequestListener,
  listen,
  ServiceClient,
  TransportError,
  type CallOptions,
  type Listening,
  type OperationHandler,
  type Protocol,
} from '../../runtime/index.js';
import {
  RNS,
  richDescriptor as d,
  type WhoAmIInHeaders,
  type WhoAmIOutHeaders,
} from '../fixtures/runtime/rich-descriptor.js';
import { richHandlers } from '../fixtures/runtime/rich-handlers.js';
import { readCapture } from '../helpers/asmx-captures.js';
import { documentStructure } from '../helpers/document-structure.js';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';

let server: Listening;
let endpoint: string;
const logged: string[] = [];
/** Per test: a handler that replaces WhoAmI's (to set headers it should not). */
let whoAmIOverride: OperationHandler | undefined;

beforeAll(async () => {
  const handlers = {
    ...richHandlers,
    WhoAmI: (input: unknown, context: Parameters<OperationHandler>[1]) =>
      (whoAmIOverride ?? richHandlers.WhoAmI!)(input, context),
  };
  server = await listen(createRequestListener(d, handlers, { logger: { error: (m) => logged.push(m) } }), {});
  endpoint = `${server.url}/rich.asmx`;
});
afterAll(async () => {
  await server.close();
});

async function withClient<T>(binding: Protocol, url: string, fn: (client: ServiceClient) => Promise<T>): Promise<T> {
  const client = new ServiceClient(d, { url, binding });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const HEADERS: CallOptions<WhoAmIInHeaders> = {
  // Given out of order: the wire follows the descriptor (auth, then session).
  soapHeaders: { session: { SessionId: 'S-1', Counter: 41 }, auth: { User: 'zoë <admin>', Token: 's3cret' } },
  mustUnderstand: ['session'],
};

describe('client: header blocks on the wire', () => {
  it.each([
    ['soap11', '1'],
    ['soap12', 'true'],
  ] as const)('%s: declared blocks in descriptor order, mustUnderstand="%s" on the marked one', (binding, mark) => {
    const client = new ServiceClient(d, { url: 'http://localhost/rich.asmx', binding });
    const body = client.buildRequest('WhoAmI', {}, HEADERS).body!;
    void client.close();
    expect(body).toContain(
      `<soap:Header><AuthHeader xmlns="${RNS}"><User>zoë &lt;admin&gt;</User><Token>s3cret</Token></AuthHeader>` +
        `<SessionHeader xmlns="${RNS}" soap:mustUnderstand="${mark}"><SessionId>S-1</SessionId><Counter>41</Counter></SessionHeader></soap:Header><soap:Body>`,
    );
    // Structurally the request ASMX was sent in WhoAmI.soap1x.txt (the envelope's spelling aside;
    // that SOAP 1.2 request spells the mark "1", which 1.2 also allows).
    const asmx = readCapture('rich', `WhoAmI.${binding}.txt`);
    const ignore = binding === 'soap12' ? [`{${SOAP12}}mustUnderstand`] : [];
    expect(documentStructure(body, ignore)).toEqual(documentStructure(asmx.request.body, ignore));
  });

  it('refuses an undeclared header, and a mustUnderstand mark on a header not given', () => {
    const client = new ServiceClient(d, { url: 'http://localhost/rich.asmx', binding: 'soap11' });
    void client.close();
    expect(() => client.buildRequest('WhoAmI', {}, { soapHeaders: { auth: {}, tracker: {} } })).toThrow(
      /Header\/tracker: this operation declares no such SOAP header/,
    );
    expect(() => client.buildRequest('WhoAmI', {}, { soapHeaders: { auth: {} }, mustUnderstand: ['session'] })).toThrow(
      /Header\/session: marked mustUnderstand but not given/,
    );
    expect(() => client.buildRequest('WhoAmI', {}, { mustUnderstand: ['auth'] })).toThrow(CodecError);
    // A header's content is checked like any value: nothing dropped silently.
    expect(() => client.buildRequest('WhoAmI', {}, { soapHeaders: { auth: { User: 'u', Password: 'p' } } })).toThrow(
      /Header\/AuthHeader: unexpected property: "Password"/,
    );
  });
});

describe('types', () => {
  it('CallOptions<InHeaders> types the header blocks and names only their properties in mustUnderstand (checked by tsc)', () => {
    // @ts-expect-error tracker is not an input header of WhoAmI
    const wrongMark: CallOptions<WhoAmIInHeaders> = { mustUnderstand: ['tracker'] };
    // @ts-expect-error Counter is required in a SessionHeader
    const wrongBlock: CallOptions<WhoAmIInHeaders> = { soapHeaders: { session: { SessionId: 'x' } } };
    expect([wrongMark, wrongBlock]).toHaveLength(2);
  });
});

describe('round trips', () => {
  it.each(['soap11', 'soap12'] as const)(
    '%s: the handler reads In/InOut blocks, sets InOut/Out ones; callWithHeaders returns them',
    async (binding) => {
      await withClient(binding, endpoint, async (client) => {
        const result = await client.callWithHeaders<object, { WhoAmIResult?: string }, WhoAmIOutHeaders>(
          'WhoAmI',
          {},
          HEADERS,
        );
        expect(result).toEqual({
          output: { WhoAmIResult: 'zoë <admin>' },
          soapHeaders: {
            session: { SessionId: 'S-1', Counter: 42 },
            trace: { Server: 'rich-peer', Operation: 'WhoAmI' },
          },
        });
        // `call` gives the output only; no headers sent means none received but the Out one.
        expect(await client.call('WhoAmI', {}, HEADERS)).toEqual({ WhoAmIResult: 'zoë <admin>' });
        expect((await client.callWithHeaders('WhoAmI', {})).soapHeaders).toEqual({
          trace: { Server: 'rich-peer', Operation: 'WhoAmI' },
        });
      });
    },
  );

  it.each(['soap11', 'soap12'] as const)(
    '%s: the response Header is what ASMX writes (WhoAmI.<binding>.txt), blocks in the descriptor order',
    async (binding) => {
      const capture = readCapture('rich', `WhoAmI.${binding}.txt`);
      whoAmIOverride = (input, context) => {
        context.responseSoapHeaders.trace = { Server: 'rich-peer', Operation: 'WhoAmI' }; // set first, written second
        return richHandlers.WhoAmI!(input, context);
      };
      try {
        await withClient(binding, endpoint, async (client) => {
          const request = client.buildRequest('WhoAmI', {}, HEADERS);
          const res = await fetch(endpoint, { method: 'POST', headers: request.headers, body: request.body ?? null });
          const text = await res.text();
          expect(res.status).toBe(200);
          // The in-out block goes back with the mustUnderstand it arrived with, as ASMX writes it.
          expect(text).toMatch(
            new RegExp(
              `<soap:Header><SessionHeader xmlns="${RNS}" soap:mustUnderstand="1"><SessionId>S-1</SessionId><Counter>42</Counter></SessionHeader><TraceHeader xmlns="${RNS}">.*</TraceHeader></soap:Header><soap:Body>`,
            ),
          );
          const ignore: string[] = [];
          expect(documentStructure(text, ignore)).toEqual(documentStructure(capture.response.body, ignore));
        });
      } finally {
        whoAmIOverride = undefined;
      }
    },
  );

  it.each(['soap11', 'soap12'] as const)(
    '%s: an in-out block sent without mustUnderstand goes back without it',
    async (binding) => {
      await withClient(binding, endpoint, async (client) => {
        const request = client.buildRequest('WhoAmI', {}, { soapHeaders: HEADERS.soapHeaders! });
        const text = await (
          await fetch(endpoint, { method: 'POST', headers: request.headers, body: request.body ?? null })
        ).text();
        expect(text).toContain(
          `<SessionHeader xmlns="${RNS}"><SessionId>S-1</SessionId><Counter>42</Counter></SessionHeader>`,
        );
        expect(text).not.toContain('mustUnderstand');
      });
    },
  );

  it('a handler setting an undeclared response header is a Server fault, logged', async () => {
    whoAmIOverride = (_input, context) => {
      context.responseSoapHeaders.audit = { who: 'x' };
      return { WhoAmIResult: 'x' };
    };
    logged.length = 0;
    try {
      await withClient('soap11', endpoint, async (client) => {
        await expect(client.call('WhoAmI', {})).rejects.toMatchObject({
          name: 'SoapFaultError',
          code: 'Server',
          message: 'Server was unable to process request.',
        });
      });
      await withClient('http-get', endpoint, async (client) => {
        await expect(client.call('WhoAmI', {})).rejects.toMatchObject({ name: 'SoapFaultError', code: 'Server' });
      });
      expect(logged).toHaveLength(2);
      expect(logged[0]).toMatch(/^WhoAmI \(soap11\): encoding the response failed: CodecError \[CODEC_UNEXPECTED\]/);
    } finally {
      whoAmIOverride = undefined;
    }
  });

  it('a request block declared only as an output header is not understood (WhoAmI.soap11.error-must-understand.txt)', async () => {
    const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Header><TraceHeader xmlns="${RNS}" soap:mustUnderstand="1"><Server>x</Server></TraceHeader></soap:Header><soap:Body><WhoAmI xmlns="${RNS}"/></soap:Body></soap:Envelope>`;
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${RNS}WhoAmI"` },
      body,
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<faultcode>soap:MustUnderstand</faultcode>');
    const asmx = readCapture('rich', 'WhoAmI.soap11.error-must-understand.txt');
    expect(asmx.response.body.toString('utf8')).toContain('<faultcode>soap:MustUnderstand</faultcode>');
  });
});

describe('client: reading response headers', () => {
  let fake: Server;
  let fakeUrl: string;
  let answer = '';
  beforeAll(async () => {
    fake = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(answer);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/rich.asmx`;
  });
  afterAll(async () => {
    await new Promise((resolve) => fake.close(resolve));
  });

  const envelope = (header: string) =>
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Header>${header}</soap:Header><soap:Body><WhoAmIResponse xmlns="${RNS}"><WhoAmIResult>x</WhoAmIResult></WhoAmIResponse></soap:Body></soap:Envelope>`;

  it("decodes ASMX's own response (WhoAmI.soap11.txt): the InOut block marked mustUnderstand is declared, so understood", async () => {
    const capture = readCapture('rich', 'WhoAmI.soap11.txt');
    answer = capture.response.body.toString('utf8');
    await withClient('soap11', fakeUrl, async (client) => {
      expect(await client.callWithHeaders('WhoAmI', {})).toEqual({
        output: { WhoAmIResult: 'zoë <admin>' },
        soapHeaders: {
          session: { SessionId: 'S-1', Counter: 42 },
          trace: { Server: 'rich-peer', Operation: 'WhoAmI' },
        },
      });
    });
  });

  it('ignores an undeclared block without mustUnderstand, and fails the call on one with it (SOAP 1.1 4.2.3)', async () => {
    await withClient('soap11', fakeUrl, async (client) => {
      answer = envelope('<x:Extra xmlns:x="urn:x">1</x:Extra>');
      expect(await client.callWithHeaders('WhoAmI', {})).toEqual({ output: { WhoAmIResult: 'x' }, soapHeaders: {} });
      answer = envelope(`<x:Extra xmlns:x="urn:x" soap:mustUnderstand="1">1</x:Extra>`);
      const err = await client.call('WhoAmI', {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TransportError);
      expect(err).toMatchObject({
        code: 'BAD_RESPONSE',
        message:
          'The response carries the header block {urn:x}Extra marked mustUnderstand, which WhoAmI does not declare',
      });
      // Addressed to another actor: not this node's to understand.
      answer = envelope(`<x:Extra xmlns:x="urn:x" soap:mustUnderstand="1" soap:actor="urn:someone-else">1</x:Extra>`);
      expect((await client.callWithHeaders('WhoAmI', {})).soapHeaders).toEqual({});
    });
  });

  it('a declared output block that does not match its type is a BAD_RESPONSE', async () => {
    answer = envelope(`<TraceHeader xmlns="${RNS}"><Host>x</Host></TraceHeader>`);
    await withClient('soap11', fakeUrl, async (client) => {
      await expect(client.callWithHeaders('WhoAmI', {})).rejects.toMatchObject({
        code: 'BAD_RESPONSE',
        message: expect.stringContaining('Header/TraceHeader/Host'),
      });
    });
  });
});

describe('HTTP GET/POST carry no SOAP headers', () => {
  it.each(['http-get', 'http-post'] as const)(
    '%s: headers given are refused naming the binding; callWithHeaders returns none',
    async (binding) => {
      await withClient(binding, endpoint, async (client) => {
        const err = await client.call('WhoAmI', {}, { soapHeaders: { auth: { User: 'u' } } }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(CodecError);
        expect(err).toMatchObject({
          code: 'CODEC_UNSUPPORTED',
          message: `WhoAmI: SOAP headers cannot be sent over ${binding} (auth given for WhoAmI): use a SOAP binding`,
        });
        await expect(client.call('WhoAmI', {}, { mustUnderstand: ['auth'] })).rejects.toMatchObject({
          code: 'CODEC_UNSUPPORTED',
        });
        // What ASMX answers there (WhoAmI.get.txt): the result, no headers (the handler's Out block is not sent).
        expect(await client.callWithHeaders('WhoAmI', {}, { soapHeaders: {} })).toEqual({
          output: { WhoAmIResult: '(anonymous)' },
          soapHeaders: {},
        });
      });
    },
  );
});
