import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener, listen } from '../../runtime/index.js';
import { NS, serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';
import { LEAK } from '../../tools/fuzz/check.js';
import { waitFor } from '../helpers/wait-for.js';
import { parseFault, SOAP11, SOAP12 } from '../../tools/soap-fault.js';
import {
  envelope,
  raw,
  sendBody,
  soap11Post,
  soap12Post,
  startServer,
  type RawResponse,
  type TestServer,
} from '../fixtures/runtime/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ maxBodyBytes: 64 * 1024, bodyTimeoutMs: 300, headersTimeoutMs: 400 });
});
afterAll(async () => {
  await server.close();
});

const FIELDS = {
  keyword: 'k',
  emailAddress: 'e@x',
  password: 'hunter2',
  smsto: '+1555',
  carrierCode: 'c',
  smsmsg: 'hi',
};

function expectFault(res: RawResponse, envNs: string, code: string): ReturnType<typeof parseFault> {
  expect(res.status).toBe(500);
  expect(res.contentType).toBe(envNs === SOAP11 ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
  expect(res.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
  expect(res.text).not.toMatch(LEAK);
  const fault = parseFault(res.text);
  expect(fault.envNs).toBe(envNs);
  expect(fault.code).toBe(code);
  return fault;
}

function expectPlain(res: RawResponse, status: number, message?: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(res.contentType).toBe('text/plain; charset=utf-8');
  expect(res.text).not.toContain('\n');
  expect(res.text).not.toMatch(LEAK);
  if (message !== undefined) expect(res.text).toMatch(message);
}

describe('success responses', () => {
  it('SOAP 1.1: 200, exact content type, declaration, wrapper and result', async () => {
    const res = await soap11Post(server.endpoint, envelope(SOAP11, sendBody(FIELDS)), `"${NS}SMSSend"`);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/xml; charset=utf-8');
    expect(res.text).toMatch(
      new RegExp(
        `^<\\?xml version="1.0" encoding="utf-8"\\?><soap:Envelope xmlns:soap="${SOAP11}"[^>]*><soap:Body><SMSSendResponse xmlns="${NS}"><SMSSendResult>`,
      ),
    );
  });

  it('SOAP 1.2: 200 application/soap+xml answered in a 1.2 envelope', async () => {
    const res = await soap12Post(server.endpoint, envelope(SOAP12, sendBody(FIELDS)), `${NS}SMSSend`);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/soap+xml; charset=utf-8');
    expect(res.text).toContain(`<soap:Envelope xmlns:soap="${SOAP12}"`);
  });

  it('HTTP GET: <string xmlns="{ns}"> document', async () => {
    const res = await raw(`${server.endpoint}/SMSSend?${new URLSearchParams(FIELDS)}`);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/xml; charset=utf-8');
    expect(res.text).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="${NS}">${JSON.stringify(FIELDS)}</string>`,
    );
  });

  it('HTTP GET: an absent result is written as xsi:nil', async () => {
    const res = await raw(`${server.endpoint}/SMSSend?${new URLSearchParams({ ...FIELDS, keyword: 'absent' })}`);
    expect(res.text).toContain(`<string xmlns="${NS}" xsi:nil="true"`);
  });

  it('routes SOAP 1.1 by SOAPAction unquoted, and by the Body element without SOAPAction or with an empty one', async () => {
    for (const action of [`${NS}SMSSendToPort`, undefined, '""']) {
      const res = await soap11Post(
        server.endpoint,
        envelope(SOAP11, sendBody({ ...FIELDS, port: '9' }, 'SMSSendToPort')),
        action,
      );
      expect(res.status).toBe(200);
      expect(res.text).toContain('<SMSSendToPortResult>');
    }
  });

  it('routes SOAP 1.2 by the Body element when the action parameter is absent', async () => {
    const res = await soap12Post(server.endpoint, envelope(SOAP12, sendBody(FIELDS)));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<SMSSendResult>');
  });

  it('accepts the path in any case, like ASMX', async () => {
    const res = await soap11Post(
      server.endpoint.replace('serviceapi.asmx', 'ServiceAPI.ASMX'),
      envelope(SOAP11, sendBody(FIELDS)),
      `"${NS}SMSSend"`,
    );
    expect(res.status).toBe(200);
  });

  it('ignores mustUnderstand="0" and blocks for another actor', async () => {
    const header = `<x:Trace xmlns:x="urn:x" soap:mustUnderstand="0">1</x:Trace><x:Other xmlns:x="urn:x" soap:mustUnderstand="1" soap:actor="urn:someone-else">1</x:Other>`;
    const res = await soap11Post(server.endpoint, envelope(SOAP11, sendBody(FIELDS), header), `"${NS}SMSSend"`);
    expect(res.status).toBe(200);
  });
});

describe('SOAP faults', () => {
  it.each([
    ['SOAP 1.1', SOAP11, 'soap:Client'],
    ['SOAP 1.2', SOAP12, 'soap:Sender'],
  ])('malformed XML -> %s client fault', async (_name, envNs, code) => {
    const post = envNs === SOAP11 ? soap11Post : soap12Post;
    const res = await post(
      server.endpoint,
      envelope(envNs, sendBody(FIELDS)).replace('</soap:Body>', '</soap:Bod>'),
      envNs === SOAP11 ? `"${NS}SMSSend"` : `${NS}SMSSend`,
    );
    const fault = expectFault(res, envNs, code);
    expect(fault.message).toMatch(/not well-formed/);
  });

  it.each([
    ['SOAP 1.1', SOAP11, 'soap:Client'],
    ['SOAP 1.2', SOAP12, 'soap:Sender'],
  ])('a DOCTYPE (XXE attempt) -> %s client fault, nothing expanded', async (_name, envNs, code) => {
    const post = envNs === SOAP11 ? soap11Post : soap12Post;
    const body = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${envelope(envNs, sendBody({ ...FIELDS, smsmsg: '&xxe;' })).replace(/^<\?xml[^>]*\?>/, '')}`;
    const res = await post(server.endpoint, body);
    const fault = expectFault(res, envNs, code);
    expect(fault.message).toMatch(/DOCTYPE/);
    expect(res.text).not.toContain('root:');
  });

  it('an envelope of an unknown version -> VersionMismatch (1.1 for text/xml)', async () => {
    const res = await soap11Post(
      server.endpoint,
      envelope('http://example.com/not-soap', sendBody(FIELDS)),
      `"${NS}SMSSend"`,
    );
    expectFault(res, SOAP11, 'soap:VersionMismatch');
  });

  it('an envelope of an unknown version -> VersionMismatch with Upgrade (1.2 for application/soap+xml)', async () => {
    const res = await soap12Post(server.endpoint, envelope('http://example.com/not-soap', sendBody(FIELDS)));
    const fault = expectFault(res, SOAP12, 'soap:VersionMismatch');
    expect(fault.headerBlocks).toEqual(['Upgrade']);
  });

  it('the envelope namespace decides the version: a 1.2 envelope sent as text/xml is answered in 1.2', async () => {
    const res = await soap11Post(server.endpoint, envelope(SOAP12, sendBody(FIELDS)));
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/soap+xml; charset=utf-8');
  });

  it.each([
    ['SOAP 1.1', SOAP11, '1', 'soap:MustUnderstand'],
    ['SOAP 1.2', SOAP12, 'true', 'soap:MustUnderstand'],
  ])('an unknown mustUnderstand header -> %s MustUnderstand', async (_name, envNs, flag, code) => {
    const post = envNs === SOAP11 ? soap11Post : soap12Post;
    const header = `<x:Security xmlns:x="urn:sec" soap:mustUnderstand="${flag}">t</x:Security>`;
    const res = await post(server.endpoint, envelope(envNs, sendBody(FIELDS), header));
    const fault = expectFault(res, envNs, code);
    expect(fault.message).toContain('{urn:sec}Security');
    if (envNs === SOAP12) expect(fault.headerBlocks).toEqual(['NotUnderstood']);
  });

  it.each([
    ['SOAP 1.1', SOAP11, 'soap:Client'],
    ['SOAP 1.2', SOAP12, 'soap:Sender'],
  ])(
    'a mustUnderstand value that is no boolean -> %s Client fault, the message not processed',
    async (_n, envNs, code) => {
      const post = envNs === SOAP11 ? soap11Post : soap12Post;
      const header = `<x:Ticket xmlns:x="urn:sec" soap:mustUnderstand="yes">t</x:Ticket>`;
      const res = await post(server.endpoint, envelope(envNs, sendBody(FIELDS), header));
      expect(expectFault(res, envNs, code).message).toBe(
        'Header block Ticket: mustUnderstand="yes" is not a boolean (use "1" or "0").',
      );
    },
  );

  it.each([
    ['SOAP 1.1', SOAP11, '1', 'soap:Client'],
    ['SOAP 1.2', SOAP12, 'true', 'soap:Sender'],
  ])('a mandatory header block without a namespace -> %s Client fault, well-formed', async (_n, envNs, flag, code) => {
    const post = envNs === SOAP11 ? soap11Post : soap12Post;
    const header = `<Ticket soap:mustUnderstand="${flag}">t</Ticket>`;
    const res = await post(server.endpoint, envelope(envNs, sendBody(FIELDS), header));
    const fault = expectFault(res, envNs, code);
    expect(fault.message).toContain('Ticket is marked mustUnderstand but has no namespace');
    expect(fault.headerBlocks ?? []).toEqual([]);
  });

  it('an unknown SOAPAction -> Client fault naming it', async () => {
    const res = await soap11Post(server.endpoint, envelope(SOAP11, sendBody(FIELDS)), '"urn:nope"');
    const fault = expectFault(res, SOAP11, 'soap:Client');
    expect(fault.message).toBe('Server did not recognize the value of HTTP Header SOAPAction: urn:nope.');
  });

  it('an unknown SOAP 1.2 action -> Sender fault', async () => {
    const res = await soap12Post(server.endpoint, envelope(SOAP12, sendBody(FIELDS)), 'urn:nope');
    expectFault(res, SOAP12, 'soap:Sender');
  });

  it('an unknown Body element -> Client fault', async () => {
    const res = await soap11Post(server.endpoint, envelope(SOAP11, `<Other xmlns="${NS}"/>`));
    expect(expectFault(res, SOAP11, 'soap:Client').message).toContain(`{${NS}}Other`);
  });

  it('an unexpected child element -> Client fault naming the path', async () => {
    const res = await soap11Post(
      server.endpoint,
      envelope(SOAP11, sendBody({ ...FIELDS, bogus: 'x' })),
      `"${NS}SMSSend"`,
    );
    expect(expectFault(res, SOAP11, 'soap:Client').message).toContain('SMSSend/bogus');
  });

  it('an empty body -> Client fault', async () => {
    expectFault(await soap11Post(server.endpoint, ''), SOAP11, 'soap:Client');
  });

  it.each([
    ['SOAP 1.1', SOAP11, 'soap:Client'],
    ['SOAP 1.2', SOAP12, 'soap:Sender'],
  ])('a ServiceError -> %s client fault with its message and code in the detail', async (_name, envNs, code) => {
    const post = envNs === SOAP11 ? soap11Post : soap12Post;
    const res = await post(server.endpoint, envelope(envNs, sendBody({ ...FIELDS, keyword: 'refuse' })));
    const fault = expectFault(res, envNs, code);
    expect(fault.message).toBe('Invalid credentials.');
    expect(fault.detail).toEqual({ code: 'AUTH_FAILED', retryAfter: '30' });
  });

  it.each([
    ['SOAP 1.1', SOAP11, 'soap:Server'],
    ['SOAP 1.2', SOAP12, 'soap:Receiver'],
  ])(
    'a handler crash -> %s server fault, generic message, logged without request values',
    async (_name, envNs, code) => {
      const before = server.logged.length;
      const post = envNs === SOAP11 ? soap11Post : soap12Post;
      const res = await post(
        server.endpoint,
        envelope(envNs, sendBody({ ...FIELDS, keyword: 'crash', password: 'TOPSECRET' })),
      );
      const fault = expectFault(res, envNs, code);
      expect(fault.message).toBe('Server was unable to process request.');
      expect(res.text).not.toContain('exploded');
      expect(server.logged.length).toBe(before + 1);
      expect(server.logged.at(-1)).toContain('SMSSend');
      expect(server.logged.join('\n')).not.toContain('TOPSECRET');
    },
  );

  it('a result XML cannot carry -> Server fault, logged', async () => {
    const res = await soap11Post(server.endpoint, envelope(SOAP11, sendBody({ ...FIELDS, keyword: 'illegal' })));
    expectFault(res, SOAP11, 'soap:Server');
    expect(server.logged.at(-1)).toContain('CODEC_ILLEGAL_CHAR');
  });
});

describe('HTTP-level errors', () => {
  it('404 for an unknown path and an unknown operation path', async () => {
    expectPlain(await raw(`${server.url}/nothing-here`), 404);
    expectPlain(await raw(`${server.endpoint}/NoSuchOperation?a=1`), 404);
  });

  it('an escaped unreserved character in the path is that character (RFC 3986 §6.2.2.2); an escaped / is not', async () => {
    const query = new URLSearchParams(FIELDS).toString();
    const escaped = server.endpoint.replace('serviceapi.asmx', 'serviceapi%2Easmx');
    expect((await raw(`${escaped}/SMS%53end?${query}`)).status).toBe(200);
    expect((await raw(`${server.endpoint}/SMS%73end?${query}`)).status).toBe(200);
    const soap = await soap11Post(escaped, envelope(SOAP11, sendBody(FIELDS)), `"${NS}SMSSend"`);
    expect(soap.status).toBe(200);
    expect((await raw(escaped)).contentType).toBe('text/html; charset=utf-8');
    expectPlain(await raw(`${server.endpoint}%2FSMSSend?${query}`), 404);
  });

  it('an address with an escaped unreserved character serves its help pages under either spelling', async () => {
    const tilde = await startServer({ basePath: '/%7Euser/serviceapi.asmx' });
    try {
      const origin = new URL(tilde.url).origin;
      for (const path of [
        '/%7Euser/serviceapi.asmx',
        '/~user/serviceapi.asmx',
        '/%7euser/serviceapi.asmx?op=SMSSend',
      ]) {
        const page = await raw(`${origin}${path}`);
        expect([path, page.status, page.contentType]).toEqual([path, 200, 'text/html; charset=utf-8']);
      }
    } finally {
      await tilde.close();
    }
  });

  it('405 with Allow for a wrong method', async () => {
    const put = await raw(server.endpoint, { method: 'PUT', body: 'x' });
    expectPlain(put, 405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    const del = await raw(`${server.endpoint}/SMSSend`, { method: 'DELETE' });
    expectPlain(del, 405);
    expect(del.headers.allow).toBe('GET, POST');
    // GET is allowed here, and answers: the help page (test/runtime/help-pages.test.ts).
    expect((await raw(server.endpoint)).status).toBe(200);
  });

  it('HEAD: the help pages and the WSDL with the header fields GET gives them and no content', async () => {
    for (const url of [server.endpoint, `${server.endpoint}?WSDL`, `${server.endpoint}?op=SMSSend`]) {
      const get = await raw(url);
      const head = await raw(url, { method: 'HEAD' });
      expect(get.status).toBe(200);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.contentType).toBe(get.contentType);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    }
  });

  it('HEAD on an HTTP GET operation does not run it: 405, and its Allow leaves HEAD out', async () => {
    const query = new URLSearchParams(FIELDS).toString();
    // The same request as GET runs the operation (the echo handler answers 200).
    expect((await raw(`${server.endpoint}/SMSSend?${query}`)).status).toBe(200);
    const head = await raw(`${server.endpoint}/SMSSend?${query}`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET, POST');
    expect(head.text).toBe('');
  });

  it('GET without a page: 404 where GET is allowed (?wsdl), else 405 with an Allow that leaves GET out', async () => {
    const pagesOff = await startServer({ helpPages: 'off' });
    try {
      expectPlain(await raw(pagesOff.endpoint), 404);
      expect((await raw(`${pagesOff.endpoint}?wsdl`)).status).toBe(200);
    } finally {
      await pagesOff.close();
    }
    const bare = await listen(
      createRequestListener(
        serviceApiDescriptor,
        { SMSSend: () => ({}), SMSSendToPort: () => ({}) },
        { helpPages: 'off' },
      ),
      {},
    );
    try {
      const get = await raw(`${bare.url}/serviceapi.asmx`);
      expectPlain(get, 405, /^Method not allowed\. Use POST\.$/);
      expect(get.headers.allow).toBe('POST');
    } finally {
      await bare.close();
    }
  });

  it('415 for an unsupported content type', async () => {
    expectPlain(
      await raw(server.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      415,
      /Unsupported content type: application\/json/,
    );
    expectPlain(
      await raw(`${server.endpoint}/SMSSend`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'a=1',
      }),
      415,
    );
    expectPlain(
      await raw(server.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=iso-8859-1' },
        body: '<a/>',
      }),
      415,
      /charset/,
    );
  });

  it('GET/POST: a missing parameter -> 500 text/plain one line (ASMX, the default)', async () => {
    const { smsto: _s, ...rest } = FIELDS;
    const get = await raw(`${server.endpoint}/SMSSend?${new URLSearchParams(rest)}`);
    expectPlain(get, 500, /^Missing parameter: smsto\.$/);
    expect(get.headers['x-smskit-fault-code']).toBe('Client');
    const post = await raw(`${server.endpoint}/SMSSendToPort`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(FIELDS).toString(),
    });
    expectPlain(post, 500, /^Missing parameter: port\.$/);
  });

  it("GET/POST with httpMissingParameters 'pass': an absent optional parameter reaches the handler as undefined", async () => {
    const passing = await startServer({ httpMissingParameters: 'pass' });
    try {
      const { smsto: _s, ...rest } = FIELDS;
      for (const res of [
        await raw(`${passing.endpoint}/SMSSend?${new URLSearchParams(rest)}`),
        await raw(`${passing.endpoint}/SMSSend`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(rest).toString(),
        }),
      ]) {
        expect(res.status).toBe(200);
        expect(res.text).toContain(JSON.stringify(rest));
      }
    } finally {
      await passing.close();
    }
  });

  it("GET/POST: a missing required parameter is refused even with httpMissingParameters 'pass'", async () => {
    const strict = await startStrictServer('pass');
    try {
      const get = await raw(`${strict.url}/serviceapi.asmx/SMSSendToPort?${new URLSearchParams(FIELDS)}`);
      expectPlain(get, 500, /^Missing parameter: port\.$/);
      expect(get.headers['x-smskit-fault-code']).toBe('Client');
      const post = await raw(`${strict.url}/serviceapi.asmx/SMSSendToPort`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(FIELDS).toString(),
      });
      expectPlain(post, 500, /^Missing parameter: port\.$/);
    } finally {
      await strict.close();
    }
  });

  it('GET/POST: a parameter given twice is refused, never one of its values dropped', async () => {
    const twice = `${new URLSearchParams(FIELDS)}&smsto=%2B447700900123`;
    const get = await raw(`${server.endpoint}/SMSSend?${twice}`);
    expectPlain(get, 500, /^Invalid value for parameter: smsto\. It is given more than once\.$/);
    const post = await raw(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: twice,
    });
    expectPlain(post, 500, /^Invalid value for parameter: smsto\. It is given more than once\.$/);
  });

  it('GET/POST: parameter names match without regard to case, as ASMX reads them', async () => {
    const shouted = new URLSearchParams(
      Object.entries(FIELDS).map(([k, v]): [string, string] => [k.toUpperCase(), v]),
    ).toString();
    const get = await raw(`${server.endpoint}/SMSSend?${shouted}`);
    expect([get.status, get.contentType]).toEqual([200, 'text/xml; charset=utf-8']);
    const post = await raw(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: shouted,
    });
    expect(post.status).toBe(200);
    // Two spellings of one name are one name given twice.
    const twice = await raw(`${server.endpoint}/SMSSend?${new URLSearchParams(FIELDS)}&SMSTO=%2B1556`);
    expectPlain(twice, 500, /^Invalid value for parameter: smsto\. It is given more than once\.$/);
  });

  it('GET/POST: a name without = is no value for it (ASMX: Missing parameter), on both bindings', async () => {
    const { keyword: _k, ...rest } = FIELDS;
    const text = `keyword&${new URLSearchParams(rest)}`;
    expectPlain(await raw(`${server.endpoint}/SMSSend?${text}`), 500, /^Missing parameter: keyword\.$/);
    const post = await raw(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: text,
    });
    expectPlain(post, 500, /^Missing parameter: keyword\.$/);
    // `keyword=` is the empty string, which the contract allows.
    expect((await raw(`${server.endpoint}/SMSSend?keyword=&${new URLSearchParams(rest)}`)).status).toBe(200);
  });

  it('GET/POST: a malformed %u escape refuses the call only in a parameter the operation reads', async () => {
    const tracked = await raw(`${server.endpoint}/SMSSend?${new URLSearchParams(FIELDS)}&utm=100%up`);
    expect(tracked.status).toBe(200);
    const own = `${new URLSearchParams({ ...FIELDS, smsmsg: 'x' })}`.replace('smsmsg=x', 'smsmsg=100%up');
    const refused = await raw(`${server.endpoint}/SMSSend?${own}`);
    expectPlain(refused, 500, /^Invalid value for parameter: smsmsg\. "%up" is a %u escape without four hex digits\.$/);
  });

  it('POST: a form in another charset than UTF-8 -> 415, its text never read as UTF-8', async () => {
    const res = await raw(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
      body: `${new URLSearchParams({ ...FIELDS, smsmsg: 'x' })}`.replace('smsmsg=x', 'smsmsg=H%E9llo'),
    });
    expectPlain(res, 415, /^Unsupported charset: iso-8859-1\. Use utf-8\.$/);
    const utf16Form = await raw(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' },
      body: Buffer.from(new URLSearchParams(FIELDS).toString(), 'utf16le'),
    });
    expectPlain(utf16Form, 415, /^Unsupported charset: utf-16\. Use utf-8\.$/);
  });

  it('GET/POST: an invalid parameter value -> 500 text/plain one line', async () => {
    const strict = await startStrictServer();
    try {
      const get = await raw(
        `${strict.url}/serviceapi.asmx/SMSSendToPort?${new URLSearchParams({ ...FIELDS, port: 'eighty' })}`,
      );
      expectPlain(get, 500, /^Invalid value for parameter: port\.$/);
    } finally {
      await strict.close();
    }
  });

  it('GET/POST: a ServiceError -> 500 text/plain with its message; a crash -> generic message', async () => {
    const refused = await raw(`${server.endpoint}/SMSSend?${new URLSearchParams({ ...FIELDS, keyword: 'refuse' })}`);
    expectPlain(refused, 500, /^Invalid credentials\.$/);
    expect(refused.headers['x-smskit-fault-code']).toBe('Client');
    expect(refused.headers['x-smskit-error-code']).toBe('AUTH_FAILED');
    const crash = await raw(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...FIELDS, keyword: 'crash' }).toString(),
    });
    expectPlain(crash, 500, /^Server was unable to process request\.$/);
  });

  it('413 for a body over the limit: declared Content-Length, refused before reading', async () => {
    const res = await raw(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: Buffer.alloc(65 * 1024, 0x20),
    });
    expectPlain(res, 413);
  });

  it('413 for a chunked body that grows over the limit', async () => {
    const answer = await rawSocket(server.url, [
      'POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n',
      ...Array.from({ length: 20 }, () => `1000\r\n${' '.repeat(4096)}\r\n`),
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 413 /);
  });

  it('431 for a query string of megabytes, answered before the client has finished sending', async () => {
    const answer = await rawSocket(server.url, [
      `GET /serviceapi.asmx/SMSSend?smsmsg=${'A'.repeat(4 * 1024 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 431 /);
  });

  it('408 when the body is too slow', async () => {
    const answer = await rawSocket(server.url, [
      'POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 100\r\n\r\n<soap',
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 408 /);
  });

  it('408 when the headers are too slow (slowloris)', async () => {
    const answer = await rawSocket(server.url, ['POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\n']);
    expect(answer).toMatch(/^HTTP\/1.1 408 /);
  });
});

/** `text` in UTF-16 of the given byte order, with or without a byte-order mark (U+FEFF first). */
function utf16(text: string, order: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from(bom ? `\uFEFF${text}` : text, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

/** A SOAP envelope declaring UTF-16, as a .NET client writing through a UTF-16 XmlWriter sends it. */
function utf16Envelope(envNs: string, fields: Record<string, string>): string {
  return envelope(envNs, sendBody(fields)).replace('encoding="utf-8"', 'encoding="utf-16"');
}

describe('request charsets: UTF-8 and UTF-16 (XML 1.0 §4.3.3, WS-I BP R4003), the HTTP charset over the declaration', () => {
  const VERSIONS = [
    ['SOAP 1.1', SOAP11, 'text/xml', 'soap:Client'],
    ['SOAP 1.2', SOAP12, 'application/soap+xml', 'soap:Sender'],
  ] as const;
  const post = (contentType: string, body: Buffer): Promise<RawResponse> =>
    raw(server.endpoint, { method: 'POST', headers: { 'content-type': contentType }, body });
  const utf8Answer = (envNs: string, fields: Record<string, string>): Promise<RawResponse> =>
    (envNs === SOAP11 ? soap11Post : soap12Post)(server.endpoint, envelope(envNs, sendBody(fields)));
  const INTERNATIONAL = { ...FIELDS, smsmsg: 'Grüße 你好 📱' };

  describe.each(VERSIONS)('%s', (_name, envNs, mediaType) => {
    it.each([
      ['charset=utf-16, UTF-16LE with a BOM', 'charset=utf-16', 'le', true],
      ['charset=utf-16, UTF-16BE with a BOM', 'charset=utf-16', 'be', true],
      ['charset=utf-16le without a BOM (RFC 2781 §3.3)', 'charset=utf-16le', 'le', false],
      ['charset=utf-16be without a BOM', 'charset=utf-16be', 'be', false],
      ['no charset, UTF-16LE found by its BOM (XML 1.0 Appendix F)', '', 'le', true],
      ['no charset, UTF-16BE found by its BOM', '', 'be', true],
    ] as const)(
      '%s: read exactly as the UTF-8 equivalent, non-ASCII text intact',
      async (_case, charset, order, bom) => {
        const contentType = charset === '' ? mediaType : `${mediaType}; ${charset}`;
        const res = await post(contentType, utf16(utf16Envelope(envNs, INTERNATIONAL), order, bom));
        expect(res.status).toBe(200);
        expect(res.text).toContain(`<SMSSendResult>${JSON.stringify(INTERNATIONAL)}</SMSSendResult>`);
        expect(res.text).toBe((await utf8Answer(envNs, INTERNATIONAL)).text);
      },
    );

    it('charset=utf-8 on an ASCII body whose declaration names iso-8859-1: the HTTP charset wins (RFC 7303 §3)', async () => {
      const body = envelope(envNs, sendBody(FIELDS)).replace('encoding="utf-8"', 'encoding="iso-8859-1"');
      const res = await post(`${mediaType}; charset=utf-8`, Buffer.from(body, 'latin1'));
      expect(res.status).toBe(200);
      expect(res.text).toBe((await utf8Answer(envNs, FIELDS)).text);
    });
  });

  it.each(VERSIONS)(
    '%s: UTF-16 that cannot be read -> a Client fault in its version, never a 500 Server fault',
    async (_name, envNs, mediaType, code) => {
      const good = utf16(utf16Envelope(envNs, FIELDS), 'le', true);
      const loneSurrogate = Buffer.concat([good.subarray(0, 40), Buffer.from([0x00, 0xd8]), good.subarray(40)]);
      for (const [contentType, body] of [
        [`${mediaType}; charset=utf-16`, good.subarray(0, good.length - 1)], // an odd number of bytes
        [`${mediaType}; charset=utf-16`, loneSurrogate], // a high surrogate with no low one after it
        [mediaType, Buffer.concat([good, Buffer.from([0x3c])])], // found by its BOM, then an odd byte
      ] as const) {
        const fault = expectFault(await post(contentType, body), envNs, code);
        expect(fault.message).toMatch(
          /^Server was unable to read the request: unsupported encoding \(line \d+, column \d+\)\.$/,
        );
      }
      // UTF-8 labelled utf-16 (no BOM, so big-endian: RFC 2781 §4.3) is no XML at all.
      const mislabelled = await post(`${mediaType}; charset=utf-16`, Buffer.from(envelope(envNs, sendBody(FIELDS))));
      expect(expectFault(mislabelled, envNs, code).message).toMatch(/^Server was unable to read the request: /);
    },
  );

  it('the body limit counts the bytes received: a UTF-16 body over it is refused (413) though its UTF-8 form fits', async () => {
    const fields = { ...FIELDS, smsmsg: 'x'.repeat(40 * 1024) };
    expect((await utf8Answer(SOAP11, fields)).status).toBe(200);
    const res = await post('text/xml; charset=utf-16', utf16(utf16Envelope(SOAP11, fields), 'le', true));
    expectPlain(res, 413, /^Request body too large \(limit 65536 bytes\)\.$/);
  });

  it('another charset -> 415 naming it and the two a SOAP body may use', async () => {
    for (const charset of ['iso-8859-1', 'utf-32', 'windows-1252']) {
      const res = await post(`text/xml; charset=${charset}`, Buffer.from(envelope(SOAP11, sendBody(FIELDS))));
      expectPlain(res, 415, new RegExp(`^Unsupported charset: ${charset}\\. Use utf-8 or utf-16\\.$`));
    }
  });
});

describe('?wsdl', () => {
  it('serves the contract, case-insensitively, with addresses rewritten to the Host used', async () => {
    for (const query of ['wsdl', 'WSDL', 'Wsdl']) {
      const res = await raw(`${server.endpoint}?${query}`);
      expect(res.status).toBe(200);
      expect(res.contentType).toBe('text/xml; charset=utf-8');
      const locations = [...res.text.matchAll(/<(?:soap|soap12|http):address location="([^"]*)"/g)].map((m) => m[1]);
      expect(locations).toEqual(Array(4).fill(server.endpoint));
      expect(res.text).toContain('soapAction="http://smskit.dev/serviceapi/SMSSend"');
    }
    const viaHost = await raw(`${server.endpoint}?wsdl`, { headers: { host: 'sms.example.com:8443' } });
    expect(viaHost.text).toContain('location="http://sms.example.com:8443/serviceapi.asmx"');
  });

  it('does not trust X-Forwarded-Proto by default, and refuses a Host that is no host[:port] (400, never echoed)', async () => {
    const res = await raw(`${server.endpoint}?wsdl`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.text).not.toContain('https://');
    expect(res.text).toContain(`location="${server.endpoint}"`);
    const evil = await raw(`${server.endpoint}?wsdl`, { headers: { host: 'evil"><x' } });
    expectPlain(evil, 400, /^Bad request: the Host header is not a host\[:port\]\.$/);
    expect(evil.text).not.toContain('evil');
  });

  it('refuses a request with two Host lines (400: RFC 9112 §3.2)', async () => {
    const answer = await rawSocket(server.url, [
      'GET /serviceapi.asmx?wsdl HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 400 /);
    expect(answer).toContain('more than one Host header');
  });

  it("serves a request in absolute form (through a proxy), the target's authority standing for Host", async () => {
    const { host } = new URL(server.url);
    const answer = await rawSocket(server.url, [
      `GET http://sms.example.com:8443/serviceapi.asmx?wsdl HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 200 /);
    expect(answer).toContain('location="http://sms.example.com:8443/serviceapi.asmx"');
    const send = await rawSocket(server.url, [
      `GET ${server.endpoint}/SMSSend?${new URLSearchParams(FIELDS)} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(send).toMatch(/^HTTP\/1.1 200 /);
  });

  it('serves the contract for a wsdl parameter among others or with a value, as ASMX does', async () => {
    for (const query of ['wsdl&x=1', 'WSDL=', 'x=1&wsdl']) {
      const res = await raw(`${server.endpoint}?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.contentType, query).toBe('text/xml; charset=utf-8');
      expect(res.text, query).toContain('<wsdl:definitions');
    }
  });
});

/**
 * Writes raw HTTP pieces over a socket and returns what the server answered, once it closes the
 * connection (bounded by `waitMs`, which only a server that never closes reaches).
 */
function rawSocket(baseUrl: string, pieces: string[], waitMs = 20_000): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    const done = (): void => {
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => {});
    socket.on('connect', () => {
      for (const piece of pieces) if (!socket.destroyed) socket.write(piece);
    });
  });
}

describe('listen and close', () => {
  it('close() waits for in-flight requests, then refuses new connections', async () => {
    let handlerStarted!: () => void;
    const started = new Promise<void>((resolve) => (handlerStarted = resolve));
    let release!: () => void;
    const listener = createRequestListener(serviceApiDescriptor, {
      SMSSend: () => {
        handlerStarted();
        return new Promise((resolve) => (release = () => resolve({ SMSSendResult: 'late but delivered' })));
      },
      SMSSendToPort: () => ({}),
    });
    const slow = await listen(listener, {});
    const inFlight = soap11Post(`${slow.url}/serviceapi.asmx`, envelope(SOAP11, sendBody(FIELDS)), `"${NS}SMSSend"`);
    await started;
    let closed = false;
    const closing = slow.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.text).toContain('late but delivered');
    await closing;
    await expect(raw(`${slow.url}/serviceapi.asmx?wsdl`)).rejects.toThrow();
  });

  it('Expect: 100-continue clients get 100 Continue and then the answer', async () => {
    const body = envelope(SOAP11, sendBody(FIELDS));
    const answer = await rawSocketExchange(
      server.url,
      `POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nSOAPAction: "${NS}SMSSend"\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      body,
    );
    expect(answer).toMatch(/^HTTP\/1.1 100 Continue\r\n\r\nHTTP\/1.1 200 OK/);
  });

  it('Expect: 100-continue with a declared body over the limit gets 413 at once, never 100 Continue', async () => {
    // The server's limit is 64 KiB; the head alone is sent, the body never.
    const answer = await rawSocket(server.url, [
      `POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nSOAPAction: "${NS}SMSSend"\r\nExpect: 100-continue\r\nContent-Length: 100000000\r\n\r\n`,
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 413 /);
    expect(answer).not.toContain('100 Continue');
    expect(answer).toContain('Request body too large (limit 65536 bytes).');
  });

  it('conflicting Content-Length and Transfer-Encoding (smuggling shape) is refused with 400', async () => {
    const answer = await rawSocket(server.url, [
      'POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 400 /);
  });
});

/** Sends the head, waits for `100 Continue`, then the body; returns everything answered. */
function rawSocketExchange(baseUrl: string, head: string, body: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    let sentBody = false;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, 20_000);
    socket.on('data', (d) => {
      answer += d.toString('utf8');
      if (!sentBody && answer.includes('100 Continue\r\n\r\n')) {
        sentBody = true;
        socket.write(body);
      }
      if (/\r\n\r\n[\s\S]*<\/soap:Envelope>$/.test(answer)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', () => {});
    socket.on('connect', () => socket.write(head));
  });
}

describe('clients that go away', () => {
  it('mid-request on every binding: no crash, the handler signal aborts, the server keeps serving', async () => {
    let started = 0;
    let aborted = 0;
    const listener = createRequestListener(serviceApiDescriptor, {
      // Answers only when its client has gone away (or, as a bound, after a minute).
      SMSSend: (_input: unknown, ctx) =>
        new Promise((resolve) => {
          started++;
          const timer = setTimeout(() => resolve({ SMSSendResult: 'x' }), 60_000);
          ctx.signal.addEventListener('abort', () => {
            aborted++;
            clearTimeout(timer);
            resolve({ SMSSendResult: 'x' });
          });
        }),
      SMSSendToPort: () => ({}),
    });
    const s = await listen(listener, {});
    const form = new URLSearchParams(FIELDS).toString();
    const soap = envelope(SOAP11, sendBody(FIELDS));
    const { port } = new URL(s.url);
    const sockets = [
      `GET /serviceapi.asmx/SMSSend?${form} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `POST /serviceapi.asmx/SMSSend HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
      `POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(soap)}\r\n\r\n${soap}`,
      `POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 1000\r\n\r\n<soap:Env`,
    ].map((request) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
      socket.on('error', () => {});
      return socket;
    });
    try {
      // The three complete requests are in their handler (the fourth waits for its body): go away.
      await waitFor('3 handlers started', () => started === 3);
      for (const socket of sockets) socket.destroy();
      await waitFor('3 handler signals aborted', () => aborted === 3);
      const after = await raw(`${s.url}/serviceapi.asmx?wsdl`);
      expect(after.status).toBe(404); // no wsdl configured here: still answering
      expect(started).toBe(3);
    } finally {
      for (const socket of sockets) socket.destroy();
      await s.close();
    }
  });
});

/** The serviceapi descriptor with SMSSendToPort's `port` required and typed int (to reach the parameter errors). */
async function startStrictServer(
  httpMissingParameters: 'refuse' | 'pass' = 'refuse',
): Promise<Awaited<ReturnType<typeof listen>>> {
  const d = structuredClone(serviceApiDescriptor) as typeof serviceApiDescriptor;
  const wrapper = d.types[`element:{${NS}}SMSSendToPort`] as unknown as {
    fields: { prop: string; minOccurs: number; value: unknown }[];
  };
  const port = wrapper.fields.find((f) => f.prop === 'port')!;
  port.minOccurs = 1;
  port.value = { kind: 'primitive', xsd: 'int' };
  return listen(
    createRequestListener(
      d,
      {
        SMSSend: () => ({}),
        SMSSendToPort: (input: { port: number }) => ({ SMSSendToPortResult: String(input.port) }),
      },
      { httpMissingParameters },
    ),
    {},
  );
}
