import { describe, expect, it } from 'vitest';
import { toDescriptor } from '../../../contract/descriptor/index.js';
import { generate } from '../../../generator/generate.js';
import { XSD_NS, type WsdlModel } from '../../../contract/model/index.js';
import { attribute, complex, element, named, simple, xs } from '../../fixtures/models/builders.js';
import { NS, oneOperationModel, q } from '../../fixtures/models/one-operation.js';

const typesOf = (model: WsdlModel): string => generate(model, { toolVersion: '0.0.0-test' }).get('t/types.ts')!;
const inline = (type: ReturnType<typeof complex>) => ({ kind: 'inline' as const, type });

/** A request wrapper holding the given fields, plus an empty response wrapper. */
function wrapperModel(
  fields: Parameters<typeof complex>[0],
  types: Parameters<typeof oneOperationModel>[0]['types'] = [],
): WsdlModel {
  return oneOperationModel({
    types,
    elements: [element(q('Req'), inline(complex(fields))), element(q('Resp'), inline(complex([])))],
  });
}

describe('types.ts: XSD -> TypeScript mapping', () => {
  const mapping: [string, { given: string; want: string }][] = [
    ['string', { given: 'string', want: 'string' }],
    ['dateTime stays a string', { given: 'dateTime', want: 'string' }],
    ['duration', { given: 'duration', want: 'string' }],
    ['anyURI', { given: 'anyURI', want: 'string' }],
    ['boolean', { given: 'boolean', want: 'boolean' }],
    ['int', { given: 'int', want: 'number' }],
    ['unsignedByte', { given: 'unsignedByte', want: 'number' }],
    ['double', { given: 'double', want: 'number' }],
    ['long', { given: 'long', want: 'bigint' }],
    ['unsignedLong', { given: 'unsignedLong', want: 'bigint' }],
    ['nonNegativeInteger', { given: 'nonNegativeInteger', want: 'bigint' }],
    ['decimal is exact text', { given: 'decimal', want: 'string' }],
    ['base64Binary', { given: 'base64Binary', want: 'Uint8Array' }],
    ['hexBinary', { given: 'hexBinary', want: 'Uint8Array' }],
  ];
  it.each(mapping)('%s', (_name, { given, want }) => {
    expect(typesOf(wrapperModel([element(q('v'), xs(given))]))).toContain(`  v: ${want};`);
  });

  it('anyType and untyped elements are XmlElement, imported as a type from the runtime', () => {
    const text = typesOf(wrapperModel([element(q('v'), { kind: 'anyType' })]));
    expect(text).toContain("import type { XmlElement } from 'smskit/runtime';");
    expect(text).toContain('  v: XmlElement;');
    expect(text).not.toMatch(/\bany\b(?!Type)/);
  });

  it('an unsupported built-in is refused with its name and location', () => {
    expect(() => typesOf(wrapperModel([element(q('v'), xs('ENTITYX'))]))).toThrow(/ENTITYX/);
  });
});

describe('types.ts: shapes', () => {
  const shapes: [string, { fields: Parameters<typeof complex>[0]; want: string }][] = [
    ['minOccurs=0 -> optional', { fields: [element(q('a'), xs('string'), { minOccurs: 0 })], want: '  a?: string;' }],
    ['nillable -> | null', { fields: [element(q('a'), xs('int'), { nillable: true })], want: '  a: number | null;' }],
    [
      'maxOccurs unbounded -> array',
      { fields: [element(q('a'), xs('string'), { maxOccurs: 'unbounded' })], want: '  a: string[];' },
    ],
    [
      'nillable items',
      {
        fields: [element(q('a'), xs('int'), { maxOccurs: 'unbounded', nillable: true, minOccurs: 0 })],
        want: '  a?: (number | null)[];',
      },
    ],
    ['non-identifier name is quoted', { fields: [element(q('e-mail'), xs('string'))], want: "  'e-mail': string;" }],
    [
      'choice members are optional',
      {
        fields: [
          {
            kind: 'choice',
            minOccurs: 1,
            maxOccurs: 1,
            source: { file: 'f', line: 1 },
            particles: [element(q('x'), xs('string')), element(q('y'), xs('int'))],
          },
        ],
        want: '  y?: number;',
      },
    ],
  ];
  it.each(shapes)('%s', (_name, { fields, want }) => {
    expect(typesOf(wrapperModel(fields))).toContain(want);
  });

  it('ArrayOfX is a T[] alias', () => {
    const arrayOf = complex(undefined, {
      name: q('ArrayOfString'),
      arrayItem: element(q('string'), xs('string'), { minOccurs: 0, maxOccurs: 'unbounded', nillable: true }),
    });
    const text = typesOf(wrapperModel([element(q('list'), named(NS, 'ArrayOfString'), { minOccurs: 0 })], [arrayOf]));
    expect(text).toContain('export type ArrayOfString = (string | null)[];');
    expect(text).toContain('  list?: ArrayOfString;');
  });

  it('enumerations are string-literal unions', () => {
    const currency = simple(xs('string'), { name: q('Currency'), enumeration: ['EUR', 'USD', "it's"] });
    const text = typesOf(wrapperModel([element(q('c'), named(NS, 'Currency'))], [currency]));
    expect(text).toContain("export type Currency = 'EUR' | 'USD' | 'it\\'s';");
    expect(text).toContain('  c: Currency;');
  });

  it('simpleContent is { value; ...attributes }', () => {
    const money = complex(undefined, {
      name: q('Money'),
      simpleContent: xs('decimal'),
      attributes: [attribute(q('currency', ''), xs('string'), 'required'), attribute(q('value', ''), xs('string'))],
    });
    const text = typesOf(wrapperModel([element(q('m'), named(NS, 'Money'))], [money]));
    expect(text).toMatch(
      /export interface Money \{\n.*\n {2}value: string;\n.*\n {2}currency: string;\n.*\n {2}valueAttribute\?: string;\n\}/,
    );
  });

  it('extension: interface extends the base; the descriptor flattens base fields first', () => {
    const base = complex([element(q('id'), xs('int'))], { name: q('Base') });
    const derived = complex([element(q('extra'), xs('string'))], {
      name: q('Derived'),
      base: { name: q('Base'), derivation: 'extension' },
    });
    const model = wrapperModel([element(q('d'), named(NS, 'Derived'))], [base, derived]);
    expect(typesOf(model)).toMatch(/export interface Derived extends Base \{\n.*\n {2}extra: string;\n\}/);
    const types = toDescriptor(model).types;
    const derivedType = types[`{${NS}}Derived`];
    expect(derivedType?.kind === 'complex' ? derivedType.fields.map((f) => f.prop) : []).toEqual(['id', 'extra']);
    expect(types[`{${NS}}Base`]).toMatchObject({ derived: [`{${NS}}Derived`] });
  });

  it('DataSet results (s:schema ref + s:any) are XmlElement', () => {
    const dataSet = complex([
      element(
        { ns: XSD_NS, local: 'schema' },
        { kind: 'anyType' },
        { isSchemaRef: true, ref: { ns: XSD_NS, local: 'schema' } },
      ),
      {
        kind: 'any',
        namespace: '##any',
        processContents: 'lax',
        minOccurs: 1,
        maxOccurs: 1,
        source: { file: 'f', line: 1 },
      },
    ]);
    const text = typesOf(wrapperModel([element(q('GetResult'), inline(dataSet), { minOccurs: 0 })]));
    expect(text).toContain('  GetResult?: XmlElement;');
    expect(text).not.toContain('Req_GetResult');
  });

  it('nested anonymous complex types are named <Parent>_<Child>', () => {
    const text = typesOf(wrapperModel([element(q('item'), inline(complex([element(q('n'), xs('int'))])))]));
    expect(text).toContain('export interface Req_Item {');
    expect(text).toContain('  item: Req_Item;');
  });

  it('an element and a complexType named Country: the type keeps the name', () => {
    const country = complex([element(q('code'), xs('string'))], { name: q('Country') });
    const model = oneOperationModel({
      types: [country],
      elements: [
        element(q('Country'), inline(complex([element(q('c'), named(NS, 'Country'))]))),
        element(q('Resp'), inline(complex([]))),
      ],
    });
    const text = typesOf(model);
    expect(text).toContain('export interface Country {');
    expect(text).toContain('export interface CountryElement {');
    expect(text).toContain('  c: Country;');
    expect(generate(model, { toolVersion: 't' }).get('t/client.ts')).toContain(
      'Op(input: CountryElement, options?: CallOptions): Promise<Resp>',
    );
  });

  it('JSDoc carries the WSDL documentation and the XSD facts', () => {
    const text = typesOf(
      wrapperModel([element(q('a'), xs('string'), { minOccurs: 0, documentation: 'The */ keyword.' })]),
    );
    expect(text).toContain('The *\\/ keyword.');
    expect(text).toContain('Element `{urn:t}a`: xs:string. MinOccurs 0, maxOccurs 1.');
  });
});
