/**
 * HTTP GET/POST: arrays of simple values as repeated parameters, operations a binding cannot
 * carry (unusable at call time, not routed, while the rest of the binding works), void answers,
 * and nil / empty / absent results as ASMX writes them. The ASMX forms are the rich peer's
 * captures (test/fixtures/asmx/captures/rich) and, for a null `int?` whose result element is
 * shared with a plain `int`, a scratch ASMX service (quoted below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodecError,
  compileHttpOperation,
  createRequestListener,
  listen,
  ServiceClient,
  type Listening,
  type Protocol,
} from '../../runtime/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import { RNS, richDescriptor as d } from '../fixtures/runtime/rich-descriptor.js';
import { richHandlers } from '../fixtures/runtime/rich-handlers.js';
import { readCapture } from '../helpers/asmx-captures.js';
import { documentStructure } from '../helpers/document-structure.js';

const ALL: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const HTTP: readonly Protocol[] = ['http-get', 'http-post'];
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let server: Listening;
let endpoint: string;
beforeAll(async () => {
  server = await listen(createRequestListener(d, richHandlers, { logger: { error: () => {} } }), {});
  endpoint = `${server.url}/rich.asmx`;
});
afterAll(async () => {
  await server.close();
});

async function withClient<T>(binding: Protocol, fn: (client: ServiceClient) => Promise<T>, url = endpoint): Promise<T> {
  const client = new ServiceClient(d, { url, binding });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const request = (binding: Protocol, method: string, input: unknown) => {
  const client = new ServiceClient(d, { url: 'http://localhost/rich.asmx', binding });
  void client.close();
  return client.buildRequest(method, input);
};

describe('arrays as repeated parameters', () => {
  it('the client writes one pair per item, in order, as ASMX reads them (SumValues.get.txt, SumValues.post.txt)', () => {
    const input = { values: [1, 2, 3, -40] };
    expect(request('http-get', 'SumValues', input).path).toBe(
      '/rich.asmx/SumValues?values=1&values=2&values=3&values=-40',
    );
    expect(request('http-post', 'SumValues', input).body).toBe('values=1&values=2&values=3&values=-40');
    const get = readCapture('rich', 'SumValues.get.txt');
    expect(`GET ${request('http-get', 'SumValues', input).path} HTTP/1.1`).toBe(get.request.startLine);
    const path = request('http-get', 'EchoStrings', { items: ['a', '', 'Grüße 你好 📱 <&>"\''] }).path;
    expect(`GET ${path} HTTP/1.1`).toBe(readCapture('rich', 'EchoStrings.get.txt').request.startLine);
  });

  it('a repeated element (maxOccurs > 1) is a repeated parameter too; enumerations are checked', () => {
    expect(request('http-get', 'CountTags', { tag: ['x', 'y'] }).path).toBe('/rich.asmx/CountTags?tag=x&tag=y');
    expect(() => request('http-get', 'EchoColors', { colors: ['Red', 'Purple'] })).toThrow(
      /EchoColors\/colors\[2\]: "Purple" is not one of the allowed values/,
    );
  });

  it.each(HTTP)('%s: an empty array or a null item is refused, not lost', (binding) => {
    const empty = (() => {
      try {
        request(binding, 'SumValues', { values: [] });
      } catch (err) {
        return err;
      }
    })();
    expect(empty).toBeInstanceOf(CodecError);
    expect(empty).toMatchObject({ code: 'CODEC_UNSUPPORTED', path: 'SumValues/values' });
    expect(() => request(binding, 'EchoStrings', { items: ['a', null] })).toThrow(
      /EchoStrings\/items\[2\]: a null item cannot be sent over HTTP GET\/POST/,
    );
    expect(() => request(binding, 'SumValues', { values: 3 })).toThrow(/SumValues\/values: expected an array/);
    // A property that is no parameter is not dropped either.
    expect(() => request(binding, 'SumValues', { values: [1], vaules: [2] })).toThrow(
      /"vaules" is not a parameter of SumValues/,
    );
  });

  it.each(ALL)(
    '%s: arrays of int, string (with an empty item), enum and a repeated element round-trip',
    async (binding) => {
      await withClient(binding, async (client) => {
        expect(await client.call('SumValues', { values: [1, 2, 3, -40] })).toEqual({ SumValuesResult: -34 });
        expect(await client.call('EchoStrings', { items: ['a', '', 'Grüße 你好 📱 <&>"\''] })).toEqual({
          EchoStringsResult: ['a', '', 'Grüße 你好 📱 <&>"\''],
        });
        expect(await client.call('EchoColors', { colors: ['Red', 'Blue', 'Red'] })).toEqual({
          EchoColorsResult: ['Red', 'Blue', 'Red'],
        });
        expect(await client.call('CountTags', { tag: ['x', 'y', 'z'] })).toEqual({ CountTagsResult: 3 });
      });
    },
  );

  it.each([
    ['SumValues', '', 500, 'Missing parameter: values.'],
    ['SumValues', 'values=1&values=two', 500, 'Invalid value for parameter: values.'],
    ['SumValues', 'values=', 500, 'Invalid value for parameter: values.'],
  ])('the server answers %s?%s with %i %s', async (op, query, status, text) => {
    const res = await fetch(`${endpoint}/${op}${query === '' ? '' : `?${query}`}`);
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      status,
      'text/plain; charset=utf-8',
      text,
    ]);
  });

  it('the server reads one empty value as one empty string (EchoStrings.get.one-empty-value.txt)', async () => {
    const res = await fetch(`${endpoint}/EchoStrings?items=`);
    expect(documentStructure(await res.text())).toEqual({ [`{${RNS}}ArrayOfString`]: [{ [`{${RNS}}string`]: [] }] });
  });
});

describe("values ASMX's HTTP readers take in another form than XML", () => {
  const BYTES = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));

  it('byte[] is one parameter per byte (EchoBytes.get.txt), a [Flags] value comma-separated (EchoAccess.get.txt), a char the character (DescribeHttpScalars.get.txt)', () => {
    const bytes = request('http-get', 'EchoBytes', { data: new Uint8Array([0, 1, 2, 255]) }).path;
    const access = request('http-get', 'EchoAccess', { access: 'Read Write' }).path;
    expect(bytes).toBe('/rich.asmx/EchoBytes?data=0&data=1&data=2&data=255');
    expect(access).toBe('/rich.asmx/EchoAccess?access=Read%2CWrite');
    expect(request('http-post', 'EchoBytes', { data: new Uint8Array([0, 1, 2, 255]) }).body).toBe(
      'data=0&data=1&data=2&data=255',
    );
    const scalars = {
      flag: 233,
      amount: '12.50',
      count: -9007199254740993n,
      when: '2024-02-29T23:59:59.5+05:30',
      yes: true,
      ratio: 0.1,
      small: 255,
      s16: -32768,
      f32: 1.5,
      big: 18446744073709551615n,
    };
    expect(request('http-get', 'DescribeHttpScalars', scalars).path).toMatch(
      /\?flag=%C3%A9&amount=12\.50&count=-9007199254740993&/,
    );
    for (const [file, path] of [
      ['EchoBytes.get.txt', bytes],
      ['EchoAccess.get.txt', access],
    ] as const) {
      expect(`GET ${path} HTTP/1.1`).toBe(readCapture('rich', file).request.startLine);
    }
    const described = readCapture('rich', 'DescribeHttpScalars.get.txt');
    expect(described.request.startLine).toContain('?flag=%C3%A9&');
    expect(() => request('http-get', 'EchoBytes', { data: new Uint8Array(0) })).toThrow(
      /EchoBytes\/data: an empty array cannot be sent/,
    );
  });

  it.each(ALL)('%s: byte[], [Flags], char and boolean values round-trip', async (binding) => {
    await withClient(binding, async (client) => {
      expect(await client.call('EchoBytes', { data: BYTES })).toEqual({ EchoBytesResult: BYTES });
      expect(await client.call('EchoAccess', { access: 'Read Write Delete' })).toEqual({
        EchoAccessResult: 'Read Write Delete',
      });
      const out = (await client.call('DescribeHttpScalars', {
        flag: 233,
        amount: '12.50',
        count: 1n,
        when: '2024-02-29T00:00:00',
        yes: false,
        ratio: 0.1,
        small: 255,
        s16: -1,
        f32: 1.5,
        big: 2n,
      })) as { DescribeHttpScalarsResult: string };
      expect(out.DescribeHttpScalarsResult).toBe(
        'flag=233|amount=12.50|count=1|when=2024-02-29T00:00:00|yes=false|ratio=0.1|small=255|s16=-1|f32=1.5|big=2',
      );
    });
  });

  // Each row's body: the whole refusal text, or a piece of the answer only a right parse gives.
  it.each([
    ['EchoBytes?data=AAEC%2Fw%3D%3D', 500, /^Invalid value for parameter: data\.$/], // EchoBytes.get.error-base64.txt
    ['EchoBytes?data=256', 500, /^Invalid value for parameter: data\.$/],
    ['EchoAccess?access=Read+Write', 500, /^Invalid value for parameter: access\.$/], // EchoAccess.get.space-separated.txt
    [
      'DescribeHttpScalars?flag=65&amount=1&count=1&when=2024-02-29&yes=true&ratio=1&small=1&s16=1&f32=1&big=1',
      500,
      /^Invalid value for parameter: flag\.$/,
    ], // ...error-char-as-number.txt
    [
      'DescribeHttpScalars?flag=A&amount=1&count=1&when=2024-02-29&yes=True&ratio=1&small=1&s16=1&f32=1&big=1',
      200,
      /flag=65\|/,
    ],
    ['EchoAccess?access=Read%2C+Delete', 200, />Read Delete<\/Access>/],
  ])('the server answers %s as ASMX does (%i)', async (query, status, want) => {
    const res = await fetch(`${endpoint}/${query}`);
    const body = await res.text();
    expect(res.status).toBe(status);
    expect(body).toMatch(want);
  });
});

describe('operations a binding cannot carry', () => {
  it('a complex parameter makes only that operation unusable: the client is built, the call says why', async () => {
    await withClient('http-get', async (client) => {
      const err = await client.call('EchoOrder', { order: { Version: 1 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CodecError);
      expect(err).toMatchObject({
        code: 'CODEC_UNSUPPORTED',
        path: 'EchoOrder/order',
        message:
          'EchoOrder/order: the operation EchoOrder cannot be called over http-get (binding RichServiceHttpGet): EchoOrder/order: the parameter order is of the complex type Order: HTTP GET/POST carry only simple values and arrays of them',
      });
      expect(await client.call('SumValues', { values: [2] })).toEqual({ SumValuesResult: 2 });
    });
  });

  it.each([
    ['http-get', 'EchoLines', 'parameter lines is of the complex type ArrayOfOrderLine'],
    ['http-post', 'EchoOrder', 'parameter order is of the complex type Order'],
    ['http-post', 'TotalArea', 'parameter shapes is of the complex type ArrayOfShape'],
  ] as const)('%s: %s, left out by the generator, fails with its reason', async (binding, method, reason) => {
    await withClient(binding, async (client) => {
      await expect(client.call(method, {})).rejects.toMatchObject({
        code: 'CODEC_UNSUPPORTED',
        message: `${method}: the operation ${method} cannot be called over ${binding} (binding RichService${binding === 'http-get' ? 'HttpGet' : 'HttpPost'}): ${reason}`,
      });
    });
    await withClient('soap11', async (client) => {
      await expect(client.call('Nope', {})).rejects.toThrow(TypeError);
    });
  });

  it('the server does not route them (an unknown method: 404), and serves the rest', async () => {
    expect((await fetch(`${endpoint}/EchoOrder?order=x`)).status).toBe(404);
    expect(
      (
        await fetch(`${endpoint}/EchoLines`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${endpoint}/SumValues?values=4`)).status).toBe(200);
  });

  it('compileHttpOperation itself still refuses such an operation, with a stable code', () => {
    const op = d.bindings[2]!.operations.find((o) => o.name === 'EchoOrder')!;
    expect(() => compileHttpOperation(d, op)).toThrow(
      expect.objectContaining({ code: 'CODEC_UNSUPPORTED', path: 'EchoOrder/order' }),
    );
  });
});

describe('void, nil, empty and absent results as ASMX writes them', () => {
  it.each(HTTP)(
    '%s: a void operation answers 200 with an empty body and no content type (Ping.get.txt)',
    async (binding) => {
      const res =
        binding === 'http-get'
          ? await fetch(`${endpoint}/Ping`)
          : await fetch(`${endpoint}/Record`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'note=x',
            });
      expect([
        res.status,
        res.headers.get('content-type'),
        res.headers.get('content-length'),
        await res.text(),
      ]).toEqual([200, null, '0', '']);
      await withClient(binding, async (client) => expect(await client.call('Ping', {})).toEqual({}));
    },
  );

  it.each(HTTP)('%s: null, empty and absent results (NullString, NullList, EmptyList, NoOrder)', async (binding) => {
    const get = async (op: string) =>
      (binding === 'http-get'
        ? fetch(`${endpoint}/${op}`)
        : fetch(`${endpoint}/${op}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: '',
          })
      ).then((r) => r.text());
    const root = (xml: string) => readXml(xml).root;
    for (const [op, local] of [
      ['NullString', 'string'],
      ['NullList', 'ArrayOfString'],
      ['NoOrder', 'Order'],
    ] as const) {
      const el = root(await get(op));
      expect([el.local, el.attributes.map((a) => `{${a.ns}}${a.local}=${a.value}`), el.children]).toEqual([
        local,
        [`{${XSI}}nil=true`],
        [],
      ]);
    }
    const empty = root(await get('EmptyList'));
    expect([empty.local, empty.attributes, empty.children]).toEqual(['ArrayOfString', [], []]);
    await withClient(binding, async (client) => {
      // The same output objects as over SOAP: absent (minOccurs=0) results are left out, [] stays [].
      expect(await client.call('NullString', {})).toEqual({});
      expect(await client.call('NullList', {})).toEqual({});
      expect(await client.call('NoOrder', {})).toEqual({});
      expect(await client.call('EmptyList', {})).toEqual({ EmptyListResult: [] });
    });
  });

  it.each(ALL)('%s: the same outputs over SOAP and HTTP for null, empty and absent', async (binding) => {
    await withClient(binding, async (client) => {
      expect(await client.call('NullString', {})).toEqual({});
      expect(await client.call('EmptyList', {})).toEqual({ EmptyListResult: [] });
      expect(await client.call('NullList', {})).toEqual({});
      expect(await client.call('MaybeInt', { s: 'null' })).toEqual({ MaybeIntResult: null });
      expect(await client.call('MaybeInt', { s: 'x' })).toEqual({ MaybeIntResult: 7 });
    });
  });

  // What ASMX (Mono 6.8) answered for `int? MaybeInt(string s)` returning null, in a service
  // that also has a method returning `int`: the WSDL's shared result element `int` is not
  // nillable, and ASMX writes an empty element, no xsi:nil.
  const ASMX_NULL_INT =
    '<?xml version="1.0" encoding="utf-8"?>\n<int xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://smskit.dev/rich/" />';

  it('HTTP: a null int? whose result element is not nillable is written as ASMX writes it (an empty element)', async () => {
    const text = await (await fetch(`${endpoint}/MaybeInt?s=null`)).text();
    expect(documentStructure(text)).toEqual(documentStructure(ASMX_NULL_INT));
    expect(text).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<int xmlns="${RNS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI}"/>`,
    );
    // A plain int result has no declarations, as ASMX writes it (SumValues.get.txt).
    expect(await (await fetch(`${endpoint}/SumValues?values=6`)).text()).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<int xmlns="${RNS}">6</int>`,
    );
  });

  it("HTTP: the client reads ASMX's empty `<int />` and an xsi:nil on the undeclared-nillable element as null, where the result is nullable", async () => {
    const {
      decodeHttpResponse,
      compileHttpOperation: compile,
      soapWrappers,
    } = await import('../../runtime/http/binding.js');
    const op = d.bindings[2]!.operations.find((o) => o.name === 'MaybeInt')!;
    const hop = compile(d, op, soapWrappers(d).get('MaybeInt'));
    const read = (xml: string) =>
      decodeHttpResponse(d, hop, 'http-get', 200, { 'content-type': 'text/xml; charset=utf-8' }, Buffer.from(xml));
    expect(read(ASMX_NULL_INT)).toEqual({ MaybeIntResult: null });
    expect(read(`<int xmlns="${RNS}" xmlns:xsi="${XSI}" xsi:nil="true"/>`)).toEqual({ MaybeIntResult: null });
    expect(read(`<int xmlns="${RNS}">7</int>`)).toEqual({ MaybeIntResult: 7 });
    // Where the result is not nullable, an empty element is still not an int.
    const sum = compile(
      d,
      d.bindings[2]!.operations.find((o) => o.name === 'SumValues')!,
      soapWrappers(d).get('SumValues'),
    );
    expect(() =>
      decodeHttpResponse(d, sum, 'http-get', 200, { 'content-type': 'text/xml' }, Buffer.from(ASMX_NULL_INT)),
    ).toThrow(/"" is not an xs:int/);
  });

  it.each(['soap11', 'soap12'] as const)(
    '%s: empty array vs null array vs nil int as ASMX writes them (EchoStrings.*.empty-array / null-array, EchoNullableInt)',
    async (binding) => {
      const envelope = (body: string) => {
        const client = new ServiceClient(d, { url: 'http://localhost/rich.asmx', binding });
        void client.close();
        return client.buildRequest(
          body,
          body === 'EchoStrings' ? { items: [] } : body === 'NullList' ? {} : { value: null },
        );
      };
      const send = async (method: string) => {
        const req = envelope(method);
        return (
          await fetch(`${server.url}${req.path}`, { method: 'POST', headers: req.headers, body: req.body ?? null })
        ).text();
      };
      expect(await send('EchoStrings')).toContain(
        `<EchoStringsResponse xmlns="${RNS}"><EchoStringsResult/></EchoStringsResponse>`,
      );
      expect(await send('NullList')).toContain(`<NullListResponse xmlns="${RNS}"/>`);
      expect(await send('EchoNullableInt')).toContain(
        `<EchoNullableIntResponse xmlns="${RNS}"><EchoNullableIntResult xsi:nil="true"/></EchoNullableIntResponse>`,
      );
      expect(envelope('EchoStrings').body).toContain(`<EchoStrings xmlns="${RNS}"><items/></EchoStrings>`);
    },
  );
});
