/**
 * Repeating groups on the wire (runtime/codec/group-occurrences.ts): a property of occurrence
 * objects is written member after member, occurrence after occurrence, with no element of its
 * own, and read back in document order; what the group's occurrences or its members' order
 * forbid is refused with a CodecError naming the occurrence.
 */
import { describe, expect, it } from 'vitest';
import { descriptorFromWsdlText } from '../../contract/descriptor/from-text.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../contract/parse/index.js';
import { decodeElement, encodeElement } from '../../runtime/codec/index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { readXml } from '../../runtime/xml/reader.js';
import { codecRefusal } from '../helpers/codec-refusal.js';
import { createRequestListener, listen } from '../../runtime/index.js';
import { describeContract, formatDescription } from '../../contract/descriptor/describe.js';
import { raw } from '../fixtures/runtime/harness.js';

const groups = toDescriptor(parseWsdl('test/fixtures/wsdl-partial/repeating-groups.wsdl'));

/** At most three (id, label) pairs, at least one: bounded occurrences. */
const bounded = descriptorFromWsdlText(
  `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:b" targetNamespace="urn:b">
<wsdl:types><s:schema targetNamespace="urn:b" elementFormDefault="qualified">
<s:element name="Top"><s:complexType><s:sequence maxOccurs="3"><s:element name="id" type="s:int"/><s:element name="label" type="s:string"/></s:sequence></s:complexType></s:element>
</s:schema></wsdl:types>
<wsdl:message name="M"><wsdl:part name="p" element="tns:Top"/></wsdl:message>
<wsdl:portType name="P"><wsdl:operation name="Op"><wsdl:input message="tns:M"/><wsdl:output message="tns:M"/></wsdl:operation></wsdl:portType>
<wsdl:binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
<wsdl:operation name="Op"><soap:operation soapAction="Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>
<wsdl:service name="S"><wsdl:port name="S" binding="tns:B"><soap:address location="http://localhost/b"/></wsdl:port></wsdl:service>
</wsdl:definitions>`,
  'bounded.wsdl',
);

function codec(d: ServiceDescriptor, ns: string) {
  return {
    encode(local: string, value: unknown): string {
      const element = d.elements[`{${ns}}${local}`]!;
      return encodeElement(d, element.name, element.value, value, false, '', element.name.local);
    },
    decode(local: string, xml: string): unknown {
      return decodeElement(d, d.elements[`{${ns}}${local}`]!.value, readXml(xml).root, false, local);
    },
  };
}

const wire = codec(groups, 'urn:groups');
const top = codec(bounded, 'urn:b');

const cases: [string, { local: string; value: unknown; xml: string }][] = [
  [
    'pairs: key then value, occurrence after occurrence',
    {
      local: 'Tag',
      value: {
        pairs: {
          keyAndValue: [
            { key: 'a', value: '1' },
            { key: 'b', value: '2' },
          ],
        },
      },
      xml: '<Tag xmlns="urn:groups"><pairs><key>a</key><value>1</value><key>b</key><value>2</value></pairs></Tag>',
    },
  ],
  [
    'a repeating choice, in the order given',
    {
      local: 'Draw',
      value: { circleOrSquare: [{ circle: 1 }, { square: 2 }, { circle: 3 }] },
      xml: '<Draw xmlns="urn:groups"><circle>1</circle><square>2</square><circle>3</circle></Draw>',
    },
  ],
  [
    'no occurrence of an optional group: no property, no element',
    { local: 'Draw', value: {}, xml: '<Draw xmlns="urn:groups"/>' },
  ],
  [
    'a group between two elements, with an optional member absent, present, absent',
    {
      local: 'Ledger',
      value: { owner: 'o', keyAndValue: [{ key: 'a' }, { key: 'b', value: 2 }, { key: 'c' }], total: 3 },
      xml: '<Ledger xmlns="urn:groups"><owner>o</owner><key>a</key><key>b</key><value>2</value><key>c</key><total>3</total></Ledger>',
    },
  ],
];

describe('repeating groups: both directions', () => {
  it.each(cases)('%s', (_name, { local, value, xml }) => {
    expect(wire.encode(local, value)).toBe(xml);
    expect(wire.decode(local, xml)).toEqual(value);
  });

  it('reads a choice in document order, whitespace between members ignored', () => {
    const xml =
      '<Draw xmlns="urn:groups">\n  <square>4</square>\n  <circle>1</circle>\n  <circle>2</circle>\n  <square>3</square>\n</Draw>';
    expect(wire.decode('Draw', xml)).toEqual({
      circleOrSquare: [{ square: 4 }, { circle: 1 }, { circle: 2 }, { square: 3 }],
    });
  });

  it('bounded occurrences: up to maxOccurs both ways', () => {
    const three = [1, 2, 3].map((id) => ({ id, label: `l${id}` }));
    const xml = top.encode('Top', { idAndLabel: three });
    expect(xml).toBe(
      '<Top xmlns="urn:b"><id>1</id><label>l1</label><id>2</id><label>l2</label><id>3</id><label>l3</label></Top>',
    );
    expect(top.decode('Top', xml)).toEqual({ idAndLabel: three });
  });
});

describe('repeating groups: refused', () => {
  const refusals: [string, { run: () => unknown; want: [string, string, string] }][] = [
    [
      'decode: a value before its key (the member order of a sequence)',
      {
        run: () => wire.decode('Tag', '<Tag xmlns="urn:groups"><pairs><value>1</value><key>a</key></pairs></Tag>'),
        want: ['CODEC_MISSING', 'Tag/pairs/keyAndValue[1]/key', 'required element is missing from this occurrence'],
      },
    ],
    [
      'decode: an occurrence without its value',
      {
        run: () =>
          wire.decode('Tag', '<Tag xmlns="urn:groups"><pairs><key>a</key><key>b</key><value>2</value></pairs></Tag>'),
        want: ['CODEC_MISSING', 'Tag/pairs/keyAndValue[1]/value', 'required element is missing from this occurrence'],
      },
    ],
    [
      'decode: a value twice in one occurrence',
      {
        run: () =>
          wire.decode(
            'Ledger',
            '<Ledger xmlns="urn:groups"><owner>o</owner><key>a</key><value>1</value><value>2</value></Ledger>',
          ),
        want: ['CODEC_MISSING', 'Ledger/keyAndValue[2]/key', 'required element is missing from this occurrence'],
      },
    ],
    [
      'decode: no occurrence of a group that needs one',
      {
        run: () => wire.decode('Tag', '<Tag xmlns="urn:groups"><pairs/></Tag>'),
        want: [
          'CODEC_MISSING',
          'Tag/pairs/keyAndValue',
          '0 occurrences of the repeating sequence found, at least 1 required',
        ],
      },
    ],
    [
      'decode: more occurrences than maxOccurs',
      {
        run: () =>
          top.decode(
            'Top',
            `<Top xmlns="urn:b">${[1, 2, 3, 4].map((i) => `<id>${i}</id><label>x</label>`).join('')}</Top>`,
          ),
        want: ['CODEC_UNEXPECTED', 'Top/id', 'more than 3 occurrences of the repeating sequence idAndLabel'],
      },
    ],
    [
      'decode: the group split by another element',
      {
        run: () =>
          wire.decode('Ledger', '<Ledger xmlns="urn:groups"><key>a</key><owner>o</owner><key>b</key></Ledger>'),
        want: [
          'CODEC_UNEXPECTED',
          'Ledger/key',
          'the occurrences of the repeating sequence keyAndValue must follow one another',
        ],
      },
    ],
    [
      'encode: an occurrence of a choice with two members',
      {
        run: () => wire.encode('Draw', { circleOrSquare: [{ circle: 1, square: 2 }] }),
        want: [
          'CODEC_INVALID_VALUE',
          'Draw/circleOrSquare[1]',
          'an occurrence of a repeating choice holds exactly one of circle, square, got circle and square',
        ],
      },
    ],
    [
      'encode: an occurrence of a choice with none',
      {
        run: () => wire.encode('Draw', { circleOrSquare: [{ circle: 1 }, {}] }),
        want: [
          'CODEC_INVALID_VALUE',
          'Draw/circleOrSquare[2]',
          'an occurrence of a repeating choice holds exactly one of circle, square, got none',
        ],
      },
    ],
    [
      'encode: an occurrence without its required member',
      {
        run: () => wire.encode('Tag', { pairs: { keyAndValue: [{ key: 'a' }] } }),
        want: ['CODEC_MISSING', 'Tag/pairs/keyAndValue[1]/value', 'required'],
      },
    ],
    [
      'encode: a flattened object (one array per member) is not occurrences',
      {
        run: () => wire.encode('Tag', { pairs: { key: ['a', 'b'], value: ['1', '2'] } }),
        want: ['CODEC_UNEXPECTED', 'Tag/pairs', 'unexpected property: "key" is not a member of {urn:groups}Pairs'],
      },
    ],
    [
      'encode: more occurrences than maxOccurs',
      {
        run: () => top.encode('Top', { idAndLabel: [1, 2, 3, 4].map((id) => ({ id, label: 'x' })) }),
        want: ['CODEC_UNEXPECTED', 'Top/idAndLabel', '4 given, at most 3 allowed'],
      },
    ],
  ];
  it.each(refusals)('%s', (_name, { run, want }) => {
    expect(codecRefusal(run)).toEqual(want);
  });
});

describe('repeating groups on a help page and in smskit inspect', () => {
  it('the sample request of a repeating choice holds one member per occurrence', async () => {
    const handlers = {
      Ping: () => ({}),
      Tag: () => ({}),
      Draw: () => ({}),
      Ledger: (x: unknown) => x,
      Loose: () => ({}),
      Pick: () => ({}),
    };
    const server = await listen(createRequestListener(groups, handlers, {}), {});
    try {
      const page = (await raw(`${server.url}/groups.asmx?op=Draw`)).text;
      expect(page).toMatch(
        /&lt;Draw xmlns=&quot;urn:groups&quot;&gt;\s*&lt;circle&gt;<var>int<\/var>&lt;\/circle&gt;\s*&lt;square&gt;<var>int<\/var>&lt;\/square&gt;/,
      );
    } finally {
      await server.close();
    }
  });

  it('inspect shows a group as its members, one object per occurrence', () => {
    const text = formatDescription(describeContract(parseWsdl('test/fixtures/wsdl-partial/repeating-groups.wsdl')));
    expect(text).toContain('circleOrSquare?: (circle | square)[]');
    expect(text).toContain('keyAndValue?: (key, value?)[]');
  });
});
