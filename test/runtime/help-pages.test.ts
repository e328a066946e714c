/**
 * The help pages and DISCO (runtime/server/help/), over HTTP against real listeners: what each
 * page lists, that every sample request is the wire (sent as shown, with the placeholders filled
 * in, it is answered 200 with a response shaped like the sample response), escaping of WSDL
 * text, the test form's local-only default, and the option that turns the pages off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener, listen, type Listening, type ServiceDescriptor } from '../../runtime/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { ServiceAPIDescriptor } from '../../generated/service-api/descriptor.js';
import { echoHandlers, raw, startServer, WSDL_TEXT } from '../fixtures/runtime/harness.js';
import { richDescriptor } from '../fixtures/runtime/rich-descriptor.js';
import { richHandlers } from '../fixtures/runtime/rich-handlers.js';
import { serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';

/** The SMS service's generated descriptor (its operations are documented), with echo handlers. */
let sms: Listening & { endpoint: string };
let rich: Listening;
beforeAll(async () => {
  const listening = await listen(createRequestListener(ServiceAPIDescriptor, echoHandlers, { wsdl: WSDL_TEXT }), {});
  sms = Object.assign(listening, { endpoint: `${listening.url}/serviceapi.asmx` });
  rich = await listen(createRequestListener(richDescriptor, richHandlers, {}), {});
});
afterAll(async () => {
  await sms.close();
  await rich.close();
});

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
const unescapeText = (text: string): string => text.replace(/&(?:lt|gt|amp|quot|#39);/g, (e) => ENTITIES[e]!);

/** A valid lexical value for a placeholder label (the type name, or `A or B`). */
function fill(label: string): string {
  if (label.includes(' or ')) return label.split(' or ')[0]!;
  if (/^(int|short|long|byte|unsigned\w+|integer)$/.test(label)) return '3';
  if (/^(double|float|decimal)$/.test(label)) return '1.5';
  const fixed: Record<string, string> = {
    boolean: 'true',
    dateTime: '2024-02-29T12:00:00',
    date: '2024-02-29',
    guid: '0f8fad5b-d9cb-469f-a165-70867728950e',
    base64Binary: 'AAE=',
    char: '65',
    xml: 'x',
  };
  return fixed[label] ?? 'v';
}

interface ShownSample {
  readonly request: string;
  readonly response: string;
}

/** The request and response a page shows for one binding, placeholders filled in. */
function sampleOf(page: string, binding: string): ShownSample {
  const section = page.slice(page.indexOf(`<section aria-labelledby="${binding}">`));
  const blocks = [
    ...section.slice(0, section.indexOf('</section>')).matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g),
  ].map((m) =>
    unescapeText(
      m[1]!.replace(/<var>([^<]*)<\/var>/g, (_v, label: string) =>
        encodeURIComponent(fill(unescapeText(label))).replace(/%2B/g, '+'),
      ),
    ),
  );
  expect(blocks.length, `two samples for ${binding}`).toBe(2);
  return { request: blocks[0]!, response: blocks[1]! };
}

/** Sends a sample request as shown (its Host and Content-Length are the client's to set). */
async function send(origin: string, request: string): Promise<Awaited<ReturnType<typeof raw>>> {
  const [head, body] = request.split('\n\n', 2) as [string, string | undefined];
  const [startLine, ...lines] = head.split('\n');
  const [method, path] = startLine!.split(' ') as [string, string];
  const headers: Record<string, string> = {};
  for (const line of lines.filter((l) => l !== '')) {
    const colon = line.indexOf(': ');
    const name = line.slice(0, colon).toLowerCase();
    if (name !== 'host' && name !== 'content-length') headers[name] = line.slice(colon + 2);
  }
  return raw(`${origin}${path}`, {
    method,
    headers,
    ...(method === 'POST' ? { body: decodeURIComponent(body ?? '') } : {}),
  });
}

function elementNames(el: XmlElement, out: string[] = []): string[] {
  out.push(`{${el.ns}}${el.local}`);
  for (const c of el.children) if (c.type === 'element') elementNames(c, out);
  return out;
}

function bodyStructure(text: string): string[] {
  const body = text.slice(text.indexOf('\n\n') + 2);
  return body === '' ? [] : elementNames(readXml(body).root);
}

describe('the service page', () => {
  it('lists the service, its documentation and operations, with links to ?wsdl and ?disco', async () => {
    const res = await raw(sms.endpoint);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<h1>ServiceAPI</h1>');
    expect(res.text).toContain('SMS sending service: SMSSend and SMSSendToPort');
    expect(res.text).toContain('<a href="?op=SMSSend">SMSSend</a>');
    expect(res.text).toContain('<a href="?op=SMSSendToPort">SMSSendToPort</a>');
    expect(res.text).toContain('href="/serviceapi.asmx?wsdl"');
    expect(res.text).toContain('href="/serviceapi.asmx?disco"');
  });

  it('needs no script: none on the page, and the policy allows none', async () => {
    const res = await raw(`${sms.endpoint}?op=SMSSend`);
    expect(res.text).not.toMatch(/<script|\son\w+=/i);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("form-action 'self'");
  });

  it('answers at the address in any case, and without ?wsdl configured links to neither', async () => {
    expect((await raw(sms.endpoint.replace('serviceapi.asmx', 'ServiceAPI.ASMX'))).status).toBe(200);
    const page = (await raw(`${rich.url}/rich.asmx`)).text;
    expect(page).toContain('<a href="?op=EchoOrder">EchoOrder</a>');
    expect(page).not.toContain('?wsdl');
  });
});

describe('an operation page', () => {
  it('shows documentation, typed parameters, the four bindings and the test form', async () => {
    const page = (await raw(`${sms.endpoint}?op=SMSSend`)).text;
    expect(page).toContain('<h1>SMSSend</h1>');
    expect(page).toContain('<p class="doc">Sends one text message');
    expect(page).toContain('<tr><th scope="row"><code>smsto</code></th><td><code>string</code></td>');
    for (const id of ['soap11', 'soap12', 'http-get', 'http-post']) expect(page).toContain(`<h2 id="${id}">`);
    expect(page).toContain('<form method="post" action="/serviceapi.asmx/SMSSend"');
    expect(page).toMatch(/<label for="param-2">password .*<input id="param-2" name="password" type="password"/);
  });

  it('gives the operation lookup a 404 page for an unknown name, escaped', async () => {
    const res = await raw(`${sms.endpoint}?op=${encodeURIComponent('<img src=x>')}`);
    expect(res.status).toBe(404);
    expect(res.text).toContain('&lt;img src=x&gt;');
    expect(res.text).not.toContain('<img');
  });

  it('shows types, enumerations, arrays, headers and xsi:type in samples of a rich contract', async () => {
    const page = (await raw(`${rich.url}/rich.asmx?op=EchoOrder`)).text;
    expect(page).toContain('&lt;Color&gt;<var>Red or Green or Blue</var>&lt;/Color&gt;');
    expect(page).toContain('&lt;Shape xsi:type=&quot;Rectangle&quot;&gt;');
    expect(page).toMatch(/Not available over HTTP GET: the operation EchoOrder cannot be called over http-get/);
    expect((await raw(`${rich.url}/rich.asmx?op=WhoAmI`)).text).toContain(
      '&lt;AuthHeader xmlns=&quot;http://smskit.dev/rich/&quot;&gt;',
    );
  });
});

describe('the samples are the wire', () => {
  const cases: [string, () => string, string, string][] = [
    ...['soap11', 'soap12', 'http-get', 'http-post'].flatMap((b) =>
      ['SMSSend', 'SMSSendToPort'].map((op): [string, () => string, string, string] => [
        `${op} ${b}`,
        () => sms.endpoint,
        op,
        b,
      ]),
    ),
    ...['soap11', 'soap12'].flatMap((b) =>
      ['EchoOrder', 'WhoAmI', 'EchoShapes'].map((op): [string, () => string, string, string] => [
        `rich ${op} ${b}`,
        () => `${rich.url}/rich.asmx`,
        op,
        b,
      ]),
    ),
    ...['soap11', 'soap12', 'http-get', 'http-post'].map((b): [string, () => string, string, string] => [
      `rich SumValues ${b}`,
      () => `${rich.url}/rich.asmx`,
      'SumValues',
      b,
    ]),
    ...['http-get', 'http-post'].map((b): [string, () => string, string, string] => [
      `rich EchoColors ${b}`,
      () => `${rich.url}/rich.asmx`,
      'EchoColors',
      b,
    ]),
  ];
  it.each(cases)('%s: sent as shown, answered 200 like the sample response', async (_name, endpoint, op, binding) => {
    const page = (await raw(`${endpoint()}?op=${op}`)).text;
    const sample = sampleOf(page, binding);
    const res = await send(new URL(endpoint()).origin, sample.request);
    expect(res.status, res.text).toBe(200);
    if (binding === 'http-get' || binding === 'http-post')
      expect(res.contentType).toBe(sample.response.match(/Content-Type: (.*)/)![1]);
    expect(bodyStructure(`x\n\n${res.text}`)).toEqual(bodyStructure(sample.response));
  });
});

describe('a service with HTTP bindings only', () => {
  it('has its pages at the address, with the test form', async () => {
    const d = {
      ...ServiceAPIDescriptor,
      bindings: ServiceAPIDescriptor.bindings.filter((b) => b.protocol.startsWith('http-')),
    };
    const s = await listen(createRequestListener(d, echoHandlers, {}), {});
    try {
      expect((await raw(`${s.url}/serviceapi.asmx`)).text).toContain('(HTTP GET, HTTP POST)');
      const page = (await raw(`${s.url}/serviceapi.asmx?op=SMSSendToPort`)).text;
      expect(page).toContain('<form method="post" action="/serviceapi.asmx/SMSSendToPort"');
      expect(page).not.toContain('<h2 id="soap11">');
      expect(page).toContain('<tr><th scope="row"><code>port</code></th>');
    } finally {
      await s.close();
    }
  });
});

describe('DISCO', () => {
  it('names the contract, the help page and each SOAP binding at the origin the client used', async () => {
    const res = await raw(`${sms.endpoint}?disco`);
    expect(res.contentType).toBe('text/xml; charset=utf-8');
    const root = readXml(res.text).root;
    expect([root.ns, root.local]).toEqual(['http://schemas.xmlsoap.org/disco/', 'discovery']);
    const kids = root.children.filter((c): c is XmlElement => c.type === 'element');
    const attr = (el: XmlElement, name: string) => el.attributes.find((a) => a.local === name)?.value;
    expect(attr(kids[0]!, 'ref')).toBe(`${sms.endpoint}?wsdl`);
    expect(attr(kids[0]!, 'docRef')).toBe(sms.endpoint);
    expect(kids.slice(1).map((k) => [k.ns, attr(k, 'address'), attr(k, 'binding')])).toEqual([
      ['http://schemas.xmlsoap.org/disco/soap/', sms.endpoint, 'q1:ServiceAPISoap'],
      ['http://schemas.xmlsoap.org/disco/soap/', sms.endpoint, 'q2:ServiceAPISoap12'],
    ]);
  });

  it('is not served without a WSDL to point to', async () => {
    expect((await raw(`${rich.url}/rich.asmx?disco`)).status).toBe(404);
  });
});

describe('escaping', () => {
  it('WSDL documentation and names are text, never markup', async () => {
    const d = structuredClone(serviceApiDescriptor) as ServiceDescriptor & {
      bindings: { operations: { documentation?: string }[] }[];
    };
    for (const b of d.bindings)
      for (const op of b.operations) op.documentation = '<script>alert(1)</script> & "quoted"';
    const wsdl = WSDL_TEXT.replace(
      'SMS sending service:',
      '&lt;b onmouseover=x&gt;bold&lt;/b&gt; SMS sending service:',
    );
    const s = await listen(createRequestListener(d, { SMSSend: () => ({}), SMSSendToPort: () => ({}) }, { wsdl }), {});
    try {
      for (const q of ['', '?op=SMSSend']) {
        const page = (await raw(`${s.url}/serviceapi.asmx${q}`)).text;
        expect(page).not.toMatch(/<script|<b /);
        expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;');
      }
      expect((await raw(`${s.url}/serviceapi.asmx`)).text).toContain(
        '&lt;b onmouseover=x&gt;bold&lt;/b&gt; SMS sending service',
      );
    } finally {
      await s.close();
    }
  });
});

describe('the helpPages option', () => {
  it('by default shows the test form to local requests only (a forwarded request is not local)', async () => {
    const forwarded = (await raw(`${sms.endpoint}?op=SMSSend`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).text;
    expect(forwarded).not.toContain('<form');
    expect(forwarded).toContain('The test form is only available for requests from the local machine.');
    expect((await raw(`${sms.endpoint}?op=SMSSend`)).text).toContain('<form');
  });

  it("'test-form' shows it to every client", async () => {
    const s = await startServer({ helpPages: 'test-form' });
    try {
      expect((await raw(`${s.endpoint}?op=SMSSend`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).text).toContain(
        '<form',
      );
    } finally {
      await s.close();
    }
  });

  it("'off' serves no page; ?wsdl and ?disco stay", async () => {
    const s = await startServer({ helpPages: 'off' });
    try {
      expect((await raw(s.endpoint)).status).toBe(404);
      expect((await raw(`${s.endpoint}?op=SMSSend`)).status).toBe(404);
      expect((await raw(`${s.endpoint}?wsdl`)).status).toBe(200);
      const disco = await raw(`${s.endpoint}?disco`);
      expect(disco.status).toBe(200);
      expect(disco.text).not.toContain('docRef');
    } finally {
      await s.close();
    }
  });

  it('refuses an unknown value', () => {
    expect(() =>
      createRequestListener(
        serviceApiDescriptor,
        { SMSSend: () => ({}), SMSSendToPort: () => ({}) },
        { helpPages: 'on' as 'off' },
      ),
    ).toThrow(/helpPages must be one of/);
  });
});
