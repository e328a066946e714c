/**
 * The arbitraries against the facets a schema puts on simple types (a WSDL written here, so the
 * expected bounds come from the test, not from the code): every generated value is inside its
 * facets, and the edges are reached (the exact maxLength, maxInclusive and minInclusive, the
 * empty string where allowed, a 24-character string never where maxLength is 5). The mutations
 * that spoil a value step exactly one past those edges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationContracts } from '../../conformance/catalogue/operation-contract.js';
import { schemaFacts } from '../../conformance/catalogue/schema-facts.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { contractFromText } from '../../contract/read/index.js';
import { inputArbitrary } from '../../fuzz/generate/inputs.js';
import { ValueArbitraries } from '../../fuzz/generate/values.js';
import { spoiledText } from '../../fuzz/mutate/mutations.js';

const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:facets" targetNamespace="urn:facets">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:facets">
      <s:simpleType name="Code"><s:restriction base="s:string"><s:maxLength value="5"/></s:restriction></s:simpleType>
      <s:simpleType name="Sku"><s:restriction base="s:string"><s:pattern value="[A-Z]{3}-[0-9]{2}"/></s:restriction></s:simpleType>
      <s:simpleType name="Percent"><s:restriction base="s:int"><s:minInclusive value="-10"/><s:maxInclusive value="100"/></s:restriction></s:simpleType>
      <s:simpleType name="Money"><s:restriction base="s:decimal"><s:totalDigits value="5"/><s:fractionDigits value="2"/></s:restriction></s:simpleType>
      <s:simpleType name="Size"><s:restriction base="s:string"><s:enumeration value="S"/><s:enumeration value="M"/></s:restriction></s:simpleType>
      <s:element name="Put"><s:complexType><s:sequence>
        <s:element name="code" type="t:Code"/>
        <s:element name="sku" type="t:Sku"/>
        <s:element name="percent" type="t:Percent"/>
        <s:element name="money" type="t:Money"/>
        <s:element name="size" type="t:Size"/>
      </s:sequence></s:complexType></s:element>
      <s:element name="PutResponse"><s:complexType><s:sequence>
        <s:element name="PutResult" type="s:string" minOccurs="0"/>
      </s:sequence></s:complexType></s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="PutIn"><wsdl:part name="parameters" element="t:Put"/></wsdl:message>
  <wsdl:message name="PutOut"><wsdl:part name="parameters" element="t:PutResponse"/></wsdl:message>
  <wsdl:portType name="FacetsPort"><wsdl:operation name="Put"><wsdl:input message="t:PutIn"/><wsdl:output message="t:PutOut"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="FacetsSoap" type="t:FacetsPort">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Put"><soap:operation soapAction="urn:facets/Put"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Facets"><wsdl:port name="FacetsSoap" binding="t:FacetsSoap"><soap:address location="http://localhost/facets"/></wsdl:port></wsdl:service>
</wsdl:definitions>`;

interface Put {
  readonly code: string;
  readonly sku: string;
  readonly percent: number;
  readonly money: string;
  readonly size: string;
}

const model = contractFromText(WSDL, 'facets.wsdl');
const d = toDescriptor(model);
const facts = schemaFacts(model);
const contract = operationContracts(d).find((c) => c.protocol === 'soap11')!;
const values = fc
  .sample(inputArbitrary(new ValueArbitraries(d, facts), contract), { numRuns: 2000, seed: 5 })
  .map((built) => built.input as Put);

describe('arbitraries within the facets, reaching their edges', () => {
  it('maxLength 5: never longer, the empty string and exactly 5 reached', () => {
    const lengths = values.map((v) => [...v.code].length);
    expect(Math.max(...lengths)).toBe(5);
    expect(lengths).toContain(0);
  });

  it('a pattern: every value matches it', () => {
    expect(values.filter((v) => !/^[A-Z]{3}-[0-9]{2}$/.test(v.sku))).toEqual([]);
  });

  it('minInclusive -10, maxInclusive 100: inside, both bounds reached', () => {
    const numbers = values.map((v) => v.percent);
    expect(Math.min(...numbers)).toBe(-10);
    expect(Math.max(...numbers)).toBe(100);
  });

  it('totalDigits 5, fractionDigits 2: no value has more digits', () => {
    const bad = values.filter((v) => {
      const [whole = '', fraction = ''] = v.money.replace(/^-/, '').split('.');
      return fraction.length > 2 || (whole.replace(/^0+(?=\d)/, '') + fraction).length > 5;
    });
    expect(bad).toEqual([]);
    expect(values.map((v) => v.money)).toContain('99999');
  });

  it('an enumeration: only its values, each of them', () => {
    expect(new Set(values.map((v) => v.size))).toEqual(new Set(['S', 'M']));
  });

  it('the mutations step one past the edges', () => {
    const percent = facts.memberFacets('element:{urn:facets}Put', 'percent');
    const code = facts.memberFacets('element:{urn:facets}Put', 'code');
    expect(spoiledText('out-of-range', { xsd: 'int', facets: percent! }, 0)).toBe('101');
    expect(spoiledText('out-of-range', { xsd: 'int', facets: percent! }, 1)).toBe('-11');
    expect(spoiledText('over-length', { xsd: 'string', facets: code! }, 0)).toBe('xxxxxx');
    expect(spoiledText('bad-enum', { xsd: 'string', enumeration: ['S', 'M'] }, 0)).toBe('NotAnEnumerationValue');
    expect(spoiledText('wrong-lexical', { xsd: 'string' }, 0)).toBeUndefined();
  });
});
