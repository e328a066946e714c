/**
 * The recorder and the replay on smskit's own servers (no Mono needed): forwarding unchanged on
 * all four bindings, the WSDL's address, bounded and rotating storage, an upstream that does not
 * answer, an HTTPS upstream behind its own CA, and the replay's safety: the operation allow-list,
 * recorded credentials kept on their host, bounded concurrency and rate.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LoadedRecording,
  outline,
  type Recorder,
  type RecorderOptions,
  type ReplayOptions,
  readRecording,
  replay,
  startRecorder,
} from '../../migrate/index.js';
import { listen } from '../../runtime/index.js';
import { createRichServiceListener } from '../golden/generated/asmx-rich/rich-service/index.js';
import { makeCertificates } from '../helpers/certificates.js';
import { asmxWsdl, type SmskitPeer, startSmskitPeer } from '../helpers/smskit-peers.js';
import { waitFor } from '../helpers/wait-for.js';
import { richHandlers } from '../peers/rich-handlers.js';
import { requirePeer } from '../helpers/peers.js';

const NS = 'http://smskit.dev/rich/';
const soap11 = (op: string, inner: string, header = ''): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"` },
  body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header>${header}</soap:Header><soap:Body><${op} xmlns="${NS}">${inner}</${op}></soap:Body></soap:Envelope>`,
});
const soap12 = (op: string, inner: string): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': `application/soap+xml; charset=utf-8; action="${NS}${op}"` },
  body: `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><${op} xmlns="${NS}">${inner}</${op}></soap12:Body></soap12:Envelope>`,
});

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Got> {
  const res = await request(url, {
    method: (init.method ?? (init.body === undefined ? 'GET' : 'POST')) as 'GET',
    headers: init.headers ?? {},
    body: init.body ?? null,
  });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

function options(recording: LoadedRecording, target: string, extra: Partial<ReplayOptions> = {}): ReplayOptions {
  return {
    recording,
    recordingDir: 'rec',
    target,
    network: { timeoutMs: 10_000 },
    allowWrites: true,
    operations: [],
    sendCredentials: false,
    concurrency: 4,
    ratePerSecond: 0,
    ignore: [],
    tool: 'smskit test',
    ...extra,
  };
}

const work = mkdtempSync(join(tmpdir(), 'smskit-recorder-'));
let peer: SmskitPeer;
let dirs = 0;
const newDir = (): string => join(work, `rec-${++dirs}`);

async function recording(recorder: Recorder, dir: string, count: number): Promise<LoadedRecording> {
  await waitFor(`${count} exchanges stored`, () => recorder.recorded() >= count);
  await recorder.close();
  return readRecording(dir);
}

async function recorderFor(extra: Partial<RecorderOptions> = {}): Promise<{ recorder: Recorder; dir: string }> {
  const dir = newDir();
  return { recorder: await startRecorder({ upstream: peer.url, out: dir, port: 0, ...extra }), dir };
}

beforeAll(async () => {
  peer = await startSmskitPeer('rich');
});
afterAll(async () => {
  await peer.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the recorder', () => {
  it('forwards all four bindings unchanged and stores each exchange; the WSDL names the recorder', async () => {
    const { recorder, dir } = await recorderFor();
    const calls: [string, { method?: string; headers?: Record<string, string>; body?: string }][] = [
      ['/rich.asmx', soap11('Add', '<a>2</a><b>3</b>')],
      ['/rich.asmx', soap12('EchoColor', '<color>Blue</color>')],
      ['/rich.asmx/Add?a=4&b=5', {}],
      ['/rich.asmx/Add', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=6&b=7' }],
      ['/rich.asmx', soap11('Add', '<a>x</a><b>3</b>')],
    ];
    const answers: string[] = [];
    for (const [path, init] of calls) {
      const direct = await call(`${peer.origin}${path}`, init);
      const proxied = await call(`${recorder.url}${path}`, init);
      expect(proxied.status, path).toBe(direct.status);
      expect(proxied.body.toString(), path).toBe(direct.body.toString());
      expect(proxied.headers['content-type']).toBe(direct.headers['content-type']);
      answers.push(proxied.body.toString());
    }
    expect(answers[0]).toContain('<AddResult>5</AddResult>');
    expect(answers[1]).toContain('<EchoColorResult>Blue</EchoColorResult>');
    expect(answers[4]).toContain('<faultcode>soap:Client</faultcode>');
    const wsdl = await call(`${recorder.url}/rich.asmx?wsdl`);
    expect(wsdl.body.toString()).toContain(`location="${recorder.url}/rich.asmx"`);
    expect(wsdl.body.toString()).not.toContain(peer.origin);
    const rec = await recording(recorder, dir, calls.length + 1);
    expect(rec.exchanges.map((e) => e.request.target)).toEqual([...calls.map(([p]) => p), '/rich.asmx?wsdl']);
    expect(rec.meta.secretFields).toContain('Token');
    // The stored WSDL is the upstream's own.
    expect(Buffer.from(rec.exchanges.at(-1)!.response!.body, 'base64').toString()).toContain(peer.origin);
    const report = await replay(options(rec, peer.origin));
    expect(report.summary).toMatchObject({ replayed: 6, matched: 6, groups: 0, ok: true });
  });

  it('keeps its storage bounded: bodies cut, files rotated, the oldest dropped', async () => {
    const { recorder, dir } = await recorderFor({ limits: { maxBodyBytes: 600, maxFileBytes: 4096, maxFiles: 2 } });
    const long = soap11('EchoStrings', `<items>${'<string>abcdefghij</string>'.repeat(40)}</items>`);
    await call(`${recorder.url}/rich.asmx`, long);
    for (let i = 0; i < 30; i++) await call(`${recorder.url}/rich.asmx/Add?a=${i}&b=1`);
    const rec = await recording(recorder, dir, 31);
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl')).length).toBe(2);
    expect(rec.exchanges.length).toBeLessThan(31);
    expect(rec.exchanges.at(-1)!.id).toBe(31);
    const full = await recorderFor({ limits: { maxBodyBytes: 600 } });
    await call(`${full.recorder.url}/rich.asmx`, long);
    const cut = await recording(full.recorder, full.dir, 1);
    expect(cut.exchanges[0]!.request.truncated).toBe(true);
    expect(Buffer.from(cut.exchanges[0]!.request.body, 'base64').length).toBe(600);
    const report = await replay(options(cut, peer.origin));
    expect(report.skipped).toEqual([{ reason: 'request body cut at recording (over --max-body-bytes)', count: 1 }]);
    // A long answer is forwarded whole and stored cut.
    const answer = await recorderFor({ limits: { maxBodyBytes: 300 } });
    const strings = soap11('EchoStrings', `<items>${'<string>abcdefghij</string>'.repeat(40)}</items>`);
    const whole = await call(`${answer.recorder.url}/rich.asmx`, strings);
    expect(whole.body.length).toBeGreaterThan(800);
    const stored = (await recording(answer.recorder, answer.dir, 1)).exchanges[0]!.response!;
    expect(stored.truncated).toBe(true);
    expect(Buffer.from(stored.body, 'base64').length).toBe(300);
  });

  it('answers 502 when the upstream does not answer, and 413 past the request limit', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const dir = newDir();
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${port}/x.asmx`,
      out: dir,
      port: 0,
      maxRequestBytes: 100,
    });
    const res = await call(`${recorder.url}/x.asmx/Op?a=1`);
    expect(res.status).toBe(502);
    expect(res.body.toString()).toMatch(/did not answer \(ECONNREFUSED\)/);
    expect((await call(`${recorder.url}/x.asmx`, { body: 'x'.repeat(200) })).status).toBe(413);
    const rec = await recording(recorder, dir, 1);
    expect(rec.exchanges[0]!.response).toBeUndefined();
    expect(rec.exchanges[0]!.failure).toBe('the upstream did not answer (ECONNREFUSED); the client was answered 502');
  });

  it('refuses a folder that already holds a recording', async () => {
    const { recorder, dir } = await recorderFor();
    await recorder.close();
    await expect(startRecorder({ upstream: peer.url, out: dir, port: 0 })).rejects.toThrow(/already holds a recording/);
  });
});

describe.skipIf(requirePeer('openssl', 'migrate/recorder (an HTTPS upstream)').reason !== undefined)(
  'an HTTPS upstream',
  () => {
    it('is reached with the network options (its CA), and refused without them', async () => {
      const certs = await makeCertificates();
      const listener = createRichServiceListener(richHandlers, { wsdl: asmxWsdl('rich') });
      const https = await listen(listener, {
        host: '127.0.0.1',
        port: 0,
        tls: { cert: certs.server.cert, key: certs.server.key },
      });
      try {
        const dir = newDir();
        const recorder = await startRecorder({
          upstream: `${https.url}/rich.asmx`,
          out: dir,
          port: 0,
          tls: { ca: certs.ca },
        });
        const res = await call(`${recorder.url}/rich.asmx/Add?a=1&b=2`);
        expect(res.status).toBe(200);
        expect(outline({ status: res.status, headers: res.headers, body: res.body }).at(-1)).toMatch(/= "3"$/);
        await recording(recorder, dir, 1);
        const untrusting = await startRecorder({ upstream: `${https.url}/rich.asmx`, out: newDir(), port: 0 });
        expect((await call(`${untrusting.url}/rich.asmx/Add?a=1&b=2`)).status).toBe(502);
        await untrusting.close();
      } finally {
        await https.close();
        certs.remove();
      }
    });
  },
);

describe('replay safety', () => {
  let withSecrets: LoadedRecording;
  beforeAll(async () => {
    const { recorder, dir } = await recorderFor({ keepSecrets: true });
    const auth = '<Auth xmlns="http://smskit.dev/rich/"><User>u</User><Token>kept-token</Token></Auth>';
    await call(`${recorder.url}/rich.asmx`, {
      ...soap11('WhoAmI', '', auth),
      headers: { ...soap11('WhoAmI', '').headers, authorization: 'Basic dTpw' },
    });
    await call(`${recorder.url}/rich.asmx/Add?a=1&b=2`);
    await call(`${recorder.url}/rich.asmx/Ping`, {
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    withSecrets = await recording(recorder, dir, 3);
  });

  it('keeps secrets only when told, and lists them either way', () => {
    expect(withSecrets.meta.secretsKept).toBe(true);
    const first = withSecrets.exchanges[0]!;
    expect(Buffer.from(first.request.body, 'base64').toString()).toContain('kept-token');
    expect(first.secrets).toEqual(['header authorization', 'element Token']);
  });

  it('does not send recorded credentials to another host unless told', async () => {
    const other = peer.origin.replace('127.0.0.1', 'localhost');
    const refused = await replay(options(withSecrets, other));
    expect(refused.summary.replayed).toBe(2);
    expect(refused.skipped[0]!.reason).toMatch(/carries recorded credentials/);
    const told = await replay(options(withSecrets, other, { sendCredentials: true }));
    expect(told.summary).toMatchObject({ replayed: 3, skipped: 0 });
    const sameHost = await replay(options(withSecrets, peer.origin));
    expect(sameHost.summary).toMatchObject({ replayed: 3, skipped: 0 });
  });

  it('sends only the operations of the allow-list', async () => {
    const report = await replay(options(withSecrets, peer.origin, { allowWrites: false, operations: ['Add'] }));
    expect(report.summary.replayed).toBe(1);
    expect(report.skipped).toEqual([
      { reason: 'operation not in --operations (give --allow-writes to send every operation)', count: 2 },
    ]);
  });

  it('keeps to its concurrency and rate', async () => {
    let inFlight = 0;
    let most = 0;
    let arrived = 0;
    // While `holdUntil` is set, answers wait until that many requests are in flight (or all 12
    // came): the concurrency is then reached whatever the machine's speed, and never passed.
    let holdUntil: number | undefined;
    const held: Array<() => void> = [];
    const answer = (res: ServerResponse) => () => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x');
    };
    const target = createServer((req, res) => {
      inFlight++;
      arrived++;
      most = Math.max(most, inFlight);
      req.resume();
      if (holdUntil === undefined) return void setTimeout(answer(res), 20);
      held.push(answer(res));
      if (inFlight >= holdUntil || arrived % 12 === 0) for (const release of held.splice(0)) release();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const many: LoadedRecording = {
      ...withSecrets,
      meta: { ...withSecrets.meta, secretsKept: false },
      exchanges: Array.from({ length: 12 }, (_, i) => ({ ...withSecrets.exchanges[1]!, id: i + 1 })),
    };
    try {
      holdUntil = 2;
      await replay(options(many, url, { concurrency: 2 }));
      expect(most).toBe(2);
      holdUntil = undefined;
      const started = performance.now();
      await replay(options(many, url, { concurrency: 8, ratePerSecond: 40 }));
      // 12 starts at most 40 a second, evenly spaced: the last one no sooner than 11/40 s in. A
      // lower bound, with a fifth off for timer rounding: load only makes the run longer; without
      // the gate the 12 go out in a few milliseconds.
      expect(performance.now() - started).toBeGreaterThanOrEqual((11 / 40) * 1000 * 0.8);
      // Reports show no kept secret: every exchange differs here, with its answers and curl.
      const differing = await replay(options(withSecrets, url));
      expect(differing.groups.length).toBeGreaterThan(0);
      expect(differing.groups.some((g) => /authorization: \*\*\*/i.test(g.example.curl))).toBe(true);
      expect(JSON.stringify(differing)).not.toMatch(/kept-token|dTpw/);
    } finally {
      target.closeAllConnections();
      await new Promise<void>((r) => target.close(() => r()));
    }
  });
});
