/**
 * Differential test of the straight-line writer (runtime/codec/plain-writer.ts) against the
 * generic encoder: for random values of plain and non-plain elements, the writer either gives
 * exactly what encodeElement writes for a message's top element, or gives undefined (and the
 * generic path then writes or refuses the value). Valid values of a plain element must take the
 * straight line, or the writer would be a slower detour.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { encodeElement, encodeElementWith } from '../../runtime/codec/index.js';
import { plainWriterFor, simpleWriterFor, type Written } from '../../runtime/codec/plain-writer.js';
import type {
  ComplexTypeDescriptor,
  ElementDescriptor,
  FieldDescriptor,
  PrimitiveName,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { ServiceAPIDescriptor } from '../../generated/service-api/index.js';
import { seeded } from '../helpers/xml-differential.js';

const TNS = 'urn:test:plain';
const prim = (xsd: PrimitiveName, enumeration?: string[]): ValueDescriptor =>
  enumeration === undefined ? { kind: 'primitive', xsd } : { kind: 'primitive', xsd, enumeration };
const field = (local: string, value: ValueDescriptor, extra: Partial<FieldDescriptor> = {}): FieldDescriptor => ({
  prop: local,
  name: { ns: TNS, local },
  value,
  minOccurs: 1,
  maxOccurs: 1,
  nillable: false,
  ...extra,
});
const complex = (fields: FieldDescriptor[], extra: Partial<ComplexTypeDescriptor> = {}): ComplexTypeDescriptor => ({
  kind: 'complex',
  fields,
  attributes: [],
  ...extra,
});

const PLAIN_FIELDS = [
  field('text', prim('string')),
  field('count', prim('int'), { minOccurs: 0 }),
  field('flag', prim('boolean'), { minOccurs: 0, nillable: true }),
  field('colour', prim('string', ['red', 'green'])),
  field('when', prim('dateTime'), { minOccurs: 0 }),
  field('amount', prim('decimal'), { minOccurs: 0 }),
];

const d: ServiceDescriptor = {
  name: 'Plain',
  targetNamespace: TNS,
  bindings: [],
  types: {
    [`{${TNS}}Plain`]: complex(PLAIN_FIELDS),
    [`{${TNS}}Optional`]: complex([field('note', prim('string'), { minOccurs: 0 })]),
    [`{${TNS}}Accented`]: complex([field('prénom', prim('string')), field('größe', prim('int'))]),
    [`{${TNS}}Local`]: complex([
      { ...field('note', prim('string'), { minOccurs: 0 }), name: { ns: '', local: 'note' } },
    ]),
    [`{${TNS}}Attributed`]: complex([field('text', prim('string'))], {
      attributes: [{ prop: 'id', name: { ns: '', local: 'id' }, value: prim('int'), required: false }],
    }),
    [`{${TNS}}Repeated`]: complex([field('text', prim('string'), { maxOccurs: -1 })]),
    [`{${TNS}}Foreign`]: complex([{ ...field('text', prim('string')), name: { ns: 'urn:other', local: 'text' } }]),
    [`{${TNS}}Base`]: complex([field('text', prim('string'))], { derived: [`{${TNS}}Derived`], tag: 'Base' }),
  },
  elements: {},
};
const element = (local: string, type: string, ns = TNS): ElementDescriptor => ({
  name: { ns, local },
  value: { kind: 'type', type: `{${TNS}}${type}` },
  nillable: false,
});

type Outcome = { ok: true; xml: string } | { ok: false };
function generic(el: ElementDescriptor, value: unknown): Outcome {
  try {
    return { ok: true, xml: encodeElement(d, el.name, el.value, value, el.nillable, '', el.name.local, true) };
  } catch {
    return { ok: false };
  }
}

const TEXTS = [
  '',
  'plain',
  'a < b & c > d',
  'line\r\nbreak',
  'bad \u0001 control',
  'snow ☃ man',
  ' spaced ',
  'Crème brûlée & ñandú',
  '📱 sent < 1 min',
  '日本語',
];

/** A writer's text, checked to be as long in UTF-8 as the writer counted. */
function counted(written: Written): string {
  expect(written.bytes, written.text).toBe(Buffer.byteLength(written.text));
  return written.text;
}

function randomFieldValue(pick: (n: number) => number, f: FieldDescriptor): unknown {
  switch (pick(10)) {
    case 0:
      return undefined;
    case 1:
      return pick(4) === 0 ? null : 42;
    default:
      break;
  }
  const xsd = f.value.kind === 'primitive' ? f.value.xsd : 'string';
  if (f.prop === 'colour') return ['red', 'green', 'blue'][pick(3)];
  if (xsd === 'int') return [7, -3, 2 ** 40, 1.5, '12'][pick(5)];
  if (xsd === 'boolean') return [true, false, 'yes'][pick(3)];
  if (xsd === 'dateTime') return ['2026-11-27T10:00:00Z', 'yesterday', new Date(0)][pick(3)];
  if (xsd === 'decimal') return ['12.50', '1e3', 3][pick(3)];
  return TEXTS[pick(TEXTS.length)];
}

function randomValue(pick: (n: number) => number, fields: readonly FieldDescriptor[]): unknown {
  switch (pick(12)) {
    case 0:
      return null;
    case 1:
      return [];
    case 2:
      return 'text';
    case 3:
      return new Uint8Array(2);
    default:
      break;
  }
  const value: Record<string, unknown> = {};
  for (const f of fields) {
    const v = randomFieldValue(pick, f);
    if (v !== undefined || pick(2) === 0) value[f.prop] = v;
  }
  if (pick(10) === 0) value.extra = 'x';
  if (pick(20) === 0) value.$type = 'Base';
  return value;
}

describe('the straight-line writer of plain message elements', () => {
  it('writes exactly what the generic encoder writes, or declines', () => {
    const pick = seeded(20261127);
    const el = element('Plain', 'Plain');
    const writer = plainWriterFor(d, el);
    expect(writer).toBeDefined();
    let written = 0;
    let declined = 0;
    for (let i = 0; i < 20000; i++) {
      const value = randomValue(pick, PLAIN_FIELDS);
      const fast = writer!(value);
      const slow = generic(el, value);
      if (fast === undefined) {
        declined++;
        continue;
      }
      written++;
      expect(slow, JSON.stringify(value)).toEqual({ ok: true, xml: counted(fast) });
    }
    // Both kinds of value occur, so neither branch goes untested.
    expect(written).toBeGreaterThan(100);
    expect(declined).toBeGreaterThan(100);
  });

  it('takes the straight line for every valid value of a plain element', () => {
    const el = element('Plain', 'Plain');
    const writer = plainWriterFor(d, el)!;
    const values = [
      { text: 'a < b & c', colour: 'red' },
      { text: '', colour: 'green', count: 3, flag: false, when: '2026-11-27T10:00:00Z', amount: '12.50' },
      { text: 'snow ☃ man\r\n', colour: 'red', count: undefined },
    ];
    for (const value of values) {
      const slow = generic(el, value);
      expect(slow.ok).toBe(true);
      expect(counted(writer(value)!)).toBe((slow as { xml: string }).xml);
    }
  });

  it('writes an element with no fields given as an empty element, and one outside any namespace without xmlns', () => {
    const optional = plainWriterFor(d, element('Optional', 'Optional'))!;
    expect(counted(optional({})!)).toBe(`<Optional xmlns="${TNS}"/>`);
    expect(optional({})!.text).toBe((generic(element('Optional', 'Optional'), {}) as { xml: string }).xml);
    const local = element('Bare', 'Local', '');
    const bare = plainWriterFor(d, local)!;
    expect(counted(bare({ note: 'n' })!)).toBe('<Bare><note>n</note></Bare>');
    expect(bare({ note: 'n' })!.text).toBe((generic(local, { note: 'n' }) as { xml: string }).xml);
  });

  it('counts the bytes of markup that is not ASCII (names and namespaces may be any letters)', () => {
    const named = element('Réponse', 'Accented');
    const writer = plainWriterFor(d, named);
    expect(writer).toBeDefined();
    // A control character cannot be written in XML 1.0: the other differential tests cover its refusal.
    const writable = TEXTS.filter((text) => !text.includes('\u0001'));
    expect(writable.length).toBe(TEXTS.length - 1);
    for (const text of writable) {
      const value = { prénom: text, größe: 3 };
      expect(counted(writer!(value)!)).toBe((generic(named, value) as { xml: string }).xml);
    }
    const simple = simpleWriterFor(d, {
      name: { ns: 'urn:café', local: 'Résultat' },
      value: prim('string'),
      nillable: false,
    })!;
    for (const text of writable) expect(counted(simple(text)!)).toContain('<Résultat xmlns="urn:café">');
  });

  it('is not made for elements outside the plain case', () => {
    for (const type of ['Attributed', 'Repeated', 'Foreign', 'Base'])
      expect(plainWriterFor(d, element(type, type)), type).toBeUndefined();
    const missing: ElementDescriptor = {
      name: { ns: TNS, local: 'X' },
      value: { kind: 'type', type: '{urn:x}Gone' },
      nillable: false,
    };
    expect(plainWriterFor(d, missing)).toBeUndefined();
  });

  it("is made for the contract's request and response wrappers, not for its simple `string` element", () => {
    for (const [key, el] of Object.entries(ServiceAPIDescriptor.elements))
      expect(plainWriterFor(ServiceAPIDescriptor, el) !== undefined, key).toBe(!key.endsWith('}string'));
  });
});

describe('the straight-line writer of simple-typed top elements (HTTP GET/POST results)', () => {
  /** What encodeHttpResponse writes for a simple result through the generic encoder. */
  function genericSimple(el: ElementDescriptor, value: unknown): Outcome {
    try {
      return {
        ok: true,
        xml: encodeElementWith(d, el.name, el.value, value, el.nillable, '', el.name.local, false, ''),
      };
    } catch {
      return { ok: false };
    }
  }

  it('writes exactly what the generic encoder writes, or declines', () => {
    const pick = seeded(20261128);
    let written = 0;
    let declined = 0;
    for (const f of PLAIN_FIELDS) {
      for (const [ns, nillable] of [
        [TNS, false],
        ['', true],
      ] as const) {
        const el: ElementDescriptor = { name: { ns, local: f.prop }, value: f.value, nillable };
        const writer = simpleWriterFor(d, el);
        expect(writer, f.prop).toBeDefined();
        for (let i = 0; i < 2000; i++) {
          const value = randomFieldValue(pick, f);
          const fast = writer!(value);
          const slow = genericSimple(el, value);
          if (fast === undefined) {
            declined++;
            continue;
          }
          written++;
          expect(slow, `${f.prop}: ${JSON.stringify(value)}`).toEqual({ ok: true, xml: counted(fast) });
        }
      }
    }
    expect(written).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(100);
  });

  it("is made for the contract's `string` element and not for complex ones", () => {
    for (const [key, el] of Object.entries(ServiceAPIDescriptor.elements))
      expect(simpleWriterFor(ServiceAPIDescriptor, el) !== undefined, key).toBe(key.endsWith('}string'));
    expect(
      simpleWriterFor(
        ServiceAPIDescriptor,
        ServiceAPIDescriptor.elements[`{${ServiceAPIDescriptor.targetNamespace}}string`]!,
      )!('a<b')?.text,
    ).toBe(`<string xmlns="${ServiceAPIDescriptor.targetNamespace}">a&lt;b</string>`);
  });
});
