/**
 * Seeded request generation for the fuzz test: valid requests of every binding and operation
 * (the seeds), and mutations of them. Case `i` of seed `s` depends only on (s, i), so one case
 * can be replayed alone (`FUZZ_SEED=s FUZZ_ONLY=i`).
 */
import { contractParams } from '../contract.js';
import { escapeText } from '../../runtime/escape/xml.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS, XSI_NS } from '../../runtime/namespaces.js';

export type Binding = 'soap11' | 'soap12' | 'http-get' | 'http-post';
export type Target = 'sms' | 'checked';

export interface FuzzRequest {
  readonly index: number;
  readonly target: Target;
  readonly binding: Binding;
  method: string;
  /** Path and query below the origin, e.g. `/serviceapi.asmx/SMSSend?keyword=...`. */
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  readonly mutations: string[];
}

export interface Credentials {
  readonly email: string;
  readonly password: string;
  readonly keyword: string;
}

const NS = 'http://smskit.dev/serviceapi/';
const ENV = {
  soap11: SOAP11_ENV_NS,
  soap12: SOAP12_ENV_NS,
} as const;
export const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'http-get', 'http-post'];
/** Every parameter of either operation (SMSSendToPort's are SMSSend's and `port`). */
const FIELD_NAMES = contractParams('SMSSendToPort');

/** sfc32: small, fast, seedable, good enough to choose mutations. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number, stream: number) {
    this.a = seed >>> 0;
    this.b = (stream * 0x9e3779b9) >>> 0;
    this.c = 0x243f6a88 ^ stream;
    this.d = 1;
    for (let i = 0; i < 15; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** A size spread over orders of magnitude: 1 .. max, mostly small. */
  size(max: number): number {
    return Math.max(1, Math.floor(Math.exp(this.next() * Math.log(max))));
  }
}

function validFields(op: string, creds: Credentials, rng: Rng): Record<string, string> {
  const texts = ['Hello', 'Grüße 😀 <&> "quoted"', 'x'.repeat(200), '日本語のテキスト', ''];
  const fields: Record<string, string> = {
    keyword: creds.keyword,
    emailAddress: creds.email,
    password: creds.password,
    smsto: '+1 (415) 555-0123',
    carrierCode: rng.pick(['att', 'auto', 'VERIZON']),
    smsmsg: rng.pick(texts),
  };
  if (op === 'SMSSendToPort') fields.port = rng.pick(['2948', '0', '65535']);
  return fields;
}

/** A valid request of `binding` for `op` (the seed a case mutates). */
export function seedRequest(
  index: number,
  target: Target,
  binding: Binding,
  op: string,
  creds: Credentials,
  rng: Rng,
): FuzzRequest {
  const fields = validFields(op, creds, rng);
  const base = { index, target, binding, mutations: [] as string[] };
  if (binding === 'http-get')
    return {
      ...base,
      method: 'GET',
      path: `/serviceapi.asmx/${op}?${new URLSearchParams(fields)}`,
      headers: {},
      body: undefined,
    };
  if (binding === 'http-post') {
    return {
      ...base,
      method: 'POST',
      path: `/serviceapi.asmx/${op}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams(fields).toString()),
    };
  }
  const children = Object.entries(fields)
    .map(([k, v]) => `<${k}>${escapeText(v, k)}</${k}>`)
    .join('');
  const xml = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENV[binding]}" xmlns:xsi="${XSI_NS}"><soap:Body><${op} xmlns="${NS}">${children}</${op}></soap:Body></soap:Envelope>`;
  const headers: Record<string, string> =
    binding === 'soap11'
      ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"` }
      : { 'content-type': `application/soap+xml; charset=utf-8; action="${NS}${op}"` };
  return { ...base, method: 'POST', path: '/serviceapi.asmx', headers, body: Buffer.from(xml) };
}

type Mutation = (req: FuzzRequest, rng: Rng, creds: Credentials) => void;

// ---------------------------------------------------------------------------------------------
// Byte-level mutations (any body, or the query of a GET)

function bytesOf(req: FuzzRequest): Buffer {
  if (req.body !== undefined) return req.body;
  const q = req.path.indexOf('?');
  return Buffer.from(q < 0 ? '' : req.path.slice(q + 1), 'latin1');
}

function setBytes(req: FuzzRequest, bytes: Buffer): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.body = bytes;
    return;
  }
  // A URL can only carry visible ASCII: percent-encode everything else.
  const q = req.path.indexOf('?');
  const path = q < 0 ? req.path : req.path.slice(0, q);
  let query = '';
  for (const byte of bytes)
    query +=
      byte > 0x20 && byte < 0x7f && byte !== 0x23
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  req.path = `${path}?${query}`;
}

const truncate: Mutation = (req, rng) => {
  const bytes = bytesOf(req);
  setBytes(req, bytes.subarray(0, rng.int(bytes.length + 1)));
};

const flipBytes: Mutation = (req, rng) => {
  const bytes = Buffer.from(bytesOf(req));
  if (bytes.length === 0) return;
  for (let n = rng.size(16); n > 0; n--) {
    const at = rng.int(bytes.length);
    bytes[at] = bytes[at]! ^ (1 << rng.int(8));
  }
  setBytes(req, bytes);
};

const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
  [0x80],
  [0xfe, 0xfe, 0xff],
  [0x00],
];
const invalidUtf8: Mutation = (req, rng) => {
  const bytes = bytesOf(req);
  const at = rng.int(bytes.length + 1);
  setBytes(req, Buffer.concat([bytes.subarray(0, at), Buffer.from(rng.pick(INVALID_UTF8)), bytes.subarray(at)]));
};

const MARKUP = [
  '&#0;',
  '&#xD800;',
  '&#x110000;',
  '&#65;',
  '&bogus;',
  '&amp',
  '&',
  '<![CDATA[x<y]]>',
  '<![CDATA[',
  ']]>',
  '<!-- c -->',
  '<!--',
  '<?pi x?>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE x>',
  '<!DOCTYPE x [<!ENTITY e "v">]>',
  '</',
  '<',
  '>',
  '"',
  "'",
  '=',
  'xmlns:soap="urn:x"',
  ' xsi:nil="true"',
  '<a:b>',
  '\u0000',
  '\u000b',
  '\ufeff',
  '\r\n',
  '%',
  '%zz',
  '%C3%28',
  '+',
  '&=',
];
const insertMarkup: Mutation = (req, rng) => {
  const bytes = bytesOf(req);
  const at = rng.int(bytes.length + 1);
  setBytes(req, Buffer.concat([bytes.subarray(0, at), Buffer.from(rng.pick(MARKUP)), bytes.subarray(at)]));
};

// ---------------------------------------------------------------------------------------------
// XML structure (SOAP bodies)

const LEAF = /<([A-Za-z][\w:.-]*)>[^<]*<\/\1>/g;

function xmlText(req: FuzzRequest): string | undefined {
  return req.body === undefined || (req.binding !== 'soap11' && req.binding !== 'soap12')
    ? undefined
    : req.body.toString('utf8');
}

function leaves(text: string): Array<{ start: number; end: number }> {
  return [...text.matchAll(LEAF)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

const duplicateElement: Mutation = (req, rng) => {
  const text = xmlText(req);
  if (text === undefined) return;
  const all = leaves(text);
  if (all.length === 0) return;
  const leaf = rng.pick(all);
  const copy = text.slice(leaf.start, leaf.end);
  req.body = Buffer.from(text.slice(0, leaf.end) + copy.repeat(rng.size(50)) + text.slice(leaf.end));
};

const reorderElements: Mutation = (req, rng) => {
  const text = xmlText(req);
  if (text === undefined) return;
  const all = leaves(text);
  if (all.length < 2) return;
  const i = rng.int(all.length - 1);
  const a = all[i]!;
  const b = all[i + 1 + rng.int(all.length - i - 1)]!;
  req.body = Buffer.from(
    text.slice(0, a.start) +
      text.slice(b.start, b.end) +
      text.slice(a.end, b.start) +
      text.slice(a.start, a.end) +
      text.slice(b.end),
  );
};

function replaceLeafValue(req: FuzzRequest, rng: Rng, value: (name: string) => string): void {
  const text = xmlText(req);
  if (text === undefined) return;
  const all = leaves(text);
  if (all.length === 0) return;
  const leaf = rng.pick(all);
  const element = text.slice(leaf.start, leaf.end);
  const name = /^<([^>]+)>/.exec(element)![1]!;
  req.body = Buffer.from(`${text.slice(0, leaf.start)}<${name}>${value(name)}</${name}>${text.slice(leaf.end)}`);
}

const hugeElement: Mutation = (req, rng) => {
  // Mostly up to 1 MiB; sometimes just under or over the 4 MiB body limit.
  const size = rng.chance(0.05) ? rng.pick([4 * 1024 * 1024 - 2048, 4 * 1024 * 1024 + 1]) : rng.size(1024 * 1024);
  const unit = rng.pick(['A', 'é', '😀', '&amp;', '<x/>']);
  const value = unit.repeat(Math.ceil(size / Buffer.byteLength(unit)));
  if (xmlText(req) !== undefined) return replaceLeafValue(req, rng, () => value);
  // URLSearchParams writes a lone surrogate (a cut emoji) as U+FFFD instead of throwing.
  if (req.method === 'POST' && req.body !== undefined)
    req.body = Buffer.concat([req.body, Buffer.from(`&${new URLSearchParams({ smsmsg: value })}`)]);
  else req.path += `&${new URLSearchParams({ smsmsg: value.slice(0, rng.size(20_000)) })}`; // a URL over Node's 16 KiB header limit is a 431
};

const deepNesting: Mutation = (req, rng) => {
  const depth = rng.size(20_000);
  const name = rng.pick(['a', 'soap:Body', 'smsmsg', 'x:y']);
  replaceLeafValue(req, rng, () => `${`<${name}>`.repeat(depth)}v${rng.chance(0.8) ? `</${name}>`.repeat(depth) : ''}`);
};

const manyAttributes: Mutation = (req, rng) => {
  const text = xmlText(req);
  if (text === undefined) return;
  const count = rng.size(20_000);
  const duplicate = rng.chance(0.2);
  const attrs = Array.from({ length: count }, (_, i) => ` a${duplicate ? 0 : i}="${i}"`).join('');
  const opens = [...text.matchAll(/<([A-Za-z][\w:.-]*)(?=[\s>])/g)];
  if (opens.length === 0) return;
  const open = rng.pick(opens);
  const at = open.index + open[0].length;
  req.body = Buffer.from(text.slice(0, at) + attrs + text.slice(at));
};

const manyNamespaces: Mutation = (req, rng) => {
  const text = xmlText(req);
  if (text === undefined) return;
  const count = rng.size(20_000);
  const decls = Array.from({ length: count }, (_, i) => ` xmlns:p${i}="urn:ns:${i % 7 === 0 ? '' : i}"`).join('');
  const at = text.indexOf('<soap:Envelope') + '<soap:Envelope'.length;
  req.body = Buffer.from(text.slice(0, at) + decls + text.slice(at));
};

const valueSurprise: Mutation = (req, rng, creds) => {
  const values = [
    '',
    ' ',
    'refuse',
    'crash',
    '\u00a0',
    'a\u0085b',
    '\u{1F600}'.repeat(100),
    `${creds.password}x`,
    `<![CDATA[${creds.password}]]>`,
    '&lt;&amp;&gt;',
    '  +44 7700 900123  ',
  ];
  const value = rng.pick(values);
  if (xmlText(req) !== undefined) return replaceLeafValue(req, rng, () => value);
  const q = new URLSearchParams(
    req.body !== undefined ? req.body.toString('latin1') : req.path.slice(req.path.indexOf('?') + 1),
  );
  q.set(rng.pick(FIELD_NAMES), value);
  if (req.body !== undefined) req.body = Buffer.from(q.toString());
  else req.path = `${req.path.slice(0, req.path.indexOf('?'))}?${q}`;
};

const soapHeaderBlock: Mutation = (req, rng) => {
  const text = xmlText(req);
  if (text === undefined) return;
  const flag = rng.pick(['1', 'true', '0', 'false', 'maybe']);
  const header = `<soap:Header><h:Sec xmlns:h="urn:h" soap:mustUnderstand="${flag}"${rng.chance(0.3) ? ' soap:actor="urn:other" soap:role="urn:other"' : ''}>t</h:Sec></soap:Header>`;
  req.body = Buffer.from(text.replace('<soap:Body>', `${header}<soap:Body>`));
};

const envelopeNamespace: Mutation = (req, rng) => {
  const text = xmlText(req);
  if (text === undefined) return;
  const other = rng.pick([ENV.soap11, ENV.soap12, 'urn:not-soap', '', NS]);
  req.body = Buffer.from(
    rng.chance(0.3)
      ? text.replace(/ xmlns:soap="[^"]*"/, '')
      : text.replace(/xmlns:soap="[^"]*"/, `xmlns:soap="${other}"`),
  );
};

// ---------------------------------------------------------------------------------------------
// Headers, methods, paths, queries and forms

const CONTENT_TYPES = [
  '',
  'text/xml',
  'text/xml; charset=utf-8',
  'TEXT/XML; CHARSET=UTF-8',
  'text/xml; charset=iso-8859-1',
  'text/xml; charset=utf-16',
  'text/xml; charset="utf-8"; x=y',
  'application/soap+xml',
  'application/soap+xml; action=',
  'application/soap+xml; charset=utf-8; action="urn:bogus"',
  'application/soap+xml;;;',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'multipart/form-data; boundary=x',
  'application/json',
  'text/html',
  '*/*',
  ';',
  'text/xml; charset=',
  'text/xml; action="\\"x',
];
const contentType: Mutation = (req, rng) => {
  const value = rng.pick(CONTENT_TYPES);
  if (value === '') delete req.headers['content-type'];
  else req.headers['content-type'] = value;
};

const soapAction: Mutation = (req, rng) => {
  const value = rng.pick([
    '',
    '""',
    '"',
    `${NS}SMSSend`,
    `"${NS}SMSSendToPort"`,
    '"urn:bogus"',
    `"${NS}SMSSend" "${NS}SMSSendToPort"`,
    'x'.repeat(rng.size(8000)),
  ]);
  if (value === '' && rng.chance(0.5)) delete req.headers.soapaction;
  else req.headers.soapaction = value;
};

const extraHeaders: Mutation = (req, rng) => {
  const count = rng.size(200);
  for (let i = 0; i < count; i++) req.headers[`x-fuzz-${i}`] = 'v'.repeat(rng.size(200));
  if (rng.chance(0.3)) req.headers['content-encoding'] = rng.pick(['gzip', 'deflate', 'br', 'identity']);
  if (rng.chance(0.3)) req.headers['accept-charset'] = 'utf-16';
};

const method: Mutation = (req, rng) => {
  const m = rng.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET', 'POST', 'TRACE']);
  req.method = m;
  if (m === 'GET' || m === 'HEAD' || m === 'TRACE') req.body = undefined;
  else req.body ??= Buffer.from('a=b');
};

const path: Mutation = (req, rng) => {
  const q = req.path.indexOf('?');
  const query = q < 0 ? '' : req.path.slice(q);
  const paths = [
    '/',
    '/serviceapi.asmx',
    '/SERVICEAPI.ASMX/smssend',
    '/serviceapi.asmx/',
    '/serviceapi.asmx//SMSSend',
    '/serviceapi.asmx/NoSuchOp',
    '/serviceapi.asmx/../serviceapi.asmx/SMSSend',
    '/serviceapi.asmx/%53MSSend',
    '/serviceapi.asmx/SMSSend/extra',
    '/serviceapi.asmx;x=1',
    `/${'a/'.repeat(rng.size(2000))}`,
    '/serviceapi.asmx/SMSSendToPort',
    '/%2e%2e/%2e%2e/etc/passwd',
  ];
  const chosen = rng.pick(paths);
  req.path = chosen + (rng.chance(0.2) ? rng.pick(['?wsdl', '?WSDL&x=1', '?disco', '?']) : query);
};

/** Keys of a random form or query besides the contract's fields. */
const ODD_PARAM_KEYS = ['', '=', 'KEYWORD', 'x', '%00', 'smsmsg[]', '__proto__', 'constructor', 'hasOwnProperty'];
/** Stands for a run of 'x' in PARAM_VALUES; the run is built only when picked. */
const X_RUN: unique symbol = Symbol('x-run');
const PARAM_VALUES: ReadonlyArray<string | typeof X_RUN> = [
  '',
  'v',
  '%zz',
  '%',
  '%C3%28',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '+',
  '%2B',
  'a%26b%3Dc',
  '%00',
  X_RUN,
];

function randomParamText(rng: Rng, maxBytes: number): string {
  const parts: string[] = [];
  const target = rng.size(maxBytes);
  let length = 0;
  while (length < target && parts.length < 50_000) {
    const key = rng.chance(0.6) ? rng.pick(FIELD_NAMES) : rng.pick(ODD_PARAM_KEYS);
    // The run's length is drawn at every step, picked or not, so that a seed still gives the
    // cases it gave when the run was built at every step (up to 2,000 characters of garbage each).
    const runLength = rng.size(2000);
    const picked = rng.pick(PARAM_VALUES);
    const value = picked === X_RUN ? 'x'.repeat(runLength) : picked;
    const part = rng.chance(0.1) ? key : `${key}=${value}`;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(rng.chance(0.05) ? ';' : '&');
}

const randomQuery: Mutation = (req, rng) => {
  if (req.binding === 'http-get') {
    const q = req.path.indexOf('?');
    req.path = `${q < 0 ? req.path : req.path.slice(0, q)}?${randomParamText(rng, rng.chance(0.1) ? 64 * 1024 : 8 * 1024)}`;
  } else if (req.binding === 'http-post') {
    req.body = Buffer.from(randomParamText(rng, 1024 * 1024));
  } else {
    req.path += `?${randomParamText(rng, 4 * 1024)}`;
  }
};

const crossBinding: Mutation = (req, rng, creds) => {
  // The right body for another binding: SOAP at an operation path, a form at the SOAP address...
  const other = seedRequest(
    req.index,
    req.target,
    rng.pick(BINDINGS),
    rng.pick(['SMSSend', 'SMSSendToPort']),
    creds,
    rng,
  );
  if (rng.chance(0.5)) req.body = req.method === 'GET' ? undefined : other.body;
  else req.headers = { ...other.headers };
};

export const MUTATIONS: ReadonlyArray<readonly [string, Mutation, number]> = [
  ['truncate', truncate, 8],
  ['flip-bytes', flipBytes, 10],
  ['invalid-utf8', invalidUtf8, 8],
  ['insert-markup', insertMarkup, 10],
  ['duplicate-element', duplicateElement, 6],
  ['reorder-elements', reorderElements, 6],
  ['huge-element', hugeElement, 2],
  ['deep-nesting', deepNesting, 3],
  ['many-attributes', manyAttributes, 3],
  ['many-namespaces', manyNamespaces, 2],
  ['value-surprise', valueSurprise, 8],
  ['soap-header', soapHeaderBlock, 4],
  ['envelope-namespace', envelopeNamespace, 4],
  ['content-type', contentType, 6],
  ['soap-action', soapAction, 5],
  ['extra-headers', extraHeaders, 3],
  ['method', method, 3],
  ['path', path, 4],
  ['random-query', randomQuery, 8],
  ['cross-binding', crossBinding, 3],
];
const TOTAL_WEIGHT = MUTATIONS.reduce((sum, [, , w]) => sum + w, 0);

function pickMutation(rng: Rng): readonly [string, Mutation, number] {
  let r = rng.next() * TOTAL_WEIGHT;
  for (const entry of MUTATIONS) {
    r -= entry[2];
    if (r < 0) return entry;
  }
  return MUTATIONS[0]!;
}

/** Case `index` of run `seed`: a seed request with 0-3 mutations (about 1 in 16 stays valid). */
export function fuzzCase(seed: number, index: number, creds: Credentials): FuzzRequest {
  const rng = new Rng(seed, index);
  const target: Target = rng.chance(0.5) ? 'sms' : 'checked';
  const req = seedRequest(index, target, rng.pick(BINDINGS), rng.pick(['SMSSend', 'SMSSendToPort']), creds, rng);
  const count = rng.chance(1 / 16) ? 0 : 1 + rng.int(3);
  for (let i = 0; i < count; i++) {
    const [name, mutate] = pickMutation(rng);
    mutate(req, rng, creds);
    req.mutations.push(name);
  }
  return req;
}
