/**
 * WSDLs as other stacks publish them, beyond what ASMX writes: a mixed service whose rpc/encoded
 * binding is left out while its literal one generates, leftovers left out with a warning, an
 * element containing itself through its anonymous type, a document-style part declared by type,
 * header parts inside a document/literal input message whose soap:body names no parts, and a
 * schema in an obsolete XSD namespace refused as such.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractFromText } from '../../contract/read/index.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { GeneratorError } from '../../contract/errors.js';
import { generate, parseWsdl } from '../../generator/index.js';
import type { ModelWarning } from '../../contract/model/index.js';
import { createRequestListener, listen, ServiceClient } from '../../runtime/index.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

const DIR = 'test/fixtures/wsdl-sloppy';

beforeAll(() => {
  process.chdir(repoRoot);
});

function warningsOf(file: string): string[] {
  const model = parseWsdl(file);
  const warnings: ModelWarning[] = [...model.warnings];
  generate(model, { toolVersion: 't', onWarning: (w) => warnings.push(w) });
  return warnings.map((w) => `${w.code} ${w.source.line}: ${w.message}`);
}

describe('a mixed WSDL', () => {
  it('leaves the rpc/encoded binding out with one warning naming it, and its leftovers with theirs', () => {
    expect(warningsOf(`${DIR}/mixed.wsdl`)).toEqual([
      'DEFINITION_OMITTED 19: type {urn:mixed}StringArray is left out: complexContent restriction of {http://schemas.xmlsoap.org/soap/encoding/}Array: SOAP-encoded arrays (SOAP-ENC:Array) are not supported',
      'DEFINITION_OMITTED 25: type {urn:mixed}Leftover is left out: <xsd:element type="tns:NeverDeclared">: type {urn:mixed}NeverDeclared is not defined',
      'DEFINITION_OMITTED 19: message {urn:mixed}EchoEncIn is left out: it uses type {urn:mixed}StringArray, which is left out: complexContent restriction of {http://schemas.xmlsoap.org/soap/encoding/}Array: SOAP-encoded arrays (SOAP-ENC:Array) are not supported',
      'BINDING_OMITTED 39: binding EncodedBinding (soap11, port EncodedPort) is left out: use="encoded" (rpc/encoded, operation EchoEnc of binding EncodedBinding) is not supported; only literal messages can be modelled faithfully',
    ]);
  });

  it('generates the literal binding, under names clear of the runtime (service "Service")', () => {
    const files = generate(parseWsdl(`${DIR}/mixed.wsdl`), { toolVersion: 't' });
    const client = files.get('service/client.ts')!;
    expect(client).toContain('export class ServiceServiceClient {');
    expect(client).toContain("import { ServiceClient, type CallOptions, type ClientOptions } from 'smskit/runtime';");
    const descriptor = toDescriptor(parseWsdl(`${DIR}/mixed.wsdl`));
    expect(descriptor.bindings.map((b) => [b.name, b.operations.map((o) => o.name)])).toEqual([
      ['LiteralBinding', ['Echo']],
    ]);
  });
});

describe('an element that contains itself through its anonymous type', () => {
  it('gets a named type, used by the element and by itself', () => {
    const model = parseWsdl(`${DIR}/recursive.wsdl`);
    expect(model.schema.elements['{urn:tree}Folder']!.type).toEqual({
      kind: 'named',
      name: { ns: 'urn:tree', local: 'FolderType' },
    });
    const types = generate(model, { toolVersion: 't' }).get('trees/types.ts')!;
    expect(types).toContain('export interface FolderType {');
    expect(types).toContain('  Folder?: FolderType[];');
  });
});

describe('a schema in an obsolete XSD namespace', () => {
  it('is refused for that reason, not for a missing type', () => {
    const error = (() => {
      try {
        parseWsdl(`${DIR}/obsolete-xsd.wsdl`);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as GeneratorError).message).toMatch(
      /^test\/fixtures\/wsdl-sloppy\/obsolete-xsd\.wsdl:6: <xsd:schema> is in http:\/\/www\.w3\.org\/2000\/10\/XMLSchema, a draft namespace of XML Schema/,
    );
  });
});

describe('a document-style part declared by type', () => {
  it('is carried as the part-named element, with a warning', async () => {
    expect(warningsOf(`${DIR}/type-parts.wsdl`)).toEqual([
      'TYPED_BODY_PART 18: operation Move of binding MoveBinding: the input part point is declared by type in document style (WS-I BP R2204 wants an element); carried as the element <point> without namespace',
      'TYPED_BODY_PART 18: operation Move of binding MoveBinding: the output part moved is declared by type in document style (WS-I BP R2204 wants an element); carried as the element <moved> without namespace',
    ]);
    const descriptor = toDescriptor(parseWsdl(`${DIR}/type-parts.wsdl`));
    const server = await listen(
      createRequestListener(descriptor, {
        Move: async (point: { x: number; y: number }) => ({ x: point.x + 1, y: point.y + 1 }),
      }),
      { host: '127.0.0.1', port: 0 },
    );
    const client = new ServiceClient(descriptor, {
      url: `${server.url}/move`,
      binding: 'soap11',
    });
    try {
      expect(await client.call('Move', { x: 1, y: 2 })).toEqual({ x: 2, y: 3 });
    } finally {
      await client.close();
      await server.close();
    }
    expect(descriptor.elements['part:{urn:typed}MoveIn/point']!.name).toEqual({ ns: '', local: 'point' });
  });
});

describe('a SOAP header part declared by type (rpc/literal)', () => {
  it('is carried as a block named after the part, in the message namespace, with a warning', async () => {
    const text = readFileSync('test/fixtures/wsdl-rpc/orders-rpc.wsdl', 'utf8')
      .replace(
        '<message name="ping"/>',
        '<message name="ping"/><message name="auth"><part name="token" type="xsd:string"/></message>',
      )
      .replace(
        '<input><soap:body use="literal" namespace="urn:orders-rpc"/></input>',
        '<input><soap:body use="literal" namespace="urn:orders-rpc"/><soap:header message="tns:auth" part="token" use="literal"/></input>',
      );
    const model = contractFromText(text, 'orders-rpc-header.wsdl');
    expect(model.warnings.map((w) => `${w.code}: ${w.message}`)).toContain(
      'TYPED_HEADER_PART: operation placeOrder of binding OrdersPortBinding: SOAP header part token is declared by type (WS-I BP R2205 wants an element); carried as the header block {urn:orders-rpc}token',
    );
    const descriptor = toDescriptor(model);
    const soap11 = descriptor.bindings.find((b) => b.protocol === 'soap11')!;
    expect(soap11.operations.find((o) => o.name === 'placeOrder')!.inputHeaders).toEqual([
      { element: '{urn:orders-rpc}token', prop: 'token' },
    ]);
    const seen: unknown[] = [];
    const server = await listen(
      createRequestListener(descriptor, {
        placeOrder: async (_input: unknown, context: { soapHeaders: unknown }) => {
          seen.push(context.soapHeaders);
          return { return: 1 };
        },
        listSkus: async () => ({ return: [] }),
        ping: async () => ({}),
      }),
      { host: '127.0.0.1', port: 0 },
    );
    const client = new ServiceClient(descriptor, { url: `${server.url}/orders`, binding: 'soap11' });
    try {
      await client.callWithHeaders(
        'placeOrder',
        { order: { customer: 'A' }, note: '' },
        { soapHeaders: { token: 'abc' } },
      );
    } finally {
      await client.close();
      await server.close();
    }
    expect(seen).toEqual([{ token: 'abc' }]);
  });
});

describe('header parts inside the input message, a soap:body without parts (zeep soap_header.wsdl form)', () => {
  const file = `${DIR}/soap-header-parts.wsdl`;

  it('is read with one warning naming WS-I BP R2210 and the part the body keeps', () => {
    expect(warningsOf(file)).toEqual([
      'HEADER_PARTS_IN_BODY_MESSAGE 41: operation GetLastTradePrice of binding StockQuoteBinding: the input message GetLastTradePriceInput has 3 parts, of which auth and context bound as soap:header, and its soap:body names none (WS-I BP R2210 wants parts="…" then); read as zeep and .NET do: the body is body, the part no header binds',
    ]);
    const client = generate(parseWsdl(file), { toolVersion: 't' }).get('stock-quote-service/client.ts')!;
    expect(client).toContain(
      'GetLastTradePrice(input: TradePriceRequest, options?: CallOptions<GetLastTradePriceRequestHeaders>): Promise<TradePrice> {',
    );
  });

  it('round-trips through the smskit client and server: the body element in the body, both parts as headers', async () => {
    const descriptor = toDescriptor(parseWsdl(file));
    const seen: unknown[] = [];
    const wire: string[] = [];
    const listener = createRequestListener(descriptor, {
      GetLastTradePrice: async (input: { tickerSymbol: string }, context: { soapHeaders: unknown }) => {
        seen.push({ input, headers: context.soapHeaders });
        return { price: input.tickerSymbol.length + 0.5 };
      },
    });
    const server = await listen(
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => wire.push(Buffer.concat(chunks).toString('utf8')));
        listener(req, res);
      },
      { host: '127.0.0.1', port: 0 },
    );
    const client = new ServiceClient(descriptor, { url: `${server.url}/stockquote`, binding: 'soap11' });
    try {
      const answer = await client.callWithHeaders(
        'GetLastTradePrice',
        { tickerSymbol: 'ACME' },
        { soapHeaders: { Authentication: { username: 'zeep' }, RequestContext: { locale: 'en' } } },
      );
      expect(answer.output).toEqual({ price: 4.5 });
    } finally {
      await client.close();
      await server.close();
    }
    expect(seen).toEqual([
      {
        input: { tickerSymbol: 'ACME' },
        headers: { Authentication: { username: 'zeep' }, RequestContext: { locale: 'en' } },
      },
    ]);
    const body = wire[0]!.slice(wire[0]!.indexOf('Body>'));
    expect(body).toMatch(/<(\w+:)?TradePriceRequest\b/);
    expect(body).not.toContain('Authentication');
  });
});
