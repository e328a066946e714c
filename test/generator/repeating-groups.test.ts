/**
 * A repeating group of several members — `(key, value)*`, a repeating choice as JAXB publishes
 * `@XmlElements` lists — keeps its members' order on the wire, which one property per member
 * cannot. Such a type is kept as XML with a warning at the group's line, so the order survives
 * both ways and a flattened object is never written out of order. An optional choice and a
 * repeating group of one member stay typed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, parseWsdl, toDescriptor } from '../../generator/index.js';
import type { ModelWarning } from '../../contract/model/index.js';
import { decodeElement, encodeElement, isXmlElement } from '../../runtime/codec/index.js';
import { CodecError } from '../../runtime/errors.js';
import { childElements } from '../../runtime/xml/helpers.js';
import { readXml } from '../../runtime/xml/reader.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

const WSDL = 'test/fixtures/wsdl-partial/repeating-groups.wsdl';

beforeAll(() => {
  process.chdir(repoRoot);
});

function generateWithWarnings(): { files: Map<string, string>; warnings: ModelWarning[] } {
  const warnings: ModelWarning[] = [];
  const files = generate(parseWsdl(WSDL), { toolVersion: '0.0.0-test', onWarning: (w) => warnings.push(w) });
  return { files, warnings };
}

describe('repeating groups of several members', () => {
  it('are kept as XML with a warning at the group, and every operation keeps its method', () => {
    const { files, warnings } = generateWithWarnings();
    expect(warnings.map((w) => [w.code, w.source.file, w.source.line, w.message])).toEqual([
      [
        'REPEATING_GROUP_AS_XML',
        WSDL,
        16,
        `type {urn:groups}Pairs is kept as XML (XmlElement): its <sequence maxOccurs="unbounded"> repeats key, value, whose order on the wire is data that smskit's typed objects do not carry yet (one array per member would write every key before every value, which the schema forbids); the XmlElement keeps every child in document order`,
      ],
      [
        'REPEATING_GROUP_AS_XML',
        WSDL,
        23,
        `the type of element {urn:groups}Draw is kept as XML (XmlElement): its <choice minOccurs="0" maxOccurs="unbounded"> repeats circle, square, whose order on the wire is data that smskit's typed objects do not carry yet (one array per member would lose which came first); the XmlElement keeps every child in document order`,
      ],
    ]);
    const types = files.get('groups/types.ts') ?? '';
    expect(types).toMatch(/export type Pairs = XmlElement;/);
    expect(types).toMatch(/its repeating sequence \(WSDL line 16\)/);
    const client = files.get('groups/client.ts') ?? '';
    for (const method of ['Ping', 'Tag', 'Draw', 'Pick']) expect(client).toMatch(new RegExp(`\\b${method}\\(`));
    expect(client).toMatch(/Draw\(input: XmlElement,/);
  });

  it('an optional choice and a repeating sequence of one element stay typed members', () => {
    const types = generateWithWarnings().files.get('groups/types.ts') ?? '';
    expect(types).toMatch(/byId\?: number;/);
    expect(types).toMatch(/byName\?: string;/);
    expect(types).toMatch(/tag: string\[\];/);
  });
});

describe('on the wire', () => {
  const d = toDescriptor(parseWsdl(WSDL));
  const encode = (key: string, value: unknown) => {
    const element = d.elements[key]!;
    return encodeElement(d, element.name, element.value, value, false, '', element.name.local);
  };
  const decode = (key: string, xml: string) => decodeElement(d, d.elements[key]!.value, readXml(xml).root, false, 'x');

  it('pairs are written in the order given, never every key before every value', () => {
    const pairs = readXml(
      '<pairs xmlns="urn:groups"><key>a</key><value>1</value><key>b</key><value>2</value></pairs>',
    ).root;
    expect(encode('{urn:groups}Tag', { pairs })).toBe(
      '<Tag xmlns="urn:groups"><pairs><key>a</key><value>1</value><key>b</key><value>2</value></pairs></Tag>',
    );
  });

  it('a flattened object (one array per member) is refused, not written out of order', () => {
    let error: unknown;
    try {
      encode('{urn:groups}Tag', { pairs: { key: ['a', 'b'], value: ['1', '2'] } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CodecError);
    expect((error as CodecError).code).toBe('CODEC_INVALID_VALUE');
  });

  it('a repeating choice is read in document order', () => {
    const draw = decode(
      '{urn:groups}Draw',
      '<Draw xmlns="urn:groups"><circle>1</circle><square>2</square><circle>3</circle></Draw>',
    );
    expect(isXmlElement(draw)).toBe(true);
    const children = childElements(draw as Parameters<typeof childElements>[0]);
    expect(children.map((c) => c.local)).toEqual(['circle', 'square', 'circle']);
  });
});
