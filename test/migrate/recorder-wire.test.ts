/**
 * The recorder as an HTTP intermediary, against small hand-written upstreams: an answer that
 * breaks off, compression, the Connection header's own list, and the forwarding headers.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { recordedDescriptor, replay } from '../../migrate/index.js';
import { ReplayServer } from '../../migrate/send.js';
import { handUpstreams, recording } from './hand-upstream.js';

const { upstream, recorderFor } = handUpstreams('smskit-recorder-wire-');

describe('the recorder as an intermediary', () => {
  it('aborts the client when the upstream breaks off mid-body, and stores the answer cut', async () => {
    const origin = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write('<partial>'.repeat(100));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { recorder, dir } = await recorderFor(origin);
    const res = await request(`${recorder.url}/svc.asmx`, { method: 'POST', body: '<x/>' });
    expect(res.statusCode).toBe(200);
    await expect(res.body.text()).rejects.toThrow();
    const rec = await recording(recorder, dir, 1);
    expect(rec.exchanges[0]!.response!.truncated).toBe(true);
    expect(Buffer.from(rec.exchanges[0]!.response!.body, 'base64').toString()).toContain('<partial>');
    expect(rec.exchanges[0]!.failure).toMatch(
      /^the answer broke off after 900 bytes \(\w+\); the client's connection was aborted$/,
    );
  });

  it('answers 502 for a WSDL that breaks off, and records the exchange as failed, with why', async () => {
    const wsdl = '<definitions><types>'.padEnd(4000, ' ');
    const origin = await upstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml', 'content-length': String(wsdl.length * 2) });
      res.write(wsdl);
      // The start-up read breaks off too: only the client's request is counted below.
      setTimeout(() => res.socket?.destroy(), 20);
      req.resume();
    });
    const warnings: string[] = [];
    const { recorder, dir } = await recorderFor(`${origin}/svc.asmx`, warnings);
    const res = await request(`${recorder.url}/svc.asmx?wsdl`);
    expect(res.statusCode).toBe(502);
    expect(await res.body.text()).toMatch(
      /^smskit record: the upstream's WSDL did not arrive whole \(the answer broke off after 4000 bytes/,
    );
    const rec = await recording(recorder, dir, 1);
    const [exchange] = rec.exchanges;
    expect(exchange!.failure).toMatch(/^the answer broke off after 4000 bytes \(\w+\); the client was answered 502$/);
    expect(exchange!.response!.status).toBe(200);
    expect(exchange!.response!.truncated).toBe(true);
    expect(Buffer.from(exchange!.response!.body, 'base64').toString()).toBe(wsdl);
    expect(warnings.join('\n')).toContain("record: the upstream's WSDL (/svc.asmx?wsdl): the answer broke off");
    // Not a complete answer: a replay without a reference does not compare against it, and its
    // WSDL is not taken for the declared types.
    const replayed = await replay({
      recording: rec,
      recordingDir: dir,
      target: origin,
      network: { timeoutMs: 5_000 },
      allowWrites: true,
      operations: [],
      sendCredentials: false,
      concurrency: 1,
      ratePerSecond: 0,
      ignore: [],
      tool: 'smskit test',
    });
    expect(replayed.skipped).toEqual([
      { reason: 'the recorded exchange failed (its `failure` says why): no complete answer to compare with', count: 1 },
    ]);
    expect(recordedDescriptor(rec)).toBeUndefined();
  });

  it('asks the upstream for no compression, and decodes an answer compressed anyway', async () => {
    const seen: (string | undefined)[] = [];
    const wsdl = (origin: string): string =>
      `<definitions><service><port><address location="${origin}/svc.asmx"/></port></service></definitions>`;
    let self = '';
    const origin = await upstream((req, res) => {
      seen.push(req.headers['accept-encoding']);
      const gzip = /gzip/.test(req.headers['accept-encoding'] ?? '') || req.url === '/svc.asmx?wsdl';
      const body = req.url === '/svc.asmx?wsdl' ? wsdl(self) : '<r><password>hunter2</password></r>';
      res.writeHead(200, { 'content-type': 'text/xml', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(gzip ? gzipSync(body) : body);
    });
    self = origin;
    const { recorder, dir } = await recorderFor(origin);
    const answer = await request(`${recorder.url}/svc.asmx`, {
      method: 'POST',
      headers: { 'accept-encoding': 'gzip, deflate' },
      body: '<x/>',
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(await answer.body.text()).toContain('hunter2');
    // Compressed though identity was asked for: rewritten decoded, sent without a coding.
    const got = await request(`${recorder.url}/svc.asmx?wsdl`, { headers: { 'accept-encoding': 'gzip' } });
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(await got.body.text()).toBe(wsdl(recorder.url));
    expect(seen).toEqual(['identity', 'identity']);
    const rec = await recording(recorder, dir, 2);
    const stored = rec.exchanges.map((e) => Buffer.from(e.response!.body, 'base64').toString());
    expect(stored[0]).toBe('<r><password>***</password></r>');
    expect(stored[1]).toBe(wsdl(origin));
    expect(rec.exchanges[1]!.response!.headers.map(([n]) => n.toLowerCase())).not.toContain('content-encoding');
  });

  it('replays asking for no compression, and compares a compressed answer decoded', async () => {
    const seen: (string | undefined)[] = [];
    const origin = await upstream((req, res) => {
      seen.push(req.headers['accept-encoding']);
      res.writeHead(200, { 'content-type': 'text/xml', 'content-encoding': 'gzip' });
      res.end(gzipSync('<ok/>'));
    });
    const server = new ReplayServer(origin, { timeoutMs: 5_000, connections: 1 });
    const answer = await server.send({
      method: 'POST',
      target: '/svc.asmx',
      headers: [['Accept-Encoding', 'gzip, br']],
      body: Buffer.from('<x/>').toString('base64'),
    });
    await server.close();
    expect(seen).toEqual(['identity']);
    expect(answer.body.toString()).toBe('<ok/>');
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  it('keeps the headers a Connection field lists on their hop, both ways, and in a replay', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const origin = await upstream((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/xml', connection: 'X-Up-Hop', 'x-up-hop': 'a', 'x-up-end': 'b' });
      res.end('<ok/>');
    });
    const { recorder, dir } = await recorderFor(origin);
    // node:http, not undici: undici will not send a Connection header of the caller's.
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${recorder.url}/svc.asmx`, {
        method: 'POST',
        headers: { connection: 'keep-alive, X-Client-Hop', 'x-client-hop': '1', 'x-client-end': '2' },
      });
      req.on('response', resolve).on('error', reject).end('<x/>');
    });
    answer.resume();
    expect(seen[0]!['x-client-hop']).toBeUndefined();
    expect(seen[0]!['x-client-end']).toBe('2');
    expect(answer.headers['x-up-hop']).toBeUndefined();
    expect(answer.headers['x-up-end']).toBe('b');
    const rec = await recording(recorder, dir, 1);
    const server = new ReplayServer(origin, { timeoutMs: 5_000, connections: 1 });
    const names = server.headersFor(rec.exchanges[0]!.request).map(([n]) => n.toLowerCase());
    await server.close();
    expect(names).not.toContain('x-client-hop');
    expect(names).toContain('x-client-end');
    expect(
      server.headersFor({
        method: 'GET',
        target: '/',
        body: '',
        headers: [
          ['Connection', 'X-A'],
          ['X-A', '1'],
        ],
      }),
    ).toEqual([
      ['Host', new URL(origin).host],
      ['Accept-Encoding', 'identity'],
    ]);
  });

  it('tells the upstream who the client is: X-Forwarded-For, -Proto and -Host', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const origin = await upstream((req, res) => {
      seen.push(req.headers);
      res.end('<ok/>');
    });
    const { recorder, dir } = await recorderFor(origin);
    await (await request(`${recorder.url}/svc.asmx`)).body.text();
    await (await request(`${recorder.url}/svc.asmx`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).body.text();
    await recording(recorder, dir, 2);
    expect(seen[0]!['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen[0]!['x-forwarded-proto']).toBe('http');
    expect(seen[0]!['x-forwarded-host']).toBe(new URL(recorder.url).host);
    expect(seen[0]!.host).toBe(new URL(origin).host);
    expect(seen[1]!['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
  });

  it("passes a slow client's pace on to the upstream instead of holding the answer in memory", async () => {
    // Far above what the socket buffers of both connections hold on any host: a recorder that reads
    // ahead of its client takes in far more than TOTAL / 4 while the client pauses.
    const TOTAL = 128 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let handed = 0;
    const origin = await upstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(TOTAL) });
      // The upstream keeps to its own socket's pace: what it has handed over is what the far side took.
      while (handed < TOTAL && !res.destroyed) {
        handed += chunk.length;
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    const { recorder, dir } = await recorderFor(origin);
    let handedWhilePaused = Number.NaN;
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${recorder.url}/big.bin`, (res: IncomingMessage) => {
        let bytes = 0;
        res.once('data', () => {
          // The client stops reading for a while: the upstream must be held back by then.
          res.pause();
          setTimeout(() => {
            handedWhilePaused = handed;
            res.resume();
          }, 800);
        });
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(handedWhilePaused).toBeLessThan(TOTAL / 4);
    expect(received).toBe(TOTAL);
    const rec = await recording(recorder, dir, 1);
    expect(rec.exchanges[0]!.response!.truncated).toBe(true);
    expect(rec.exchanges[0]!.failure).toBeUndefined();
  });

  /** An upstream that answers every path with TOTAL bytes at its socket's pace, counting what it handed over per path. */
  async function bigAnswers(total: number): Promise<{ origin: string; handed: Map<string, number> }> {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const handed = new Map<string, number>();
    const origin = await upstream(async (req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
      while ((handed.get(req.url!) ?? 0) < total && !res.destroyed) {
        handed.set(req.url!, (handed.get(req.url!) ?? 0) + chunk.length);
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    return { origin, handed };
  }

  it('stops reading the answer when the client goes away, and records the exchange failed', async () => {
    const TOTAL = 64 * 1024 * 1024;
    const { origin, handed } = await bigAnswers(TOTAL);
    const warnings: string[] = [];
    const { recorder, dir } = await recorderFor(origin, warnings);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${recorder.url}/big.bin`, (res: IncomingMessage) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.once('error', reject);
      req.end();
    });
    const rec = await recording(recorder, dir, 1);
    expect(rec.exchanges[0]!.failure).toMatch(
      /^the client went away after \d+ bytes of the answer; the rest was not read from the upstream$/,
    );
    expect(rec.exchanges[0]!.response!.truncated).toBe(true);
    expect(handed.get('/big.bin')).toBeLessThan(TOTAL / 4);
    expect(warnings.join('\n')).toContain('record: the answer to /big.bin: the client went away after');
  });

  it('ends a pipelined exchange whose client left before its answer could start', async () => {
    const { origin } = await bigAnswers(32 * 1024 * 1024);
    const { recorder, dir } = await recorderFor(origin);
    const { port, hostname } = new URL(recorder.url);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    // Two requests at once; the client reads nothing, then leaves while the first answer is sent.
    socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    // Both exchanges end, and the recorder closes (it waited for the second answer's room forever).
    const rec = await recording(recorder, dir, 2);
    expect(rec.exchanges.map((e) => e.failure)).toEqual([
      expect.stringMatching(/^the client went away after/),
      expect.stringMatching(/^the client went away after/),
    ]);
  });
});
