/**
 * Differential test of the SOAP shape decoder (runtime/soap/shape-decoder.ts) against the generic
 * path: a server-side SoapRequestDecoder, fed the same envelope shapes again and again with
 * random texts and SOAP actions, must give for every request exactly what decodeSoapDocument
 * gives on readXml's tree — the same decoded input, or the same fault, or the same XmlReadError.
 * Shapes: the contract's SMSSend/SMSSendToPort (SOAP 1.1 and 1.2, compact and pretty-printed,
 * empty elements) and a typed operation (int, boolean, enumeration, dateTime) whose values the
 * codecs can refuse; plus the shapes no shape decoder is made for (Header, attributes, repeated fields).
 */
import { describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import type { FieldDescriptor, PrimitiveName, ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';
import { parseContentType } from '../../runtime/content-type.js';
import { compileRoutes, lookupRoute } from '../../runtime/server/routes.js';
import { decodeSoapDocument, type SoapDecoded } from '../../runtime/soap/envelope.js';
import { SoapRequestDecoder } from '../../runtime/soap/request-decoder.js';
import { soap11 } from '../../runtime/soap-version/soap11.js';
import { soap12 } from '../../runtime/soap-version/soap12.js';
import { readXml } from '../../runtime/xml/reader.js';
import { XmlReadError } from '../../runtime/xml/errors.js';
import { ServiceAPIDescriptor } from '../../generated/service-api/index.js';
import { seeded } from '../helpers/xml-differential.js';

const NS = 'http://smskit.dev/serviceapi/';
const TNS = 'urn:test:typed';
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';

const field = (local: string, value: ValueDescriptor, extra: Partial<FieldDescriptor> = {}): FieldDescriptor => ({
  prop: local,
  name: { ns: TNS, local },
  value,
  minOccurs: 0,
  maxOccurs: 1,
  nillable: false,
  ...extra,
});
const prim = (xsd: PrimitiveName): ValueDescriptor => ({ kind: 'primitive', xsd });

/** One operation whose fields the codecs can refuse. */
const typed: ServiceDescriptor = {
  name: 'Typed',
  targetNamespace: TNS,
  bindings: [
    {
      name: 'TypedSoap',
      protocol: 'soap11',
      address: 'http://localhost/typed.asmx',
      operations: [
        {
          name: 'Put',
          method: 'put',
          soapAction: `${TNS}/Put`,
          input: { kind: 'element', element: `{${TNS}}Put` },
          output: { kind: 'element', element: `{${TNS}}PutResponse` },
          inputHeaders: [],
          outputHeaders: [],
        },
        {
          name: 'Get',
          method: 'get',
          soapAction: `${TNS}/Get`,
          input: { kind: 'element', element: `{${TNS}}Get` },
          output: { kind: 'element', element: `{${TNS}}PutResponse` },
          inputHeaders: [],
          outputHeaders: [],
        },
      ],
    },
  ],
  elements: {
    [`{${TNS}}Put`]: {
      name: { ns: TNS, local: 'Put' },
      value: { kind: 'type', type: `element:{${TNS}}Put` },
      nillable: false,
    },
    [`{${TNS}}Get`]: {
      name: { ns: TNS, local: 'Get' },
      value: { kind: 'type', type: `element:{${TNS}}Put` },
      nillable: false,
    },
    [`{${TNS}}PutResponse`]: { name: { ns: TNS, local: 'PutResponse' }, value: prim('string'), nillable: false },
  },
  types: {
    [`element:{${TNS}}Put`]: {
      kind: 'complex',
      fields: [
        field('count', prim('int'), { minOccurs: 1 }),
        field('flag', prim('boolean')),
        field('color', { kind: 'type', type: `{${TNS}}Color` }),
        field('at', prim('dateTime')),
        field('note', prim('string')),
        field('tags', prim('string'), { maxOccurs: -1 }),
      ],
      attributes: [],
    },
    [`{${TNS}}Color`]: {
      kind: 'simple',
      name: { ns: TNS, local: 'Color' },
      xsd: 'string',
      enumeration: ['red', 'green'],
    },
  },
} as unknown as ServiceDescriptor;

type Outcome = { decoded: SoapDecoded } | { error: string };

/** What a decode gave, in a comparable form (the endpoint and op by name). */
function comparable(outcome: Outcome): unknown {
  if ('error' in outcome) return outcome;
  const d = outcome.decoded;
  if (!d.ok) return { ok: false, version: d.version.protocol, fault: d.fault };
  return { ok: true, version: d.version.protocol, op: d.op.name, input: d.input, soapHeaders: d.soapHeaders };
}

function attempt(run: () => SoapDecoded): Outcome {
  try {
    return { decoded: run() };
  } catch (error) {
    if (error instanceof XmlReadError) return { error: `${error.code} ${error.line}:${error.column}` };
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

interface Harness {
  readonly byShape: SoapRequestDecoder;
  send(xml: string, version: '1.1' | '1.2', action: string | undefined): { byShape: unknown; reference: unknown };
}

function harness(d: ServiceDescriptor, path: string): Harness {
  const route = lookupRoute(compileRoutes(d, undefined), path)!;
  const byShape = new SoapRequestDecoder(d, undefined);
  return {
    byShape,
    send(xml, version, action) {
      const headers: IncomingHttpHeaders =
        version === '1.1' && action !== undefined ? { soapaction: `"${action}"` } : {};
      const contentType = parseContentType(
        version === '1.1'
          ? 'text/xml; charset=utf-8'
          : `application/soap+xml; charset=utf-8${action === undefined ? '' : `; action="${action}"`}`,
      );
      const hinted = version === '1.1' ? soap11 : soap12;
      const body = Buffer.from(xml);
      return {
        byShape: comparable(attempt(() => byShape.decode(route, hinted, headers, contentType, body))),
        reference: comparable(attempt(() => decodeSoapDocument(d, route, hinted, headers, contentType, readXml(body)))),
      };
    },
  };
}

/** Pretty-printed: the whitespace between the envelope's elements is {w} slots. */
const envelope = (envNs: string, body: string, pretty: boolean): string =>
  pretty
    ? `<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="${envNs}">{w}<soap:Body>{w}${body.replace(/></g, '>{w}<')}{w}</soap:Body>{w}</soap:Envelope>\n`
    : `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}"><soap:Body>${body}</soap:Body></soap:Envelope>`;

/** Fills each {v} of `template` with one of `values`, and each {w} with whitespace (now and then not). */
function fill(template: string, random: (n: number) => number, values: readonly string[]): string {
  const spaces = ['\n  ', ' ', '\t', '\n', '\n    ', 'junk'];
  return template.replace(/\{(\w)\}/g, (_m, kind: string) =>
    kind === 'w'
      ? spaces[random(random(8) === 0 ? spaces.length : spaces.length - 1)]!
      : values[random(values.length)]!,
  );
}

describe('shape decoder agree with the generic path', () => {
  it('the contract: SMSSend and SMSSendToPort over SOAP 1.1 and 1.2, compact and pretty, random texts and actions (4,000 requests)', () => {
    const h = harness(ServiceAPIDescriptor, '/serviceapi.asmx');
    const random = seeded(0xa11ce);
    // Eight shapes at most (the cache holds eight): texts never empty, so they keep their shape.
    const values = [
      'KW',
      'user@example.com',
      's3cret',
      '+14155550123',
      'ATT',
      'Hello',
      'Grüße 📱',
      ' spaced ',
      'a\nb',
      '5000',
      '  ',
      '<',
      '&amp;',
      'x]]>y',
    ];
    const actions = [`${NS}SMSSend`, `${NS}SMSSendToPort`, undefined, `${NS}Unknown`];
    const templates = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => {
      const op = k % 2 === 0 ? 'SMSSend' : 'SMSSendToPort';
      const fields = [
        'keyword',
        'emailAddress',
        'password',
        'smsto',
        'carrierCode',
        'smsmsg',
        ...(op === 'SMSSendToPort' ? ['port'] : []),
      ];
      const body = `<${op} xmlns="${NS}">${fields.map((f, i) => (k >= 6 && i === 2 ? `<${f}/>` : `<${f}>{v}</${f}>`)).join('')}</${op}>`;
      const version: '1.1' | '1.2' = k % 4 < 2 ? '1.1' : '1.2';
      return { version, xml: envelope(version === '1.1' ? S11 : S12, body, k % 3 === 0) };
    });
    let byShape = 0;
    for (let n = 0; n < 4_000; n++) {
      const { version, xml } = templates[random(templates.length)]!;
      const before = h.byShape.shapeDecodedReads;
      const { byShape: got, reference } = h.send(fill(xml, random, values), version, actions[random(actions.length)]);
      expect(got).toEqual(reference);
      if (h.byShape.shapeDecodedReads > before) byShape++;
    }
    expect(byShape).toBeGreaterThan(400); // the shape decoders did answer (not only the generic path)
  });

  it('typed fields the codecs can refuse: a shape decoder declines and the generic path answers (3,000 requests)', () => {
    const h = harness(typed, '/typed.asmx');
    const random = seeded(0xbeef);
    // Mostly valid values, so that shape decoders get made and used; the rest the codecs refuse.
    const bySlot: Record<string, readonly string[]> = {
      count: ['1', '-42', '7', '0', '12', ' 7 ', '2147483648', 'x'],
      flag: ['true', 'false', '0', '1', 'true', 'yes'],
      color: ['red', 'green', 'red', 'green', 'blue'],
      at: ['2026-11-21T10:00:00Z', '2026-01-01T00:00:00+02:00', '2026-11-21T10:00:00Z', 'not a date'],
      note: ['note', 'a & b', 'x', '  '],
    };
    let byShape = 0;
    for (let n = 0; n < 3_000; n++) {
      const op = random(3) === 0 ? 'Get' : 'Put';
      const body = `<${op} xmlns="${TNS}"><count>{count}</count><flag>{flag}</flag><color>{color}</color><at>{at}</at><note>{note}</note></${op}>`;
      const action = random(4) === 0 ? undefined : `${TNS}/${random(2) === 0 ? op : 'Put'}`;
      const xml = envelope(S11, body, false).replace(/\{(\w+)\}/g, (_m, slot: string) =>
        bySlot[slot]![random(bySlot[slot]!.length)]!.replace('&', '&amp;'),
      );
      const before = h.byShape.shapeDecodedReads;
      const { byShape: got, reference } = h.send(xml, '1.1', action);
      expect(got).toEqual(reference);
      if (h.byShape.shapeDecodedReads > before) byShape++;
    }
    expect(byShape).toBeGreaterThan(100);
  });

  it.each([
    [
      'a Header',
      envelope(S11, '<Put xmlns="urn:test:typed"><count>1</count></Put>', false).replace(
        '<soap:Body>',
        '<soap:Header><h xmlns="urn:h">{v}</h></soap:Header><soap:Body>',
      ),
    ],
    ['an attribute on a field', envelope(S11, '<Put xmlns="urn:test:typed"><count a="1">{v}</count></Put>', false)],
    [
      'a repeated field',
      envelope(S11, '<Put xmlns="urn:test:typed"><count>1</count><tags>{v}</tags><tags>{v}</tags></Put>', false),
    ],
    [
      'xsi:nil',
      envelope(
        S11,
        '<Put xmlns="urn:test:typed" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><count>{v}</count><note xsi:nil="true"/></Put>',
        false,
      ),
    ],
  ])('no shape decoder for %s: every request takes the generic path, with the same answers', (_name, template) => {
    const h = harness(typed, '/typed.asmx');
    const random = seeded(7);
    for (let n = 0; n < 200; n++) {
      const { byShape: got, reference } = h.send(fill(template, random, ['1', 'x', '']), '1.1', `${TNS}/Put`);
      expect(got).toEqual(reference);
    }
    expect(h.byShape.shapeDecodedReads).toBe(0);
  });

  it('a shape decoder is not used for another request path that has the same shape', () => {
    const d = ServiceAPIDescriptor;
    const routes = compileRoutes(d, undefined);
    const route = lookupRoute(routes, '/serviceapi.asmx')!;
    const other = { ...route }; // another path's endpoints (same descriptor)
    const decoder = new SoapRequestDecoder(d, undefined);
    const xml = Buffer.from(
      envelope(
        S11,
        `<SMSSend xmlns="${NS}"><keyword>K</keyword><emailAddress>e</emailAddress><password>p</password><smsto>1</smsto><carrierCode>c</carrierCode><smsmsg>m</smsmsg></SMSSend>`,
        false,
      ),
    );
    const ct = parseContentType('text/xml');
    const headers = { soapaction: `"${NS}SMSSend"` };
    for (let i = 0; i < 3; i++) decoder.decode(route, soap11, headers, ct, xml);
    const before = decoder.shapeDecodedReads;
    const decoded = decoder.decode(other, soap11, headers, ct, xml);
    expect(decoder.shapeDecodedReads).toBe(before);
    expect(decoded.ok && decoded.endpoint).toBe(other.soap11);
  });
});
