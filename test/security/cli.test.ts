/**
 * The network flags on the command line, as real processes: `smskit send` and `smskit call`
 * with --ca, --cert/--key (an encrypted key's passphrase from its variable), --proxy and
 * --proxy-from-env, --user and --bearer against an HTTPS service that requires client
 * certificates; `smskit serve --tls-cert --tls-key [--tls-ca --require-client-cert]`. No secret
 * appears in any output.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, repoRoot, runCliAsync, tempDir } from '../../tools/serve-process.js';
import type { CliResult } from '../helpers/cli.js';
import { makeCertificates, type TestCertificates } from '../helpers/certificates.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { ACCOUNT, GOOD_MESSAGE, startTestService, type TestService } from './https-service.js';
import { requirePeer } from '../helpers/peers.js';

const SKIP = requirePeer('openssl', 'security/cli').reason;
const MESSAGE_ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}\n$/;
const HTTP_PASSWORD = 'http pässword 88';
const TOKEN = 'cli-bearer-token-0123456789';

function sendArgs(url: string, ...extra: string[]): string[] {
  return [
    'send',
    '--url',
    url,
    '--keyword',
    GOOD_MESSAGE.keyword,
    '--email',
    GOOD_MESSAGE.emailAddress,
    '--to',
    GOOD_MESSAGE.smsto,
    '--carrier',
    GOOD_MESSAGE.carrierCode,
    '--message',
    GOOD_MESSAGE.smsmsg,
    ...extra,
  ];
}

const withPassword = (env: NodeJS.ProcessEnv = {}): { env: NodeJS.ProcessEnv } => ({
  env: { SMSKIT_PASSWORD: ACCOUNT.password, ...env },
});

function expectNoSecrets(result: CliResult, secrets: readonly string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe.skipIf(SKIP !== undefined)('network flags of smskit send and smskit call', () => {
  let certs: TestCertificates;
  let mtls: TestService;
  let plain: TestService;
  let proxy: ForwardProxy;
  let mtlsFlags: string[];
  beforeAll(async () => {
    certs = await makeCertificates();
    [mtls, plain, proxy] = await Promise.all([
      startTestService({ cert: certs.server.cert, key: certs.server.key, ca: certs.ca, requestCert: true }),
      startTestService(undefined),
      startForwardProxy(),
    ]);
    mtlsFlags = ['--ca', certs.caFile, '--cert', certs.client.certFile, '--key', certs.client.keyFile];
  });
  afterAll(async () => {
    await Promise.all([mtls?.close(), plain?.close(), proxy?.close()]);
    certs?.remove();
  });

  it('send: HTTPS with the company CA and a client certificate', async () => {
    const result = await runCliAsync(sendArgs(mtls.endpoint, '--binding', 'soap12', ...mtlsFlags), withPassword());
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(MESSAGE_ID);
    expect(result.status).toBe(0);
  });

  it('send: an encrypted key, its passphrase from SMSKIT_KEY_PASSPHRASE', async () => {
    const { certFile, keyFile, passphrase } = certs.clientEncrypted;
    const args = sendArgs(mtls.endpoint, '--ca', certs.caFile, '--cert', certFile, '--key', keyFile);
    const ok = await runCliAsync(args, withPassword({ SMSKIT_KEY_PASSPHRASE: passphrase }));
    expect(ok.stdout).toMatch(MESSAGE_ID);
    const missing = await runCliAsync(args, withPassword());
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no key passphrase: set SMSKIT_KEY_PASSPHRASE, pass --key-passphrase-stdin');
    const wrong = await runCliAsync(args, withPassword({ SMSKIT_KEY_PASSPHRASE: 'not-the-passphrase-3' }));
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe('smskit: --ca/--cert/--key: the key cannot be decrypted with the passphrase given\n');
    expectNoSecrets(wrong, ['not-the-passphrase-3', passphrase]);
  });

  it('send: without --ca, a TLS error naming the cause and the flag (exit 2)', async () => {
    const result = await runCliAsync(sendArgs(mtls.endpoint), withPassword());
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^smskit: TLS failure with https:\/\/127\.0\.0\.1:\d+: .*unknown CA: .*--ca\)\n$/);
  });

  it('send: without --cert/--key at a server that requires them, a TLS error, nothing handled (exit 2)', async () => {
    const before = mtls.handled();
    const result = await runCliAsync(sendArgs(mtls.endpoint, '--ca', certs.caFile), withPassword());
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/TLS failure with .*requires a client certificate.*--cert and --key/);
    expect(mtls.handled()).toBe(before);
  });

  it('send: through --proxy (a CONNECT tunnel the proxy counted)', async () => {
    const tunnels = proxy.connects.length;
    const result = await runCliAsync(sendArgs(mtls.endpoint, ...mtlsFlags, '--proxy', proxy.url), withPassword());
    expect(result.stdout).toMatch(MESSAGE_ID);
    expect(proxy.connects.slice(tunnels)).toEqual([new URL(mtls.origin).host]);
  });

  it('send: --proxy-from-env uses HTTP_PROXY; without the flag the variables are ignored', async () => {
    const env = { HTTP_PROXY: proxy.url, http_proxy: proxy.url };
    const before = proxy.requests.length;
    const used = await runCliAsync(sendArgs(plain.endpoint, '--proxy-from-env'), withPassword(env));
    expect(used.stdout).toMatch(MESSAGE_ID);
    expect(proxy.requests.length).toBe(before + 1);
    const ignored = await runCliAsync(sendArgs(plain.endpoint), withPassword(env));
    expect(ignored.stdout).toMatch(MESSAGE_ID);
    expect(proxy.requests.length).toBe(before + 1);
  });

  it('send: SMSKIT_PROXY_URL is the proxy when neither --proxy nor --proxy-from-env is given', async () => {
    const before = proxy.requests.length;
    const used = await runCliAsync(sendArgs(plain.endpoint), withPassword({ SMSKIT_PROXY_URL: proxy.url }));
    expect(used.stdout).toMatch(MESSAGE_ID);
    expect(proxy.requests.length).toBe(before + 1);
  });

  it('send: --user-password-stdin wins over SMSKIT_HTTP_PASSWORD', async () => {
    const result = await runCliAsync(
      sendArgs(plain.endpoint, '--binding', 'http-get', '--user', 'api-user', '--user-password-stdin'),
      { ...withPassword({ SMSKIT_HTTP_PASSWORD: 'from-the-environment' }), input: `${HTTP_PASSWORD}\n` },
    );
    expect(result.stdout).toMatch(MESSAGE_ID);
    expect(plain.seenHeaders.at(-1)?.authorization).toBe(
      `Basic ${Buffer.from(`api-user:${HTTP_PASSWORD}`).toString('base64')}`,
    );
  });

  it('send: --user sends HTTP Basic, the password from SMSKIT_HTTP_PASSWORD, never printed', async () => {
    const result = await runCliAsync(
      sendArgs(plain.endpoint, '--binding', 'http-get', '--user', 'api-user'),
      withPassword({ SMSKIT_HTTP_PASSWORD: HTTP_PASSWORD }),
    );
    expect(result.stdout).toMatch(MESSAGE_ID);
    expect(plain.seenHeaders.at(-1)?.authorization).toBe(
      `Basic ${Buffer.from(`api-user:${HTTP_PASSWORD}`).toString('base64')}`,
    );
    expectNoSecrets(result, [HTTP_PASSWORD, ACCOUNT.password]);
  });

  it('send: --bearer with the token from standard input', async () => {
    const result = await runCliAsync(sendArgs(plain.endpoint, '--bearer', '--bearer-stdin'), {
      ...withPassword(),
      input: `${TOKEN}\n`,
    });
    expect(result.stdout).toMatch(MESSAGE_ID);
    expect(plain.seenHeaders.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it.each([
    [
      ['--password-stdin', '--user', 'u', '--user-password-stdin'],
      /--password-stdin and --user-password-stdin both read standard input/,
    ],
    [['--user', 'u', '--bearer'], /--user and --bearer cannot be used together/],
    [['--cert', 'c.pem'], /--cert needs --key/],
    [['--proxy', 'http://p:1', '--proxy-from-env'], /--proxy and --proxy-from-env cannot be used together/],
    [['--wsse-password-type', 'Text'], /--wsse-password-type needs --wsse-user/],
    [['--proxy', 'http://u:argv-s3cret@p:1'], /--proxy must not carry credentials .*set SMSKIT_PROXY_URL/],
    [['--servername', 'svc.example'], /--servername: for https:\/\/ URLs only/],
    [['--ca', '/nonexistent/ca.pem'], /cannot read --ca \/nonexistent\/ca\.pem: ENOENT/],
  ])('send refuses %j (exit 2)', async (extra, message) => {
    const result = await runCliAsync(sendArgs(plain.endpoint, ...extra), withPassword({ SMSKIT_HTTP_PASSWORD: 'x' }));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('call: any WSDL operation over HTTPS with --ca --cert --key and --user', async () => {
    const input = JSON.stringify(GOOD_MESSAGE);
    const result = await runCliAsync(
      [
        'call',
        'wsdl/serviceapi.wsdl',
        'SMSSend',
        '--url',
        mtls.endpoint,
        '--binding',
        'http-post',
        ...mtlsFlags,
        '--user',
        'api-user',
        '--input',
        input,
      ],
      { env: { SMSKIT_HTTP_PASSWORD: HTTP_PASSWORD } },
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ SMSSendResult: expect.stringMatching(/^SMS-/) });
    expect(mtls.seenHeaders.at(-1)?.authorization).toMatch(/^Basic /);
    expectNoSecrets(result, [HTTP_PASSWORD]);
  });

  it('call: a WSDL fetched over mutual TLS with the same --ca --cert --key, its address used for the call', async () => {
    const result = await runCliAsync(
      [
        'call',
        `${mtls.endpoint}?wsdl`,
        'SMSSend',
        '--binding',
        'soap12',
        ...mtlsFlags,
        '--user',
        'api-user',
        '--input',
        JSON.stringify(GOOD_MESSAGE),
      ],
      { env: { SMSKIT_HTTP_PASSWORD: HTTP_PASSWORD } },
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ SMSSendResult: expect.stringMatching(/^SMS-/) });
    expectNoSecrets(result, [HTTP_PASSWORD]);
  });

  it('call: --input @- and a secret from standard input cannot both be read', async () => {
    const result = await runCliAsync([
      'call',
      'wsdl/serviceapi.wsdl',
      'SMSSend',
      '--url',
      plain.endpoint,
      '--input',
      '@-',
      '--bearer',
      '--bearer-stdin',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--input @- and --bearer-stdin both read standard input/);
  });
});

/** A SOAP 1.1 peer that records each request body and answers SMSSend with a fixed id. */
async function recordingPeer(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const answer =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    '<soap:Body><SMSSendResponse xmlns="http://smskit.dev/serviceapi/"><SMSSendResult>SMS-01ARZ3NDEKTSV4RRFFQ69G5FAV</SMSSendResult>' +
    '</SMSSendResponse></soap:Body></soap:Envelope>';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(answer);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/serviceapi.asmx`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('--wsse-user', () => {
  const WSSE_PASSWORD = 'wsse pässword 64';
  let peer: Awaited<ReturnType<typeof recordingPeer>>;
  beforeAll(async () => {
    peer = await recordingPeer();
  });
  afterAll(() => peer?.close());

  it('puts a UsernameToken in the SOAP header (Digest by default: the password is not on the wire)', async () => {
    const result = await runCliAsync(
      sendArgs(peer.url, '--wsse-user', 'wsse-alice'),
      withPassword({ SMSKIT_WSSE_PASSWORD: WSSE_PASSWORD }),
    );
    expect(result.stdout).toBe('SMS-01ARZ3NDEKTSV4RRFFQ69G5FAV\n');
    const body = peer.bodies.at(-1) ?? '';
    expect(body).toMatch(/<wsse:Username>wsse-alice<\/wsse:Username>/);
    expect(body).toContain('#PasswordDigest');
    expect(body).not.toContain(WSSE_PASSWORD);
    expectNoSecrets(result, [WSSE_PASSWORD]);
  });

  it('--wsse-password-type Text, the password from --wsse-password-stdin', async () => {
    const result = await runCliAsync(
      sendArgs(peer.url, '--wsse-user', 'wsse-alice', '--wsse-password-type', 'Text', '--wsse-password-stdin'),
      {
        ...withPassword(),
        input: `${WSSE_PASSWORD}\n`,
      },
    );
    expect(result.status).toBe(0);
    expect(peer.bodies.at(-1)).toContain(`#PasswordText">${WSSE_PASSWORD}</wsse:Password>`);
  });

  it('is refused over HTTP GET/POST (no SOAP header), naming the flag', async () => {
    const result = await runCliAsync(
      sendArgs(peer.url, '--binding', 'http-get', '--wsse-user', 'wsse-alice'),
      withPassword({ SMSKIT_WSSE_PASSWORD: WSSE_PASSWORD }),
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^smskit: --wsse-user \(a WS-Security UsernameToken\) cannot be sent over http-get/);
  });
});

interface ServeHandle {
  readonly url: string;
  stop(): Promise<void>;
}

/** `smskit serve` over HTTPS as a process, until it prints its https:// URL. */
function startHttpsServe(db: string, flags: readonly string[]): Promise<ServeHandle> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'bin/smskit.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, ...flags],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`smskit serve printed no URL within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: string): void => {
      output += chunk;
      const match = /SMS service listening on (https:\/\/\S+\/serviceapi\.asmx)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`smskit serve exited:\n${output}`));
    });
  });
}

describe.skipIf(SKIP !== undefined)('smskit serve over HTTPS', () => {
  let certs: TestCertificates;
  const dir = tempDir('serve-tls');
  const db = join(dir.path, 'service.sqlite');
  beforeAll(async () => {
    certs = await makeCertificates();
    await addAccount(db, { email: ACCOUNT.email, keywords: [ACCOUNT.keyword], password: ACCOUNT.password });
  });
  afterAll(() => {
    certs?.remove();
    dir.remove();
  });

  it('serves HTTPS with --tls-cert/--tls-key', async () => {
    const serve = await startHttpsServe(db, ['--tls-cert', certs.server.certFile, '--tls-key', certs.server.keyFile]);
    try {
      const sent = await runCliAsync(sendArgs(serve.url, '--ca', certs.caFile), withPassword());
      expect(sent.stdout).toMatch(MESSAGE_ID);
    } finally {
      await serve.stop();
    }
  });

  it('with --tls-ca --require-client-cert, serves only clients with a certificate from that CA', async () => {
    const serve = await startHttpsServe(db, [
      '--tls-cert',
      certs.server.certFile,
      '--tls-key',
      certs.server.keyFile,
      '--tls-ca',
      certs.caFile,
      '--require-client-cert',
    ]);
    try {
      const withCert = await runCliAsync(
        sendArgs(serve.url, '--ca', certs.caFile, '--cert', certs.client.certFile, '--key', certs.client.keyFile),
        withPassword(),
      );
      expect(withCert.stdout).toMatch(MESSAGE_ID);
      const without = await runCliAsync(sendArgs(serve.url, '--ca', certs.caFile), withPassword());
      expect(without.status).toBe(2);
      expect(without.stderr).toMatch(/requires a client certificate/);
      const otherCa = await runCliAsync(
        sendArgs(
          serve.url,
          '--ca',
          certs.caFile,
          '--cert',
          certs.otherClient.certFile,
          '--key',
          certs.otherClient.keyFile,
        ),
        withPassword(),
      );
      expect(otherCa.status).toBe(2);
      expect(otherCa.stderr).toMatch(/does not accept the client certificate/);
    } finally {
      await serve.stop();
    }
  });

  it.each([
    [['--tls-cert', 'a.pem'], /--tls-cert and --tls-key go together/],
    [['--require-client-cert'], /--require-client-cert need --tls-cert and --tls-key/],
    [
      ['--tls-cert', 'a.pem', '--tls-key', 'b.key', '--require-client-cert'],
      /checks client certificates against --tls-ca/,
    ],
  ])('refuses %j (exit 2)', async (flags, message) => {
    const result = await runCliAsync(['serve', '--port', '0', '--db', db, ...flags]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('refuses a key that does not belong to the certificate, naming the flags', async () => {
    const result = await runCliAsync([
      'serve',
      '--port',
      '0',
      '--db',
      db,
      '--tls-cert',
      certs.server.certFile,
      '--tls-key',
      certs.client.keyFile,
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('smskit: --tls-cert/--tls-key: the key does not belong to the certificate\n');
  });
});
