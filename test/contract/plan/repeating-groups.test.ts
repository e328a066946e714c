/**
 * Table tests: a complex type's repeating groups of several members -> carried typed (one
 * object per occurrence, the property's name, the occurrences) or kept as XML with the reason.
 * A group is typed only where a document's elements say where one occurrence ends and the next
 * begins; every other shape keeps the type as XML rather than guess.
 */
import { describe, expect, it } from 'vitest';
import type { ComplexType } from '../../../contract/model/index.js';
import { repeatingGroups } from '../../../contract/plan/repeating-groups.js';
import { planModel } from '../../../contract/plan/index.js';
import { contractFromText } from '../../../contract/read/index.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';

/** The named complex type `T` of a schema whose content is `content`. */
function typeOf(content: string): ComplexType {
  const model = contractFromText(
    `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${XSD}" xmlns:tns="urn:t" targetNamespace="urn:t">
<wsdl:types><s:schema targetNamespace="urn:t" elementFormDefault="qualified"><s:complexType name="T">${content}</s:complexType></s:schema></wsdl:types></wsdl:definitions>`,
    'mem.wsdl',
  );
  return model.schema.types['{urn:t}T'] as ComplexType;
}

const el = (name: string, occurs = '') => `<s:element name="${name}" type="s:string"${occurs}/>`;
const opt = ' minOccurs="0"';
const many = ' maxOccurs="unbounded"';
const UNBOUNDED = 'maxOccurs="unbounded"';

type Want =
  | { typed: [kind: string, name: string, min: number, max: number | 'unbounded', members: string] }
  | { untyped: string };

const cases: [string, { given: string; want: Want[] }][] = [
  [
    '(key, value)*',
    {
      given: `<s:sequence ${UNBOUNDED}>${el('key')}${el('value')}</s:sequence>`,
      want: [{ typed: ['sequence', 'keyAndValue', 1, 'unbounded', 'key value'] }],
    },
  ],
  [
    '(circle | square)* as JAXB writes @XmlElements',
    {
      given: `<s:sequence><s:choice minOccurs="0" ${UNBOUNDED}>${el('circle')}${el('square')}</s:choice></s:sequence>`,
      want: [{ typed: ['choice', 'circleOrSquare', 0, 'unbounded', 'circle square'] }],
    },
  ],
  [
    'a sequence of one choice, repeated: the choice repeats',
    {
      given: `<s:sequence minOccurs="0" maxOccurs="3"><s:choice>${el('a')}${el('b')}</s:choice></s:sequence>`,
      want: [{ typed: ['choice', 'aOrB', 0, 3, 'a b'] }],
    },
  ],
  [
    '(key, value?, note*)* beside other elements: key anchors each occurrence',
    {
      given: `<s:sequence>${el('owner')}<s:sequence ${UNBOUNDED}>${el('key')}${el('value', opt)}${el('note', opt + many)}</s:sequence>${el('total', opt)}</s:sequence>`,
      want: [{ typed: ['sequence', 'keyAndValueAndNote', 1, 'unbounded', 'key value note'] }],
    },
  ],
  [
    'two groups in one type',
    {
      given: `<s:sequence><s:sequence ${UNBOUNDED}>${el('k')}${el('v')}</s:sequence><s:choice ${UNBOUNDED}>${el('x')}${el('y')}</s:choice></s:sequence>`,
      want: [
        { typed: ['sequence', 'kAndV', 1, 'unbounded', 'k v'] },
        { typed: ['choice', 'xOrY', 1, 'unbounded', 'x y'] },
      ],
    },
  ],
  [
    '(a?, b?)*: one occurrence or two is not in the document',
    {
      given: `<s:sequence ${UNBOUNDED}>${el('a', opt)}${el('b', opt)}</s:sequence>`,
      want: [
        {
          untyped:
            'none of its members occurs exactly once in each occurrence, so where one occurrence ends and the next begins is not in the document',
        },
      ],
    },
  ],
  [
    '(a+, b?)*: a second a may start the next occurrence or not',
    {
      given: `<s:sequence ${UNBOUNDED}>${el('a', many)}${el('b', opt)}</s:sequence>`,
      want: [
        {
          untyped:
            'none of its members occurs exactly once in each occurrence, so where one occurrence ends and the next begins is not in the document',
        },
      ],
    },
  ],
  [
    '(a+ | b)*: a choice member that repeats',
    {
      given: `<s:choice ${UNBOUNDED}>${el('a', many)}${el('b')}</s:choice>`,
      want: [
        {
          untyped:
            'its member a occurs 1 to unbounded times in one occurrence, so where one occurrence ends and the next begins is not in the document',
        },
      ],
    },
  ],
  [
    '(a? | b)*: a choice member that may be absent',
    {
      given: `<s:choice ${UNBOUNDED}>${el('a', opt)}${el('b')}</s:choice>`,
      want: [
        {
          untyped:
            'its member a occurs 0 to 1 times in one occurrence, so where one occurrence ends and the next begins is not in the document',
        },
      ],
    },
  ],
  [
    '(a, (b | c))*: a nested group',
    {
      given: `<s:sequence ${UNBOUNDED}>${el('a')}<s:choice>${el('b')}${el('c')}</s:choice></s:sequence>`,
      want: [{ untyped: 'one of its members is a nested <choice>; smskit types a repeating group of elements only' }],
    },
  ],
  [
    '(a, any)*: a wildcard member',
    {
      given: `<s:sequence ${UNBOUNDED}>${el('a')}<s:any/></s:sequence>`,
      want: [
        {
          untyped:
            'one of its members is a wildcard (xs:any), so which occurrence an unclaimed child belongs to is not in the document',
        },
      ],
    },
  ],
  [
    'a, (a, b)*: a member named as another particle',
    {
      given: `<s:sequence>${el('a')}<s:sequence ${UNBOUNDED}>${el('a')}${el('b')}</s:sequence></s:sequence>`,
      want: [
        {
          untyped:
            'another particle of the type is also named a, so which one a child of that name belongs to is not in the document',
        },
      ],
    },
  ],
  [
    '(item)*: one member is an array, not a group',
    { given: `<s:sequence ${UNBOUNDED}>${el('item')}</s:sequence>`, want: [] },
  ],
  [
    'a choice that occurs once is flattened as before',
    { given: `<s:choice>${el('a')}${el('b')}</s:choice>`, want: [] },
  ],
];

describe('repeating groups: typed or kept as XML', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const found = repeatingGroups(typeOf(given)).map(
      (g): Want =>
        'typed' in g
          ? {
              typed: [
                g.typed.kind,
                g.typed.name,
                g.typed.minOccurs,
                g.typed.maxOccurs,
                g.typed.members.map((m) => m.name.local).join(' '),
              ],
            }
          : { untyped: g.untyped.reason },
    );
    expect(found).toEqual(want);
  });
});

describe('the group property in the plan', () => {
  const plan = (content: string) => {
    const model = contractFromText(
      `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${XSD}" targetNamespace="urn:t">
<wsdl:types><s:schema targetNamespace="urn:t" elementFormDefault="qualified"><s:complexType name="T">${content}</s:complexType></s:schema></wsdl:types></wsdl:definitions>`,
      'mem.wsdl',
    );
    return planModel(model).schema;
  };

  it('is the occurrence type, keyed under its parent, with the members as its fields', () => {
    const schema = plan(
      `<s:sequence>${el('id')}<s:sequence ${UNBOUNDED}>${el('key')}${el('value')}</s:sequence></s:sequence>`,
    );
    const t = schema.byKey.get('{urn:t}T');
    expect(
      t?.kind === 'complex' ? t.fields.map((f) => [f.prop, f.group, f.value, f.minOccurs, f.maxOccurs]) : [],
    ).toEqual([
      ['id', undefined, expect.objectContaining({ kind: 'primitive' }), 1, 1],
      ['keyAndValue', 'sequence', { kind: 'type', key: '{urn:t}T#keyAndValue' }, 1, 'unbounded'],
    ]);
    const occurrence = schema.byKey.get('{urn:t}T#keyAndValue');
    expect(occurrence?.tsName).toBe('T_KeyAndValue');
    expect(
      occurrence?.kind === 'complex' ? occurrence.fields.map((f) => [f.prop, f.minOccurs, f.inChoice]) : [],
    ).toEqual([
      ['key', 1, false],
      ['value', 1, false],
    ]);
  });

  it('gives way to an element of the same name, whatever the order', () => {
    const schema = plan(
      `<s:sequence><s:sequence ${UNBOUNDED}>${el('key')}${el('value')}</s:sequence>${el('keyAndValue')}</s:sequence>`,
    );
    const t = schema.byKey.get('{urn:t}T');
    expect(t?.kind === 'complex' ? t.fields.map((f) => f.prop) : []).toEqual(['keyAndValueGroup', 'keyAndValue']);
  });

  it('a choice occurrence: every member optional and in the choice', () => {
    const schema = plan(`<s:choice ${UNBOUNDED}>${el('a')}${el('b')}</s:choice>`);
    const occurrence = schema.byKey.get('{urn:t}T#aOrB');
    expect(
      occurrence?.kind === 'complex' ? occurrence.fields.map((f) => [f.prop, f.minOccurs, f.inChoice]) : [],
    ).toEqual([
      ['a', 0, true],
      ['b', 0, true],
    ]);
  });
});
