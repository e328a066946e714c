/**
 * One server of the rich section (test/fixtures/asmx/rich.wsdl), in its own process:
 * `generated` (createRichServiceListener over test/peers/rich-handlers.ts), `node-soap`
 * (soap.listen on rich.wsdl with the same echoes) or `bare` (node:http answering each SOAPAction
 * with a fixed pre-captured response: the limit). Sends `{ url }` over IPC once listening.
 * argv: kind [responses-json (bare only: SOAPAction -> { contentType, body })]
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { listen } from '../../runtime/index.js';
import { createRichServiceListener } from '../../test/golden/generated/asmx-rich/rich-service/index.js';
import { richHandlers } from '../../test/peers/rich-handlers.js';
import { RICH_PATH, RICH_WSDL } from '../lib/rich-payloads.js';

type FixedResponses = Record<string, { contentType: string; body: string }>;

function bareListener(responses: FixedResponses): http.RequestListener {
  const prebuilt = new Map<string, [string[], Buffer]>();
  for (const [action, r] of Object.entries(responses)) {
    const body = Buffer.from(r.body);
    prebuilt.set(action, [['Content-Type', r.contentType, 'Content-Length', String(body.length)], body]);
  }
  return (req, res) => {
    const answer = prebuilt.get(String(req.headers.soapaction));
    req.on('data', () => {});
    req.on('end', () => {
      if (answer === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, answer[0]);
      res.end(answer[1]);
    });
  };
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
type Loose = Record<string, unknown> & { attributes?: Record<string, string> };

/**
 * node-soap writes xsi:type and xsi:nil but never declares the xsi prefix (its envelope takes
 * only the WSDL's own declarations, minus the w3.org ones): the echo declares it on the result
 * element, as a node-soap user must for a polymorphic answer to be namespace-well-formed.
 */
function withXsi(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const v = value as Loose;
  return { ...v, attributes: { ...v.attributes, 'xmlns:xsi': XSI } };
}

async function startNodeSoap(): Promise<http.Server> {
  const soap = await import('soap');
  const server = http.createServer({ keepAliveTimeout: 5_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = {
    EchoOrder: (args: Loose) => ({ EchoOrderResult: withXsi(args.order) }),
    EchoShapes: (args: Loose) => ({ EchoShapesResult: withXsi(args.shapes) }),
  };
  // Lexical values kept as text (node-soap's defaults turn long and decimal into lossy numbers
  // and dateTime into a Date it then writes as an empty element); xsi:nil read as null.
  // customDeserializer is a WSDL option node-soap's server honours but its IServerOptions type
  // omits, hence the options object is not written inline.
  const asText = (text: string): string => text;
  const options = {
    path: RICH_PATH,
    services: { RichService: { RichServiceSoap: port, RichServiceSoap12: port } },
    xml: readFileSync(RICH_WSDL, 'utf8'),
    handleNilAsNull: true,
    customDeserializer: { long: asText, decimal: asText, dateTime: asText },
  };
  soap.listen(server, options);
  return server;
}

async function start(kind: string): Promise<{ url: string; close(): void }> {
  if (kind === 'generated') {
    const listening = await listen(createRichServiceListener(richHandlers), { host: '127.0.0.1', port: 0 });
    return { url: listening.url, close: () => void listening.close() };
  }
  const server =
    kind === 'bare'
      ? http.createServer(
          { keepAliveTimeout: 5_000 },
          bareListener(JSON.parse(process.argv[3] ?? '{}') as FixedResponses),
        )
      : kind === 'node-soap'
        ? await startNodeSoap()
        : undefined;
  if (server === undefined) throw new Error(`unknown server kind ${kind}`);
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.closeAllConnections(),
  };
}

const running = await start(process.argv[2] ?? '');
process.once('SIGTERM', () => {
  running.close();
  process.exit(0); // a normal exit, so --cpu-prof writes its profile
});
process.on('disconnect', () => process.exit(0));
process.send!({ url: running.url });
