/** Table tests: small WSDLs in memory -> the model facts that emit and runtime rely on. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeneratorError } from '../../../contract/errors.js';
import type { ComplexType, ElementDecl, SimpleType, WsdlModel } from '../../../contract/model/index.js';
import { parseWsdl } from '../../../contract/parse/index.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';

/** Parses `text` as `mem.wsdl` without touching the disk. */
function parseText(text: string): WsdlModel {
  return parseWsdl('mem.wsdl', {
    readFile: (abs) => {
      if (abs === path.resolve('mem.wsdl')) return text;
      throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    },
  });
}

/** The refusal of a definition: thrown, or (parse/broken.ts) the reason it was left out. */
function refusal(text: string): GeneratorError {
  try {
    const omitted = Object.values(parseText(text).omitted ?? {})[0];
    if (omitted !== undefined)
      return new GeneratorError(omitted.code as GeneratorError['code'], omitted.what, omitted.source);
  } catch (error) {
    if (error instanceof GeneratorError) return error;
    throw error;
  }
  throw new Error('expected a GeneratorError');
}

/** A WSDL with one schema (`schema` is its content) and optional extra definitions. */
function wsdl(schema: string, rest = '', schemaAttrs = 'elementFormDefault="qualified"'): string {
  return `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="${XSD}" xmlns:tns="urn:t" targetNamespace="urn:t">
<wsdl:types><s:schema targetNamespace="urn:t" ${schemaAttrs}>${schema}</s:schema></wsdl:types>${rest}</wsdl:definitions>`;
}

function wrapperParticles(model: WsdlModel, element: string): ElementDecl[] {
  const type = model.schema.elements[`{urn:t}${element}`]!.type;
  if (type.kind !== 'inline' || type.type.kind !== 'complex') throw new Error('not an inline complex type');
  return type.type.content!.particles as ElementDecl[];
}

describe('parse: QNames are resolved by namespace URI, whatever the prefixes', () => {
  const body = (
    x: string,
    w: string,
  ) => `<${w}definitions xmlns${w === '' ? '' : `:${w.slice(0, -1)}`}="http://schemas.xmlsoap.org/wsdl/" ${x} xmlns:z="urn:t" targetNamespace="urn:t">
<${w}types><q:schema xmlns:q="${XSD}" targetNamespace="urn:t" elementFormDefault="qualified"><q:element name="E"><q:complexType><q:sequence><q:element name="a" type="q:int"/><q:element name="b" type="z:T"/></q:sequence></q:complexType></q:element><q:simpleType name="T"><q:restriction base="q:string"/></q:simpleType></q:schema></${w}types>
<${w}message name="M"><${w}part name="p" element="z:E"/></${w}message></${w}definitions>`;
  const cases: [string, { given: string }][] = [
    ['wsdl: prefix', { given: body('', 'wsdl:') }],
    ['default WSDL namespace (no prefix)', { given: body('', '') }],
    ['other prefix', { given: body('', 'w:') }],
  ];
  it.each(cases)('%s', (_name, { given }) => {
    const model = parseText(given);
    expect(model.messages[0]!.parts[0]).toEqual({ name: 'p', element: { ns: 'urn:t', local: 'E' } });
    expect(wrapperParticles(model, 'E').map((p) => [p.name, p.type])).toEqual([
      [
        { ns: 'urn:t', local: 'a' },
        { kind: 'builtin', name: { ns: XSD, local: 'int' } },
      ],
      [
        { ns: 'urn:t', local: 'b' },
        { kind: 'named', name: { ns: 'urn:t', local: 'T' } },
      ],
    ]);
  });
});

describe('parse: element and attribute forms give the wire name', () => {
  const schema = `<s:element name="E"><s:complexType><s:sequence>
    <s:element name="plain" type="s:string"/><s:element name="forced" form="qualified" type="s:string"/>
  </s:sequence><s:attribute name="at" type="s:string"/><s:attribute name="aq" form="qualified" type="s:string"/></s:complexType></s:element>`;
  const cases: [string, { given: string; want: { elements: string[]; attributes: string[] } }][] = [
    [
      'unqualified (the XSD default)',
      { given: wsdl(schema, '', ''), want: { elements: ['', 'urn:t'], attributes: ['', 'urn:t'] } },
    ],
    [
      'elementFormDefault="qualified"',
      { given: wsdl(schema), want: { elements: ['urn:t', 'urn:t'], attributes: ['', 'urn:t'] } },
    ],
    [
      'attributeFormDefault="qualified"',
      {
        given: wsdl(schema, '', 'attributeFormDefault="qualified"'),
        want: { elements: ['', 'urn:t'], attributes: ['urn:t', 'urn:t'] },
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const model = parseText(given);
    const type = model.schema.elements['{urn:t}E']!.type;
    if (type.kind !== 'inline' || type.type.kind !== 'complex') throw new Error('inline complex type expected');
    expect(wrapperParticles(model, 'E').map((p) => p.name.ns)).toEqual(want.elements);
    expect(type.type.attributes.map((a) => a.name.ns)).toEqual(want.attributes);
    expect(model.schema.elements['{urn:t}E']!.name.ns).toBe('urn:t');
  });
});

describe('parse: particles and types', () => {
  it('keeps occurrence, nillable, default/fixed, anyType and DataSet schema refs', () => {
    const model = parseText(
      wsdl(`<s:element name="E"><s:complexType><s:sequence>
      <s:element minOccurs="0" maxOccurs="unbounded" name="a" nillable="true" type="s:int"/>
      <s:element name="b" default="x" fixed="y" type="s:string"/>
      <s:element name="c"/>
      <s:element ref="s:schema"/><s:any processContents="lax" namespace="##other"/>
      <s:choice minOccurs="0"><s:element ref="tns:G" maxOccurs="3"/></s:choice>
    </s:sequence></s:complexType></s:element><s:element name="G" nillable="true" type="s:string"/>`),
    );
    const [a, b, c, schema, any, choice] = wrapperParticles(model, 'E') as unknown as [
      ElementDecl,
      ElementDecl,
      ElementDecl,
      ElementDecl,
      unknown,
      { kind: string; particles: ElementDecl[] },
    ];
    expect([a.minOccurs, a.maxOccurs, a.nillable]).toEqual([0, 'unbounded', true]);
    expect([b.minOccurs, b.maxOccurs, b.defaultValue, b.fixedValue]).toEqual([1, 1, 'x', 'y']);
    expect(c.type).toEqual({ kind: 'anyType' });
    expect(schema).toMatchObject({ name: { ns: XSD, local: 'schema' }, isSchemaRef: true, type: { kind: 'anyType' } });
    expect(any).toMatchObject({ kind: 'any', processContents: 'lax', namespace: '##other' });
    expect(choice.kind).toBe('choice');
    expect(choice.particles[0]).toMatchObject({
      name: { ns: 'urn:t', local: 'G' },
      ref: { ns: 'urn:t', local: 'G' },
      nillable: true,
      maxOccurs: 3,
    });
  });

  const arrays: [string, { given: string; want: boolean }][] = [
    [
      'ArrayOfX with one repeated element',
      {
        given:
          '<s:complexType name="ArrayOfInt"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="int" type="s:int"/></s:sequence></s:complexType>',
        want: true,
      },
    ],
    [
      'ArrayOfX with an attribute',
      {
        given:
          '<s:complexType name="ArrayOfInt"><s:sequence><s:element maxOccurs="unbounded" name="int" type="s:int"/></s:sequence><s:attribute name="n" type="s:int"/></s:complexType>',
        want: false,
      },
    ],
    [
      'ArrayOfX with two elements',
      {
        given:
          '<s:complexType name="ArrayOfInt"><s:sequence><s:element maxOccurs="unbounded" name="int" type="s:int"/><s:element name="x" type="s:int"/></s:sequence></s:complexType>',
        want: false,
      },
    ],
    [
      'ArrayOfX whose element occurs once',
      {
        given:
          '<s:complexType name="ArrayOfInt"><s:sequence><s:element name="int" type="s:int"/></s:sequence></s:complexType>',
        want: false,
      },
    ],
    [
      'array shape without the ArrayOf name (recognised by shape)',
      {
        given:
          '<s:complexType name="Ints"><s:sequence><s:element maxOccurs="unbounded" name="int" type="s:int"/></s:sequence></s:complexType>',
        want: true,
      },
    ],
    [
      'array shape with an attribute',
      {
        given:
          '<s:complexType name="Ints"><s:sequence><s:element maxOccurs="unbounded" name="int" type="s:int"/></s:sequence><s:attribute name="total" type="s:int"/></s:complexType>',
        want: false,
      },
    ],
  ];
  it.each(arrays)('array detection: %s', (_name, { given, want }) => {
    const type = Object.values(parseText(wsdl(given)).schema.types)[0] as ComplexType;
    expect(type.arrayItem !== undefined).toBe(want);
    if (want) expect(type.arrayItem).toBe(type.content!.particles[0]);
  });

  it('reads complexContent extension, attribute refs, attributeGroups and group refs in order', () => {
    const model = parseText(
      wsdl(`
      <s:complexType name="Base"><s:sequence><s:element name="id" type="s:int"/></s:sequence></s:complexType>
      <s:complexType name="Derived"><s:complexContent><s:extension base="tns:Base">
        <s:group ref="tns:G"/><s:attribute ref="tns:ga" use="required"/><s:attributeGroup ref="tns:AG"/>
      </s:extension></s:complexContent></s:complexType>
      <s:group name="G"><s:sequence><s:element name="extra" type="s:string"/></s:sequence></s:group>
      <s:attribute name="ga" type="s:string"/>
      <s:attributeGroup name="AG"><s:attribute name="x" type="s:int"/><s:anyAttribute/></s:attributeGroup>`),
    );
    const derived = model.schema.types['{urn:t}Derived'] as ComplexType;
    expect(derived.base).toEqual({ name: { ns: 'urn:t', local: 'Base' }, derivation: 'extension' });
    expect((derived.content!.particles[0] as ElementDecl).name).toEqual({ ns: 'urn:t', local: 'extra' });
    expect(derived.attributes.map((a) => [a.name, a.use])).toEqual([
      [{ ns: 'urn:t', local: 'ga' }, 'required'],
      [{ ns: '', local: 'x' }, 'optional'],
    ]);
    expect(derived.anyAttribute).toBe(true);
    expect(Object.keys(model.schema.types)).toEqual(['{urn:t}Base', '{urn:t}Derived']);
  });

  it('reads simpleType enumerations, facets, lists and unions', () => {
    const model = parseText(
      wsdl(`
      <s:simpleType name="Color"><s:annotation><s:documentation>  A
        colour. </s:documentation></s:annotation><s:restriction base="s:string"><s:enumeration value="Red"/><s:enumeration value="Green"/></s:restriction></s:simpleType>
      <s:simpleType name="Code"><s:restriction base="s:string"><s:pattern value="[A-Z]+"/><s:maxLength value="4"/><s:minInclusive value="A"/></s:restriction></s:simpleType>
      <s:simpleType name="Colors"><s:list itemType="tns:Color"/></s:simpleType>
      <s:simpleType name="Either"><s:union memberTypes="tns:Color s:int"><s:simpleType><s:restriction base="s:boolean"/></s:simpleType></s:union></s:simpleType>`),
    );
    const t = model.schema.types as Record<string, SimpleType>;
    expect(t['{urn:t}Color']).toMatchObject({
      variety: 'atomic',
      enumeration: ['Red', 'Green'],
      documentation: 'A colour.',
    });
    expect(t['{urn:t}Code']!.facets).toEqual({ pattern: ['[A-Z]+'], maxLength: 4, minInclusive: 'A' });
    expect(t['{urn:t}Colors']).toMatchObject({
      variety: 'list',
      base: { kind: 'named', name: { ns: 'urn:t', local: 'Color' } },
    });
    expect(t['{urn:t}Either']!.memberTypes!.map((m) => m.kind)).toEqual(['named', 'builtin', 'inline']);
  });

  it('resolves an xs:import without schemaLocation from another inline schema, and warns when none provides it', () => {
    const text = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${XSD}" targetNamespace="urn:t"><types>
      <s:schema targetNamespace="urn:t" xmlns:g="urn:g"><s:import namespace="urn:g"/><s:import namespace="urn:nowhere"/><s:element name="E" type="g:guid"/></s:schema>
      <s:schema targetNamespace="urn:g"><s:simpleType name="guid"><s:restriction base="s:string"/></s:simpleType></s:schema></types></definitions>`;
    const model = parseText(text);
    expect(model.schema.elements['{urn:t}E']!.type).toEqual({ kind: 'named', name: { ns: 'urn:g', local: 'guid' } });
    expect(model.warnings).toEqual([
      {
        code: 'XSD_IMPORT_NO_LOCATION',
        message: expect.stringContaining('"urn:nowhere"'),
        source: { file: 'mem.wsdl', line: 2 },
      },
    ]);
  });

  const refused: [string, { given: string; want: { code: string; what: RegExp } }][] = [
    [
      'a type name in an unknown namespace',
      {
        given: wsdl('<s:element name="E" xmlns:x="urn:x" type="x:T"/>'),
        want: {
          code: 'WSDL_UNRESOLVED_REFERENCE',
          what: /type \{urn:x\}T is not defined \(no schema for namespace "urn:x" was read\)/,
        },
      },
    ],
    [
      'an unknown XSD built-in',
      {
        given: wsdl('<s:element name="E" type="s:integr"/>'),
        want: {
          code: 'WSDL_UNRESOLVED_REFERENCE',
          what: /type \{http:\/\/www\.w3\.org\/2001\/XMLSchema\}integr is not defined/,
        },
      },
    ],
    [
      'a missing element ref',
      {
        given: wsdl(
          '<s:element name="E"><s:complexType><s:sequence><s:element ref="tns:Nope"/></s:sequence></s:complexType></s:element>',
        ),
        want: { code: 'WSDL_UNRESOLVED_REFERENCE', what: /element \{urn:t\}Nope is not defined/ },
      },
    ],
    [
      'a missing group',
      {
        given: wsdl('<s:complexType name="C"><s:group ref="tns:Nope"/></s:complexType>'),
        want: { code: 'WSDL_UNRESOLVED_REFERENCE', what: /group \{urn:t\}Nope is not defined/ },
      },
    ],
    [
      'a missing attribute',
      {
        given: wsdl('<s:complexType name="C"><s:attribute ref="tns:nope"/></s:complexType>'),
        want: { code: 'WSDL_UNRESOLVED_REFERENCE', what: /attribute \{urn:t\}nope is not defined/ },
      },
    ],
    [
      'a type defined twice',
      {
        given: wsdl('<s:simpleType name="T"><s:restriction base="s:string"/></s:simpleType><s:complexType name="T"/>'),
        want: { code: 'WSDL_DUPLICATE_DEFINITION', what: /type \{urn:t\}T is defined twice/ },
      },
    ],
    [
      'a group that contains itself',
      {
        given: wsdl(
          '<s:group name="G"><s:sequence><s:group ref="tns:G"/></s:sequence></s:group><s:complexType name="C"><s:group ref="tns:G"/></s:complexType>',
        ),
        want: { code: 'WSDL_INVALID', what: /group \{urn:t\}G contains itself/ },
      },
    ],
  ];
  it.each(refused)('refuses %s', (_name, { given, want }) => {
    const error = refusal(given);
    expect(error.code).toBe(want.code);
    expect(error.what).toMatch(want.what);
    expect(error.file).toBe('mem.wsdl');
  });
});

describe('parse: bindings', () => {
  const messages = ['AIn', 'AOut', 'BIn', 'BOut', 'H']
    .map((m) => `<wsdl:message name="${m}"><wsdl:part name="p" element="tns:E"/></wsdl:message>`)
    .join('');
  const portType = `<wsdl:portType name="P">
    <wsdl:operation name="Op"><wsdl:input name="A" message="tns:AIn"/><wsdl:output name="A" message="tns:AOut"/></wsdl:operation>
    <wsdl:operation name="Op"><wsdl:input name="B" message="tns:BIn"/><wsdl:output name="B" message="tns:BOut"/></wsdl:operation></wsdl:portType>`;
  const op = (
    input: string,
    header = '',
  ) => `<wsdl:operation name="Op"><soap:operation soapAction="urn:t/${input || 'x'}"/>
    <wsdl:input${input === '' ? '' : ` name="${input}"`}><soap:body use="literal"/>${header}</wsdl:input><wsdl:output${input === '' ? '' : ` name="${input}"`}><soap:body use="literal"/></wsdl:output></wsdl:operation>`;
  const binding = (ops: string) =>
    `<wsdl:binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>${ops}</wsdl:binding>`;
  const schema = '<s:element name="E" type="s:string"/>';

  it('matches MessageName overloads by input/output name', () => {
    const model = parseText(wsdl(schema, messages + portType + binding(op('B') + op('A'))));
    expect(model.bindings[0]!.operations.map((o) => [o.soapAction, o.portTypeOperation.input!.local])).toEqual([
      ['urn:t/B', 'BIn'],
      ['urn:t/A', 'AIn'],
    ]);
  });

  it('refuses an ambiguous binding operation', () => {
    const error = refusal(wsdl(schema, messages + portType + binding(op(''))));
    expect(error.code).toBe('WSDL_INVALID');
    expect(error.what).toMatch(/operation "Op" matches 2 operations of portType \{urn:t\}P/);
  });

  it('resolves soap:header message and part to the header element', () => {
    const model = parseText(
      wsdl(
        schema,
        messages + portType + binding(op('A', '<soap:header message="tns:H" part="p" use="literal"/>') + op('B')),
      ),
    );
    expect(model.bindings[0]!.operations[0]!.inputHeaders).toEqual([
      { message: { ns: 'urn:t', local: 'H' }, part: 'p', element: { ns: 'urn:t', local: 'E' }, use: 'literal' },
    ]);
  });

  it('keeps a soap:header naming a missing part as unresolved, with why (its operation is left out by the plan)', () => {
    const model = parseText(
      wsdl(
        schema,
        messages + portType + binding(op('A', '<soap:header message="tns:H" part="nope" use="literal"/>') + op('B')),
      ),
    );
    expect(model.bindings[0]!.operations[0]!.inputHeaders[0]?.unresolved).toBe(
      '<soap:header> message {urn:t}H has no part "nope"',
    );
  });
});

describe('parse: maxOccurs below minOccurs is a schema error (XSD 1.0 Part 1 §3.9.6), named where it is written', () => {
  const cases: [string, { given: string; want: string }][] = [
    [
      'an element',
      {
        given: '<s:element minOccurs="2" maxOccurs="1" name="n" type="s:int"/>',
        want: '<s:element minOccurs="2" maxOccurs="1">: maxOccurs 1 is less than minOccurs 2, which no schema allows (XSD 1.0 Part 1 §3.9.6)',
      },
    ],
    [
      'maxOccurs="0" without minOccurs',
      {
        given: '<s:element maxOccurs="0" name="n" type="s:int"/>',
        want: '<s:element maxOccurs="0">: maxOccurs 0 is less than minOccurs 1 (absent: 1), which no schema allows (XSD 1.0 Part 1 §3.9.6)',
      },
    ],
    [
      'minOccurs="2" without maxOccurs',
      {
        given: '<s:element minOccurs="2" name="n" type="s:int"/>',
        want: '<s:element minOccurs="2">: maxOccurs 1 (absent: 1) is less than minOccurs 2, which no schema allows (XSD 1.0 Part 1 §3.9.6)',
      },
    ],
    [
      'a nested group',
      {
        given: '<s:choice minOccurs="4" maxOccurs="3"><s:element name="n" type="s:int"/></s:choice>',
        want: '<s:choice minOccurs="4" maxOccurs="3">: maxOccurs 3 is less than minOccurs 4, which no schema allows (XSD 1.0 Part 1 §3.9.6)',
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const error = refusal(wsdl(`<s:complexType name="T"><s:sequence>${given}</s:sequence></s:complexType>`));
    expect([error.code, error.line, error.what]).toEqual(['WSDL_INVALID', 2, want]);
  });

  it('accepts equal bounds and unbounded', () => {
    const model = parseText(
      wsdl(
        '<s:complexType name="T"><s:sequence><s:element minOccurs="2" maxOccurs="2" name="a" type="s:int"/><s:element minOccurs="5" maxOccurs="unbounded" name="b" type="s:int"/></s:sequence></s:complexType>',
      ),
    );
    const type = model.schema.types['{urn:t}T'] as ComplexType;
    expect(type.content!.particles.map((p) => [p.minOccurs, p.maxOccurs])).toEqual([
      [2, 2],
      [5, 'unbounded'],
    ]);
  });
});

describe('parse: port names are unique in the document (WSDL 1.1 §2.7)', () => {
  it('warns at a port whose name another service of the document already used, and keeps both', () => {
    const binding = `<wsdl:portType name="P"/><wsdl:binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/></wsdl:binding>`;
    const service = (name: string) =>
      `<wsdl:service name="${name}"><wsdl:port name="Same" binding="tns:B"><soap:address location="http://x/${name}"/></wsdl:port></wsdl:service>`;
    const model = parseText(wsdl('', `${binding}\n${service('S1')}\n${service('S2')}`));
    expect(model.services.map((s) => s.ports.map((p) => p.address))).toEqual([['http://x/S1'], ['http://x/S2']]);
    expect(model.warnings.map((w) => [w.code, w.source.line])).toEqual([['DUPLICATE_PORT_NAME', 4]]);
    expect(model.warnings[0]!.message).toMatch(/^port Same is declared again \(first at mem\.wsdl:3\)/);
  });
});

describe('parse: a portType operation naming a message that is not declared', () => {
  const given = wsdl(
    '<s:element name="E" type="s:string"/>',
    `<wsdl:message name="M"><wsdl:part name="p" element="tns:E"/></wsdl:message>
<wsdl:portType name="P"><wsdl:operation name="Op">
<wsdl:input message="tns:Typo"/>
<wsdl:output message="tns:M"/>
<wsdl:fault name="F" message="tns:NoFault"/>
</wsdl:operation></wsdl:portType>`,
  );

  it('keeps the reference with its refusal and line, for the plan to leave out only that operation', () => {
    const op = parseText(given).portTypes[0]!.operations[0]!;
    expect(op.input).toEqual({ ns: 'urn:t', local: 'Typo' });
    expect(op.unresolvedInput).toEqual({
      what: '<wsdl:input message="tns:Typo">: message {urn:t}Typo is not defined',
      source: { file: 'mem.wsdl', line: 4 },
    });
    expect(op.unresolvedOutput).toBeUndefined();
    expect(op.faults).toEqual([
      {
        name: 'F',
        message: { ns: 'urn:t', local: 'NoFault' },
        unresolved: {
          what: '<wsdl:fault message="tns:NoFault">: message {urn:t}NoFault is not defined',
          source: { file: 'mem.wsdl', line: 6 },
        },
      },
    ]);
  });

  it('warns at the line of each such reference', () => {
    expect(parseText(given).warnings.map((w) => [w.code, w.source.line])).toEqual([
      ['OPERATION_MESSAGE_UNDECLARED', 4],
      ['FAULT_MESSAGE_UNDECLARED', 6],
    ]);
  });
});
