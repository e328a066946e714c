/**
 * One server under test, in its own process: `bare` (node:http, reads the body, writes a fixed
 * prebuilt response: the limit), `node-soap` (soap.listen on wsdl/serviceapi.wsdl) or
 * `generated` (createServiceAPIListener). All three answer SMSSend with the same fixed result.
 * Sends `{ url }` over IPC once listening; exits on SIGTERM.
 * argv: kind [responses-json (bare only: binding -> { contentType, body })] [--tls-cert FILE --tls-key FILE]
 * With the TLS flags, `generated` is `listen` with `tls` and `bare` is node:https (the HTTPS limit).
 */
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServiceAPIListener } from '../../generated/service-api/index.js';
import { listen } from '../../runtime/index.js';

const RESULT = 'ok-1';
type FixedResponses = Record<string, { contentType: string; body: string }>;

function bareListener(responses: FixedResponses): http.RequestListener {
  const prebuilt = (key: string): [string[], Buffer] => {
    const r = responses[key];
    if (r === undefined) throw new Error(`no fixed response for ${key}`);
    const body = Buffer.from(r.body);
    return [['Content-Type', r.contentType, 'Content-Length', String(body.length)], body];
  };
  const soap11 = prebuilt('soap11');
  const soap12 = prebuilt('soap12');
  const plain = prebuilt('http-post');
  return (req, res) => {
    // The cheapest dispatch that still answers each binding in its own format.
    const [headers, body] =
      req.url !== undefined && req.url.length > 16
        ? plain
        : req.headers['content-type']?.startsWith('application/soap+xml')
          ? soap12
          : soap11;
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  };
}

async function startNodeSoap(): Promise<http.Server> {
  const soap = await import('soap');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const send = () => ({ SMSSendResult: RESULT });
  const sendToPort = () => ({ SMSSendToPortResult: RESULT });
  const port = { SMSSend: send, SMSSendToPort: sendToPort };
  const wsdl = readFileSync(new URL('../../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
  soap.listen(server, '/serviceapi.asmx', { ServiceAPI: { ServiceAPISoap: port, ServiceAPISoap12: port } }, wsdl);
  return server;
}

/** The certificate and key named by --tls-cert / --tls-key, or undefined for plain HTTP. */
function tlsFiles(): { cert: Buffer; key: Buffer } | undefined {
  const at = (flag: string): string | undefined => {
    const index = process.argv.indexOf(flag);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const cert = at('--tls-cert');
  const key = at('--tls-key');
  return cert === undefined || key === undefined ? undefined : { cert: readFileSync(cert), key: readFileSync(key) };
}

function bareServer(tls: { cert: Buffer; key: Buffer } | undefined): http.Server {
  const listener = bareListener(JSON.parse(process.argv[3] ?? '{}') as FixedResponses);
  return tls === undefined
    ? http.createServer({ keepAliveTimeout: 5_000 }, listener)
    : https.createServer({ keepAliveTimeout: 5_000, ...tls }, listener);
}

async function start(kind: string): Promise<{ url: string; close(): void }> {
  const tls = tlsFiles();
  if (kind === 'generated') {
    const listener = createServiceAPIListener({
      SMSSend: () => ({ SMSSendResult: RESULT }),
      SMSSendToPort: () => ({ SMSSendToPortResult: RESULT }),
    });
    const listening = await listen(listener, { host: '127.0.0.1', port: 0, ...(tls === undefined ? {} : { tls }) });
    return { url: listening.url, close: () => void listening.close() };
  }
  if (tls !== undefined && kind !== 'bare') throw new Error(`no HTTPS variant of the ${kind} server`);
  const server = kind === 'bare' ? bareServer(tls) : kind === 'node-soap' ? await startNodeSoap() : undefined;
  if (server === undefined) throw new Error(`unknown server kind ${kind}`);
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
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
