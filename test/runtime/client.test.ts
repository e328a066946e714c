import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequestListener,
  listen,
  ServiceClient,
  ServiceError,
  SoapFaultError,
  TransportError,
  CodecError,
  type Listening,
} from '../../runtime/index.js';
import type { Protocol } from '../../runtime/descriptor.js';
import { NS, serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';
import { complexDescriptor } from '../fixtures/runtime/complex-descriptor.js';
import { startServer, type TestServer } from '../fixtures/runtime/harness.js';

let server: TestServer;
const clients = new Map<Protocol, ServiceClient>();
const BINDINGS: Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];

beforeAll(async () => {
  server = await startServer();
  for (const binding of BINDINGS)
    clients.set(binding, new ServiceClient(serviceApiDescriptor, { url: server.endpoint, binding, timeoutMs: 5000 }));
});
afterAll(async () => {
  for (const c of clients.values()) await c.close();
  await server.close();
});

const BASE = {
  keyword: 'k',
  emailAddress: 'user@example.com',
  password: 'p@ss word',
  smsto: '+15551234567',
  carrierCode: 'ATT',
};
const TEXTS: [string, string][] = [
  ['plain', 'Hello'],
  ['accents', 'Crème brûlée, ñandú, Ærø'],
  ['CJK', '你好，世界 / 日本語テキスト'],
  ['emoji', '📱✉️👍🏽 done'],
  ['XML specials', `<tag attr="v">&amp; 'quoted' ]]> & < >`],
  ['empty', ''],
  ['whitespace only', '  \t \n  '],
  ['CRLF', 'line1\r\nline2\rline3'],
  ['2 KB', 'é'.repeat(1024) + 'x'.repeat(1024)],
];

describe.each(BINDINGS)('round trips over %s', (binding) => {
  it.each(TEXTS)('SMSSend with %s text', async (_name, text) => {
    const input = { ...BASE, smsmsg: text };
    const out = await clients.get(binding)!.call<typeof input, { SMSSendResult: string }>('SMSSend', input);
    expect(JSON.parse(out.SMSSendResult)).toEqual(input);
  });

  it('SMSSendToPort with every field', async () => {
    const input = { ...BASE, smsmsg: 'to port ✓', port: '5432' };
    const out = await clients.get(binding)!.call<typeof input, { SMSSendToPortResult: string }>('SMSSendToPort', input);
    expect(JSON.parse(out.SMSSendToPortResult)).toEqual(input);
  });

  it('an async handler', async () => {
    const out = await clients
      .get(binding)!
      .call<object, { SMSSendResult: string }>('SMSSend', { ...BASE, keyword: 'async', smsmsg: 'm' });
    expect(JSON.parse(out.SMSSendResult).keyword).toBe('async');
  });

  it('a ServiceError rejects with SoapFaultError carrying the message and code', async () => {
    const err = await clients
      .get(binding)!
      .call('SMSSend', { ...BASE, keyword: 'refuse', smsmsg: 'm' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SoapFaultError);
    const fault = err as SoapFaultError;
    expect(fault.message).toBe('Invalid credentials.');
    expect(fault.code).toBe(binding === 'soap12' ? 'Sender' : 'Client');
    expect(fault.detail.code).toBe('AUTH_FAILED');
    expect(fault.httpStatus).toBe(500);
    expect(fault.binding).toBe(binding);
  });

  it('a handler crash rejects with a Server/Receiver fault and a generic message', async () => {
    const err = (await clients
      .get(binding)!
      .call('SMSSend', { ...BASE, keyword: 'crash', smsmsg: 'm' })
      .catch((e: unknown) => e)) as SoapFaultError;
    expect(err).toBeInstanceOf(SoapFaultError);
    expect(err.code).toBe(binding === 'soap12' ? 'Receiver' : 'Server');
    expect(err.message).toBe('Server was unable to process request.');
  });
});

describe('values the bindings carry differently', () => {
  it.each(['soap11', 'soap12', 'http-post'] as const)('100 KB over %s', async (binding) => {
    const input = { ...BASE, smsmsg: '日本'.repeat(51_200) };
    const out = await clients.get(binding)!.call<typeof input, { SMSSendResult: string }>('SMSSend', input);
    expect(JSON.parse(out.SMSSendResult).smsmsg).toBe(input.smsmsg);
  });

  it('100 KB over HTTP GET does not fit a URL: the server refuses the request line (431)', async () => {
    const err = (await clients
      .get('http-get')!
      .call('SMSSend', { ...BASE, smsmsg: 'x'.repeat(102_400) })
      .catch((e: unknown) => e)) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.code).toBe('BAD_RESPONSE');
    expect(err.httpStatus).toBe(431);
  });

  it.each(['soap11', 'soap12'] as const)('absent optional values stay absent over %s', async (binding) => {
    const out = await clients
      .get(binding)!
      .call<object, { SMSSendResult: string }>('SMSSend', { keyword: 'k', smsmsg: 'only two' });
    expect(JSON.parse(out.SMSSendResult)).toEqual({ keyword: 'k', smsmsg: 'only two' });
  });

  it.each(['http-get', 'http-post'] as const)(
    'absent values are missing parameters over %s by default (ASMX)',
    async (binding) => {
      const err = (await clients
        .get(binding)!
        .call('SMSSend', { keyword: 'k', smsmsg: 'x' })
        .catch((e: unknown) => e)) as SoapFaultError;
      expect(err).toBeInstanceOf(SoapFaultError);
      expect(err.message).toBe('Missing parameter: emailAddress.');
    },
  );

  it.each(['http-get', 'http-post'] as const)(
    "absent optional values stay absent over %s with httpMissingParameters 'pass'",
    async (binding) => {
      const passing = await startServer({ httpMissingParameters: 'pass' });
      const client = new ServiceClient(serviceApiDescriptor, { url: passing.endpoint, binding });
      try {
        const out = await client.call<object, { SMSSendResult: string }>('SMSSend', {
          keyword: 'k',
          smsmsg: 'only two',
        });
        expect(JSON.parse(out.SMSSendResult)).toEqual({ keyword: 'k', smsmsg: 'only two' });
      } finally {
        await client.close();
        await passing.close();
      }
    },
  );

  it.each(BINDINGS)('an absent result comes back absent over %s', async (binding) => {
    expect(
      await clients.get(binding)!.call('SMSSend', {
        keyword: 'absent',
        emailAddress: 'e',
        password: 'p',
        smsto: 's',
        carrierCode: 'c',
        smsmsg: 'm',
      }),
    ).toEqual({});
  });

  it('an XML-1.0-illegal character is refused before sending, naming the field', async () => {
    const err = await clients
      .get('soap11')!
      .call('SMSSend', { ...BASE, smsmsg: 'bell\u0007' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CodecError);
    expect((err as CodecError).path).toBe('SMSSend/smsmsg');
  });
});

describe('the requests the client builds', () => {
  it('SOAP 1.1: quoted SOAPAction and text/xml', () => {
    const req = clients.get('soap11')!.buildRequest('SMSSend', { keyword: 'k' });
    expect(req.headers).toMatchObject({ 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}SMSSend"` });
    expect(req.path).toBe('/serviceapi.asmx');
    expect(req.body).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?><soap:Envelope/);
  });
  it('SOAP 1.2: the action parameter and no SOAPAction', () => {
    const req = clients.get('soap12')!.buildRequest('SMSSend', { keyword: 'k' });
    expect(req.headers).toEqual({ 'content-type': `application/soap+xml; charset=utf-8; action="${NS}SMSSend"` });
  });
  it('HTTP GET/POST: parameters in descriptor order', () => {
    const input = {
      port: 'p',
      smsmsg: 'm',
      keyword: 'k',
      emailAddress: 'e',
      password: 'w',
      smsto: 's',
      carrierCode: 'c',
    };
    expect(clients.get('http-get')!.buildRequest('SMSSendToPort', input).path).toBe(
      '/serviceapi.asmx/SMSSendToPort?keyword=k&emailAddress=e&password=w&smsto=s&carrierCode=c&smsmsg=m&port=p',
    );
    const post = clients.get('http-post')!.buildRequest('SMSSendToPort', input);
    expect(post.body).toBe('keyword=k&emailAddress=e&password=w&smsto=s&carrierCode=c&smsmsg=m&port=p');
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });
});

describe('complex types and SOAP headers over the wire', () => {
  it('round-trips a nested order with arrays, enum, nil, bigint, bytes and a header', async () => {
    let seenAuth: unknown;
    const listener = createRequestListener(complexDescriptor, {
      placeOrder: (input: { order: unknown }, ctx) => {
        seenAuth = ctx.soapHeaders.auth;
        return { PlaceOrderResult: input.order };
      },
    });
    const s = await listen(listener, {});
    const client = new ServiceClient(complexDescriptor, { url: `${s.url}/orders.asmx`, binding: 'soap11' });
    const order = {
      id: 9223372036854775807n,
      customer: { name: 'Zoë', email: 'z@example.com' },
      lines: [{ sku: 'A', qty: 2, weight: 0.5 }, null],
      status: 'Cancelled',
      discount: null,
      tags: ['x', 'y'],
      blob: new Uint8Array([1, 2, 3]),
      price: { currency: 'USD', value: '-0.01' },
      urgent: false,
    };
    try {
      const out = await client.call('placeOrder', { order }, { soapHeaders: { auth: 'token-1' } });
      expect(out).toEqual({ PlaceOrderResult: order });
      expect(seenAuth).toBe('token-1');
    } finally {
      await client.close();
      await s.close();
    }
  });
});

describe('transport failures are typed and never hang', () => {
  let rogue: Listening;
  const behaviours: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
    '/html': (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    },
    '/not-xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end('this is not xml');
    },
    '/hang': () => {},
    '/reset': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml', 'content-length': '1000' });
      res.write('<soap:Envelope');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(Buffer.alloc(2 * 1024 * 1024, 0x20));
    },
    '/odd-fault': (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/xml' });
      res.end(
        '<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><Fault><weird/></Fault></Body></Envelope>',
      );
    },
  };
  beforeAll(async () => {
    rogue = await listen(
      (req, res) => behaviours[req.url!.split('?')[0]!.replace(/\/(SMSSend|SMSSendToPort)$/, '')]!(req, res),
      {},
    );
  });
  afterAll(async () => {
    await rogue.close();
  });

  async function failure(
    url: string,
    binding: Protocol = 'soap11',
    options: { timeoutMs?: number; maxResponseBytes?: number; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    const client = new ServiceClient(serviceApiDescriptor, {
      url,
      binding,
      timeoutMs: options.timeoutMs ?? 3000,
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
    });
    try {
      return await client.call('SMSSend', BASE, options.signal === undefined ? {} : { signal: options.signal }).then(
        () => 'resolved',
        (e: unknown) => e,
      );
    } finally {
      await client.close().catch(() => {});
    }
  }

  const code = (e: unknown): string => (e instanceof TransportError ? e.code : `not a TransportError: ${String(e)}`);

  it('REFUSED', async () => {
    const s = await listen((_q, r) => r.end(), {});
    const url = s.url;
    await s.close();
    expect(code(await failure(url))).toBe('REFUSED');
  });
  it('DNS', async () => {
    expect(code(await failure('http://no-such-host.invalid/serviceapi.asmx'))).toBe('DNS');
  });
  it('TIMEOUT', async () => {
    const err = await failure(`${rogue.url}/hang`, 'soap11', { timeoutMs: 200 });
    expect(code(err)).toBe('TIMEOUT');
    expect((err as Error).message).toContain('200 ms');
  });
  it('TLS (https against a plain HTTP server)', async () => {
    expect(code(await failure(`${rogue.url.replace('http:', 'https:')}/html`))).toBe('TLS');
  });
  it('RESET (connection closed mid-response)', async () => {
    expect(code(await failure(`${rogue.url}/reset`))).toBe('RESET');
  });
  it('TOO_LARGE', async () => {
    expect(code(await failure(`${rogue.url}/huge`, 'soap11', { maxResponseBytes: 1024 * 1024 }))).toBe('TOO_LARGE');
  });
  it.each(BINDINGS)('BAD_RESPONSE for an HTML error page over %s', async (binding) => {
    const err = await failure(`${rogue.url}/html`, binding);
    expect(code(err)).toBe('BAD_RESPONSE');
    expect((err as TransportError).httpStatus).toBe(404);
  });
  it('BAD_RESPONSE for a non-XML 200', async () => {
    expect(code(await failure(`${rogue.url}/not-xml`))).toBe('BAD_RESPONSE');
    expect(code(await failure(`${rogue.url}/not-xml`, 'http-get'))).toBe('BAD_RESPONSE');
  });
  it('a fault with unexpected structure still rejects with a SoapFaultError', async () => {
    const err = await failure(`${rogue.url}/odd-fault`);
    expect(err).toBeInstanceOf(SoapFaultError);
    expect((err as SoapFaultError).httpStatus).toBe(500);
  });
  it('ABORTED by the caller', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(code(await failure(`${rogue.url}/hang`, 'soap11', { signal: controller.signal }))).toBe('ABORTED');
  });
});

describe('responses in UTF-16 (as some .NET and WCF services answer), and the HTTP charset over the declaration', () => {
  const TEXT = 'Grüße 你好 📱';
  const ENV = {
    soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
    soap12: 'http://www.w3.org/2003/05/soap-envelope',
  };
  const MEDIA = { soap11: 'text/xml', soap12: 'application/soap+xml', 'http-get': 'text/xml' };
  type Answered = 'soap11' | 'soap12' | 'http-get';
  const document = (binding: Answered, inner: string, encoding = 'utf-16'): string =>
    binding === 'http-get'
      ? `<?xml version="1.0" encoding="${encoding}"?><string xmlns="${NS}">${inner}</string>`
      : `<?xml version="1.0" encoding="${encoding}"?><soap:Envelope xmlns:soap="${ENV[binding]}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const result = (binding: Answered): string =>
    binding === 'http-get'
      ? TEXT
      : `<SMSSendResponse xmlns="${NS}"><SMSSendResult>${TEXT}</SMSSendResult></SMSSendResponse>`;
  /** `text` in UTF-16 of the given byte order, with or without a byte-order mark (U+FEFF first). */
  const utf16 = (text: string, order: 'le' | 'be', bom: boolean): Buffer => {
    const le = Buffer.from(bom ? `\uFEFF${text}` : text, 'utf16le');
    return order === 'le' ? le : le.swap16();
  };
  /** What the stand-in answers at each path: the charset parameter and the bytes. */
  const answers: Record<string, (binding: Answered) => { charset: string; body: Buffer }> = {
    'le-bom': (b) => ({ charset: '; charset=utf-16', body: utf16(document(b, result(b)), 'le', true) }),
    'be-bom': (b) => ({ charset: '; charset=utf-16', body: utf16(document(b, result(b)), 'be', true) }),
    'le-named': (b) => ({ charset: '; charset=utf-16le', body: utf16(document(b, result(b)), 'le', false) }),
    'bom-only': (b) => ({ charset: '', body: utf16(document(b, result(b)), 'be', true) }),
    'latin1-declared': (b) => ({
      charset: '; charset=utf-8',
      body: Buffer.from(document(b, result(b), 'iso-8859-1')),
    }),
    'odd-bytes': (b) => {
      const body = utf16(document(b, result(b)), 'le', true);
      return { charset: '; charset=utf-16', body: body.subarray(0, body.length - 1) };
    },
  };
  let standIn: Listening;
  beforeAll(async () => {
    standIn = await listen((req, res) => {
      const [, key, op] = req.url!.split('?')[0]!.split('/');
      const binding: Answered =
        op === 'SMSSend'
          ? 'http-get'
          : String(req.headers['content-type']).startsWith('application/soap+xml')
            ? 'soap12'
            : 'soap11';
      const { charset, body } = answers[key!]!(binding);
      res.writeHead(200, { 'content-type': `${MEDIA[binding]}${charset}`, 'content-length': body.length });
      res.end(body);
    }, {});
  });
  afterAll(async () => {
    await standIn.close();
  });

  async function call(key: string, binding: Answered): Promise<unknown> {
    const client = new ServiceClient(serviceApiDescriptor, { url: `${standIn.url}/${key}`, binding, timeoutMs: 5000 });
    try {
      return await client.call<object, { SMSSendResult: string }>('SMSSend', { ...BASE, smsmsg: 'm' }).then(
        (out) => out.SMSSendResult,
        (e: unknown) => e,
      );
    } finally {
      await client.close();
    }
  }

  describe.each(['soap11', 'soap12', 'http-get'] as const)('over %s', (binding) => {
    it.each([
      ['charset=utf-16, UTF-16LE with a BOM', 'le-bom'],
      ['charset=utf-16, UTF-16BE with a BOM', 'be-bom'],
      ['charset=utf-16le without a BOM', 'le-named'],
      ['no charset, UTF-16BE found by its BOM', 'bom-only'],
      ['charset=utf-8 on ASCII whose declaration names iso-8859-1 (RFC 7303 §3)', 'latin1-declared'],
    ])('%s: the result read intact', async (_name, key) => {
      expect(await call(key, binding)).toBe(TEXT);
    });

    it('UTF-16 that cannot be read (an odd byte count) -> BAD_RESPONSE naming the encoding', async () => {
      const err = await call('odd-bytes', binding);
      expect(err).toBeInstanceOf(TransportError);
      expect((err as TransportError).code).toBe('BAD_RESPONSE');
      expect((err as TransportError).message).toMatch(/not well-formed XML: .*not valid UTF-16LE/);
    });
  });
});

describe('options are validated', () => {
  it('rejects unknown options, bindings and operations', async () => {
    expect(
      () => new ServiceClient(serviceApiDescriptor, { url: 'http://x', binding: 'soap11', bogus: 1 } as never),
    ).toThrow(/Unknown client option: bogus/);
    expect(() => new ServiceClient(serviceApiDescriptor, { url: 'http://x', binding: 'soap13' as Protocol })).toThrow(
      /Unknown binding/,
    );
    const c = new ServiceClient(serviceApiDescriptor, { url: 'http://x', binding: 'soap11' });
    await expect(c.call('Nope', {})).rejects.toThrow(/no operation method "Nope"/);
    await c.close();
  });
  it('the server refuses missing or extra handlers and unknown options', () => {
    expect(() => createRequestListener(serviceApiDescriptor, { SMSSend: () => ({}) })).toThrow(
      /No handler for the operation method "SMSSendToPort"/,
    );
    expect(() =>
      createRequestListener(serviceApiDescriptor, {
        SMSSend: () => ({}),
        SMSSendToPort: () => ({}),
        Extra: () => ({}),
      }),
    ).toThrow(/Extra/);
    expect(() =>
      createRequestListener(serviceApiDescriptor, { SMSSend: () => ({}), SMSSendToPort: () => ({}) }, {
        maxBodyByte: 1,
      } as never),
    ).toThrow(/Unknown server option/);
  });
  it('ServiceError refuses detail keys that cannot be element names', () => {
    expect(() => new ServiceError('X', 'm', { 'bad key': 'v' })).toThrow(TypeError);
  });
});
