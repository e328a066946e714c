/**
 * The runner over a real network (runtime/network/raw.ts, as the runner uses it): an HTTPS smskit server signed by a
 * test CA, one that requires a client certificate, a forward proxy (explicit, with credentials,
 * from the environment, one that refuses tunnels), HTTP Basic and Bearer on every request, and a
 * WS-Security UsernameToken in every SOAP request. Every run must pass with zero failures, its
 * over-size cases (raw sockets) included; and no secret may appear in any report format.
 * Certificates are made with openssl at test time: without it, the file skips with one line.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceError, type Report } from '../../conformance/index.js';
import { readContract } from '../../contract/read/index.js';
import { renderHtml, renderJson, renderJunit, renderPretty } from '../../conformance/report/index.js';
import { createRequestListener, listen, type ServerOptions } from '../../runtime/index.js';
import { CONTRACT_WSDL, contractDescriptor } from '../fixtures/conformance/contract.js';
import { fixedHandlers } from '../fixtures/conformance/reference-server.js';
import { runAgainst, TEST_BODY_LIMIT } from '../fixtures/conformance/run.js';
import { makeCertificates, type TestCertificates } from '../helpers/certificates.js';
import { repoRoot } from '../helpers/cli.js';
import { type ForwardProxy, startForwardProxy } from '../helpers/forward-proxy.js';
import { readFileSync } from 'node:fs';
import { requirePeer } from '../helpers/peers.js';

const SKIP = requirePeer('openssl', 'conformance/network').reason;

const OVER_SIZE = ['SMSSend/soap11/fault/over-size', 'SMSSend/soap12/fault/over-size'];
const HTTP_PASSWORD = 'basic-Pa55:word';
const BEARER_TOKEN = 'tok3n.Bearer-abc_def';
const WSSE_PASSWORD = 'wsse-Pa55word!';
const PROXY_PASSWORD = 'pr0xy-Secret';
const SMS_SEND_ACTION = 'http://smskit.dev/serviceapi/SMSSend';
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

interface Target {
  readonly origin: string;
  /** The Authorization header of every request that reached the HTTP server, in order. */
  readonly authorizations: (string | undefined)[];
  /** Every `wsse:Nonce` and `wsse:Password` text the server received. */
  readonly tokenParts: string[];
  close(): Promise<void>;
}

interface TargetOptions {
  readonly tls?: NonNullable<Parameters<typeof listen>[1]>['tls'];
  /** Refuse (401) a request without this Authorization. */
  readonly authorization?: string;
  readonly wsSecurity?: ServerOptions['wsSecurity'];
  /** Answers SMSSend over SOAP 1.2 with the request echoed back, Authorization included (a broken server). */
  readonly echo?: boolean;
}

function collect(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  return once(req, 'end').then(() => Buffer.concat(chunks));
}

/** The runtime's own server on the built-in contract (correct by construction), wrapped to observe and guard. */
async function startTarget(options: TargetOptions = {}): Promise<Target> {
  const listener = createRequestListener(contractDescriptor, fixedHandlers(contractDescriptor), {
    wsdl: readFileSync(CONTRACT_WSDL, 'utf8'),
    logger: { error: () => {} },
    maxBodyBytes: TEST_BODY_LIMIT,
    ...(options.wsSecurity === undefined ? {} : { wsSecurity: options.wsSecurity }),
  });
  const authorizations: (string | undefined)[] = [];
  const tokenParts: string[] = [];
  const guarded: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    authorizations.push(req.headers.authorization);
    if (options.authorization !== undefined && req.headers.authorization !== options.authorization) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' }).end('401');
      return;
    }
    const contentType = String(req.headers['content-type'] ?? '');
    const smsSend12 = contentType.includes(`action="${SMS_SEND_ACTION}"`);
    if (options.echo === true && smsSend12 && Number(req.headers['content-length']) < TEST_BODY_LIMIT) {
      void collect(req).then((body) => {
        const text = body.toString('utf8');
        for (const m of text.matchAll(/<wsse:(?:Nonce|Password)[^>]*>([^<]*)</g)) tokenParts.push(m[1]!);
        res
          .writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' })
          .end(`echo of ${req.headers.authorization ?? ''}: ${text}`);
      });
      return;
    }
    listener(req, res);
  };
  const server = await listen(guarded, {
    host: '127.0.0.1',
    port: 0,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });
  return { origin: server.url, authorizations, tokenParts, close: () => server.close() };
}

function expectPasses(report: Report): void {
  const failed = report.cases
    .filter((c) => c.status === 'failed')
    .map((c) => `${c.id}: ${c.failures.map((f) => `${f.check} ${f.message}`).join('; ')}`);
  expect(failed).toEqual([]);
  expect(report.summary.ok).toBe(true);
}

/** The raw-socket cases ran, over the same TLS and proxy as the pool (none skipped, none failed). */
function expectOverSizeRan(report: Report): void {
  for (const id of OVER_SIZE) expect(report.cases.find((c) => c.id === id)?.status, id).toBe('passed');
}

async function unreachable(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConformanceError);
  expect((error as ConformanceError).code).toBe('TARGET_UNREACHABLE');
  return (error as Error).message;
}

describe.skipIf(SKIP !== undefined)('the runner over TLS', () => {
  let certs: TestCertificates;
  const targets: Target[] = [];
  beforeAll(async () => {
    certs = await makeCertificates();
  });
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
    certs?.remove();
  });
  const start = async (options: TargetOptions): Promise<Target> => {
    const target = await startTarget(options);
    targets.push(target);
    return target;
  };

  it('a server signed by a company CA: trusted with tls.ca, every case passes, over-size cases included', async () => {
    const target = await start({ tls: { cert: certs.server.cert, key: certs.server.key } });
    const report = await runAgainst(target.origin, { tls: { ca: certs.ca } });
    expectPasses(report);
    expectOverSizeRan(report);
    expect(report.target).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/serviceapi\.asmx$/);
  });

  it('without the CA the target is unreachable, and the line says why', async () => {
    const target = await start({ tls: { cert: certs.server.cert, key: certs.server.key } });
    expect(await unreachable(runAgainst(target.origin))).toMatch(/TLS: .*unknown CA: pass the CA that signed it/);
  });

  it('mutual TLS: the client certificate (an encrypted key and its passphrase) on the pool and the raw sockets', async () => {
    const target = await start({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca, requestCert: true },
    });
    const { cert, key, passphrase } = certs.clientEncrypted;
    const report = await runAgainst(target.origin, { tls: { ca: certs.ca, cert, key, passphrase } });
    expectPasses(report);
    expectOverSizeRan(report);
  });

  it('mutual TLS without a client certificate, or with one from another CA: refused, and named as such', async () => {
    const target = await start({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca, requestCert: true },
    });
    expect(await unreachable(runAgainst(target.origin, { tls: { ca: certs.ca } }))).toMatch(
      /TLS: the server requires a client certificate/,
    );
    const { cert, key } = certs.otherClient;
    expect(await unreachable(runAgainst(target.origin, { tls: { ca: certs.ca, cert, key } }))).toMatch(
      /does not accept the client certificate|TLS: .*client certificate/,
    );
  });

  it('tls with an http:// target is refused before anything is sent', async () => {
    await expect(runAgainst('http://127.0.0.1:9', { tls: { ca: certs.ca } })).rejects.toThrow(
      /tls applies to an https:\/\/ target/,
    );
  });
});

describe.skipIf(SKIP !== undefined)('the runner through a proxy', () => {
  let certs: TestCertificates;
  let secure: Target;
  let plain: Target;
  const proxies: { close(): Promise<void> }[] = [];
  const saved = new Map(
    ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'].map((n) => [n, process.env[n]]),
  );
  beforeAll(async () => {
    certs = await makeCertificates();
    secure = await startTarget({ tls: { cert: certs.server.cert, key: certs.server.key } });
    plain = await startTarget();
  });
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterAll(async () => {
    await Promise.all([secure?.close(), plain?.close(), ...proxies.map((p) => p.close())]);
    certs?.remove();
  });
  const proxyWith = async (requireAuthorization?: string): Promise<ForwardProxy> => {
    const proxy = await startForwardProxy(requireAuthorization === undefined ? {} : { requireAuthorization });
    proxies.push(proxy);
    return proxy;
  };
  const hostOf = (target: Target): string => new URL(target.origin).host;

  it('an https target through CONNECT tunnels, the over-size cases through tunnels of their own', async () => {
    const proxy = await proxyWith();
    const report = await runAgainst(secure.origin, { tls: { ca: certs.ca }, proxy: proxy.url });
    expectPasses(report);
    expectOverSizeRan(report);
    expect(proxy.connects.length).toBeGreaterThanOrEqual(1 + OVER_SIZE.length);
    expect(new Set(proxy.connects)).toEqual(new Set([hostOf(secure)]));
    expect(report.cases.find((c) => c.id === OVER_SIZE[0])?.status).toBe('passed');
  });

  it('credentials in the proxy URL go as Proxy-Authorization, on the pool and on the tunnels', async () => {
    const proxy = await proxyWith(basic('me', PROXY_PASSWORD));
    const report = await runAgainst(secure.origin, {
      tls: { ca: certs.ca },
      proxy: `http://me:${PROXY_PASSWORD}@${new URL(proxy.url).host}`,
    });
    expectPasses(report);
    expectOverSizeRan(report);
    expect(new Set(proxy.proxyAuthorizations)).toEqual(new Set([basic('me', PROXY_PASSWORD)]));
  });

  it('an http target: absolute-form requests on the pool, a CONNECT tunnel for the raw sockets', async () => {
    const proxy = await proxyWith();
    const report = await runAgainst(plain.origin, { proxy: proxy.url, binding: ['soap12'] });
    expect(proxy.requests.some((r) => r.startsWith(`${plain.origin}/serviceapi.asmx`))).toBe(true);
    expect(proxy.connects).toEqual([hostOf(plain)]);
    expect(report.cases.find((c) => c.id === 'SMSSend/soap12/fault/over-size')?.status).toBe('passed');
  });

  it('a proxy that refuses tunnels: the raw-socket cases are skipped with the reason, the rest runs', async () => {
    const proxy = await startRefusingProxy();
    proxies.push(proxy);
    const report = await runAgainst(plain.origin, { proxy: proxy.url, binding: ['soap12'] });
    const overSize = report.cases.find((c) => c.id === 'SMSSend/soap12/fault/over-size')!;
    expect(overSize.status).toBe('skipped');
    expect(overSize.skipReason).toMatch(/refused a CONNECT tunnel .*\(HTTP\/1\.1 403 Forbidden\).*raw connection/);
    expect(report.cases.find((c) => c.id === 'SMSSend/soap12/ok/plain')?.status).toBe('passed');
    expect(proxy.forwarded()).toBeGreaterThan(0);
  });

  it('{ fromEnv: true }: HTTPS_PROXY for an https target, and NO_PROXY exempts it', async () => {
    const proxy = await proxyWith();
    process.env.HTTPS_PROXY = proxy.url;
    delete process.env.https_proxy;
    const through = await runAgainst(secure.origin, {
      tls: { ca: certs.ca },
      proxy: { fromEnv: true },
      binding: ['soap11'],
    });
    expectPasses(through);
    const tunnels = proxy.connects.length;
    expect(tunnels).toBeGreaterThan(0);
    process.env.NO_PROXY = 'localhost,127.0.0.1';
    delete process.env.no_proxy;
    const direct = await runAgainst(secure.origin, {
      tls: { ca: certs.ca },
      proxy: { fromEnv: true },
      binding: ['soap11'],
    });
    expectPasses(direct);
    expect(proxy.connects.length).toBe(tunnels);
  });
});

/** A forward proxy that forwards absolute-form requests and refuses every CONNECT with 403. */
async function startRefusingProxy(): Promise<{ url: string; forwarded(): number; close(): Promise<void> }> {
  let forwarded = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    forwarded++;
    const target = new URL(req.url ?? '');
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (_req: IncomingMessage, client: net.Socket) => {
    client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    forwarded: () => forwarded,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('HTTP authentication and WS-Security', () => {
  const targets: Target[] = [];
  afterAll(() => Promise.all(targets.map((t) => t.close())));
  const start = async (options: TargetOptions): Promise<Target> => {
    const target = await startTarget(options);
    targets.push(target);
    return target;
  };

  it('Basic: Authorization on every request (probe, ?wsdl, every case, the raw sockets)', async () => {
    const expected = basic('api', HTTP_PASSWORD);
    const target = await start({ authorization: expected });
    const report = await runAgainst(target.origin, {
      auth: { type: 'basic', username: 'api', password: HTTP_PASSWORD },
    });
    expectPasses(report);
    expectOverSizeRan(report);
    expect(target.authorizations.length).toBeGreaterThan(report.summary.total - report.summary.skipped);
    expect(new Set(target.authorizations)).toEqual(new Set([expected]));
  });

  it('a WSDL from another origin than the service gets no Authorization; from the service itself, it does', async () => {
    const expected = basic('api', HTTP_PASSWORD);
    const wsdlHost = await start({});
    const wsdl = `${new URL(wsdlHost.origin).origin}/serviceapi.asmx?wsdl`;
    const network = { auth: { type: 'basic', username: 'api', password: HTTP_PASSWORD } } as const;
    await readContract(wsdl, { timeoutMs: 5_000, network, serviceUrl: 'http://127.0.0.1:9/serviceapi.asmx' });
    expect(wsdlHost.authorizations).toEqual([undefined]);
    await readContract(wsdl, { timeoutMs: 5_000, network, serviceUrl: wsdlHost.origin });
    expect(wsdlHost.authorizations).toEqual([undefined, expected]);
  });

  it('Bearer, likewise', async () => {
    const target = await start({ authorization: `Bearer ${BEARER_TOKEN}` });
    const report = await runAgainst(target.origin, {
      auth: { type: 'bearer', token: BEARER_TOKEN },
      binding: ['soap11'],
    });
    expectPasses(report);
    expect(new Set(target.authorizations)).toEqual(new Set([`Bearer ${BEARER_TOKEN}`]));
  });

  it('auth beside an Authorization header in headers is refused', async () => {
    await expect(
      runAgainst('http://127.0.0.1:9', {
        auth: { type: 'bearer', token: BEARER_TOKEN },
        headers: { Authorization: 'Basic x' },
      }),
    ).rejects.toThrow(/auth and an Authorization header in headers conflict/);
  });

  it('a UsernameToken in every SOAP request, fresh each time: a server that requires it and refuses replays passes', async () => {
    const target = await start({
      wsSecurity: { passwordOf: (user) => (user === 'alice' ? WSSE_PASSWORD : undefined) },
    });
    const report = await runAgainst(target.origin, {
      wsse: { username: 'alice', password: WSSE_PASSWORD },
      binding: ['soap11', 'soap12'],
    });
    expectPasses(report);
    expectOverSizeRan(report);
    expect(report.summary.refused).toBe(0);
  });

  it('without the token, the same server refuses the positive cases: the token is what made them pass', async () => {
    const target = await start({
      wsSecurity: { passwordOf: (user) => (user === 'alice' ? WSSE_PASSWORD : undefined) },
    });
    const report = await runAgainst(target.origin, { binding: ['soap11'] });
    expect(report.summary.ok).toBe(false);
  });
});

describe.skipIf(SKIP !== undefined)('redaction of every network secret', () => {
  let certs: TestCertificates;
  let target: Target;
  let proxy: ForwardProxy;
  let report: Report;
  beforeAll(async () => {
    certs = await makeCertificates();
    const authorization = basic('api', HTTP_PASSWORD);
    target = await startTarget({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca, requestCert: true },
      authorization,
      wsSecurity: { passwordOf: (user) => (user === 'alice' ? WSSE_PASSWORD : undefined), allowPasswordText: true },
      echo: true,
    });
    proxy = await startForwardProxy({ requireAuthorization: basic('me', PROXY_PASSWORD) });
    const { cert, key, passphrase } = certs.clientEncrypted;
    report = await runAgainst(target.origin, {
      tls: { ca: certs.ca, cert, key, passphrase },
      proxy: `http://me:${PROXY_PASSWORD}@${new URL(proxy.url).host}`,
      auth: { type: 'basic', username: 'api', password: HTTP_PASSWORD },
      wsse: { username: 'alice', password: WSSE_PASSWORD, passwordType: 'PasswordText' },
      binding: ['soap12'],
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([target?.close(), proxy?.close()]);
    certs?.remove();
  });

  it('the broken server echoed the secrets back, so the reports had them to leak', () => {
    const echoed = report.cases.filter((c) => c.status === 'failed' && c.trace !== undefined);
    expect(echoed.length).toBeGreaterThan(0);
    expect(target.tokenParts).toContain(WSSE_PASSWORD);
    expect(target.tokenParts.length).toBeGreaterThan(echoed.length);
    const curl = echoed[0]!.trace!.curl;
    expect(curl).toContain(`--proxy '${new URL(proxy.url).origin}/'`);
    expect(curl).toContain("-H 'authorization: ***'");
    expect(echoed[0]!.trace!.request.body).toMatch(/<wsse:Password [^>]*>\*\*\*<\/wsse:Password>/);
    expect(echoed[0]!.trace!.request.body).toMatch(/<wsse:Nonce [^>]*>\*\*\*<\/wsse:Nonce>/);
  });

  it.each([
    ['pretty', () => renderPretty(report)],
    ['json', () => renderJson(report)],
    ['junit', () => renderJunit(report)],
    ['html', () => renderHtml(report)],
  ])('the %s report holds none of them', (_, render) => {
    const text = render();
    const secrets = [
      HTTP_PASSWORD,
      Buffer.from(`api:${HTTP_PASSWORD}`).toString('base64'),
      PROXY_PASSWORD,
      Buffer.from(`me:${PROXY_PASSWORD}`).toString('base64'),
      WSSE_PASSWORD,
      certs.clientEncrypted.passphrase,
      ...target.tokenParts,
    ];
    for (const secret of secrets) expect(text.includes(secret), `${secret.slice(0, 3)}… in the report`).toBe(false);
    expect(text).toContain('***');
  });
});

/** The real CLI, asynchronously: the target runs in this process. */
function cli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/smskit.js', 'conformance', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe.skipIf(SKIP !== undefined)('smskit conformance with the network flags', () => {
  let certs: TestCertificates;
  let target: Target;
  beforeAll(async () => {
    certs = await makeCertificates();
    target = await startTarget({
      tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca, requestCert: true },
      authorization: basic('api', HTTP_PASSWORD),
    });
  });
  afterAll(async () => {
    await target?.close();
    certs?.remove();
  });
  const common = () => [
    '--target',
    `${target.origin}/serviceapi.asmx`,
    '--max-body-bytes',
    String(TEST_BODY_LIMIT),
    '--binding',
    'soap12',
    '--ca',
    certs.caFile,
    '--cert',
    certs.clientEncrypted.certFile,
    '--key',
    certs.clientEncrypted.keyFile,
    '--user',
    'api',
  ];

  it('a company CA, a client certificate with an encrypted key, HTTP Basic: secrets from the environment, exit 0', async () => {
    const run = await cli(common(), {
      SMSKIT_KEY_PASSPHRASE: certs.clientEncrypted.passphrase,
      SMSKIT_HTTP_PASSWORD: HTTP_PASSWORD,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^PASS \(--fail-on must\)/m);
    expect(run.code).toBe(0);
  });

  it('a wrong passphrase: exit 2, one line naming the flags, never the passphrase', async () => {
    const run = await cli(common(), {
      SMSKIT_KEY_PASSPHRASE: 'not-the-passphrase',
      SMSKIT_HTTP_PASSWORD: HTTP_PASSWORD,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^smskit: --ca\/--cert\/--key: the key cannot be decrypted with the passphrase given\n$/,
    );
  });

  it('network flags without --target: exit 2 (the built-in service is local plain HTTP)', async () => {
    const run = await cli(['--ca', 'ca.pem']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/apply to a --target/);
  });
});
