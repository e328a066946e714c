/**
 * Names JavaScript and XML keep for themselves, end to end through a generated descriptor, the
 * client and the server. Elements named like what every JavaScript object already has
 * (`constructor`, `__proto__`): the properties take the naming rule's suffix, so a value that
 * leaves the field out sends no element (not Object.prototype's `constructor` function), and an
 * element read from the wire is the object's own property (`__proto__` would set the object's
 * prototype instead). An `xml:lang` attribute is written with the xml prefix, which no other
 * prefix may stand for (Namespaces in XML §3): the server could not read it otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { contractFromText } from '../../contract/read/index.js';
import { createRequestListener, listen, type Listening, ServiceClient } from '../../runtime/index.js';

const NS = 'urn:members';
const WSDL = `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NS}" targetNamespace="${NS}">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="${NS}">
      <s:import namespace="http://www.w3.org/XML/1998/namespace"/>
      <s:complexType name="Record">
        <s:sequence>
          <s:element minOccurs="0" name="name" type="s:string"/>
          <s:element minOccurs="0" name="constructor" type="s:string"/>
          <s:element minOccurs="0" name="__proto__" type="s:string"/>
        </s:sequence>
        <s:attribute ref="xml:lang"/>
      </s:complexType>
      <s:element name="Echo"><s:complexType><s:sequence>
        <s:element minOccurs="0" name="rec" type="tns:Record"/>
      </s:sequence></s:complexType></s:element>
      <s:element name="EchoResponse"><s:complexType><s:sequence>
        <s:element minOccurs="0" name="EchoResult" type="tns:Record"/>
      </s:sequence></s:complexType></s:element>
    </s:schema>
  </wsdl:types>
  <wsdl:message name="EchoIn"><wsdl:part name="parameters" element="tns:Echo"/></wsdl:message>
  <wsdl:message name="EchoOut"><wsdl:part name="parameters" element="tns:EchoResponse"/></wsdl:message>
  <wsdl:portType name="MembersSoap">
    <wsdl:operation name="Echo"><wsdl:input message="tns:EchoIn"/><wsdl:output message="tns:EchoOut"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="MembersSoap" type="tns:MembersSoap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Echo">
      <soap:operation soapAction="${NS}/Echo" style="document"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Members">
    <wsdl:port name="MembersSoap" binding="tns:MembersSoap"><soap:address location="http://localhost/members.asmx"/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

type Record = { name?: string; constructorElement?: string; __proto__Element?: string; lang?: string };
const received: Record[] = [];
let server: Listening;
let client: ServiceClient;

beforeAll(async () => {
  const descriptor = toDescriptor(contractFromText(WSDL, 'members.wsdl'));
  const handlers = {
    Echo: async (input: { rec?: Record }) => {
      received.push(input.rec ?? {});
      return { EchoResult: input.rec };
    },
  };
  server = await listen(createRequestListener(descriptor, handlers), { host: '127.0.0.1', port: 0 });
  client = new ServiceClient(descriptor, { url: `${server.url}/members.asmx`, binding: 'soap11' });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('names JavaScript and XML keep for themselves', () => {
  it('a record that leaves them out sends no such element, and reads back without them', async () => {
    const answer = (await client.call('Echo', { rec: { name: 'a' } })) as { EchoResult?: Record };
    expect(answer.EchoResult).toEqual({ name: 'a' });
    expect(Object.hasOwn(received.at(-1)!, 'constructorElement')).toBe(false);
  });

  it('given, they travel as the elements of their wire names and come back as own properties', async () => {
    const rec = { name: 'b', constructorElement: 'c', __proto__Element: 'p', lang: 'en' };
    const answer = (await client.call('Echo', { rec })) as { EchoResult?: Record };
    expect(received.at(-1)).toEqual(rec);
    expect(Object.getPrototypeOf(received.at(-1))).toBe(Object.prototype);
    expect(answer.EchoResult).toEqual(rec);
  });
});
