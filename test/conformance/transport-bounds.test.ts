/**
 * The runner's transport under its bounds, in process: which failures are retried (none once a
 * response head arrived), the run's signal ending an exchange in flight, and the raw-socket path
 * keeping the same deadline and byte limit as the pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTimedOut } from '../../conformance/run/bounds.js';
import { Transport, TransportFailure } from '../../conformance/run/transport.js';
import type { RequestSpec } from '../../conformance/types.js';
import { startHostileServer, type HostileKind, type HostileServer } from './hostile-servers.js';

const servers = new Map<HostileKind, HostileServer>();
const KINDS: HostileKind[] = ['never-answers', 'slow-drip', 'reset-mid-body', 'endless-body', 'endless-headers'];

beforeAll(async () => {
  for (const kind of KINDS) servers.set(kind, await startHostileServer(kind));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

const POST: RequestSpec = {
  method: 'POST',
  path: '/serviceapi.asmx',
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body: '<x/>',
};
const RAW: RequestSpec = { ...POST, body: 'x'.repeat(8192), mayAnswerEarly: true };

async function failure(
  kind: HostileKind,
  request: RequestSpec,
  options: { timeoutMs?: number; retries?: number; run?: AbortSignal } = {},
): Promise<{ failure: TransportFailure; requests: number; ms: number }> {
  const server = servers.get(kind)!;
  const before = server.requests.length;
  const transport = new Transport({
    origin: new URL(server.url).origin,
    concurrency: 2,
    timeoutMs: options.timeoutMs ?? 300,
    retries: options.retries ?? 0,
    maxResponseBytes: 64 * 1024,
    headers: {},
  });
  const started = performance.now();
  try {
    const error = await transport.send(request, options.run).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransportFailure);
    return {
      failure: error as TransportFailure,
      requests: server.requests.length - before,
      ms: performance.now() - started,
    };
  } finally {
    await transport.destroy();
  }
}

describe('retries', () => {
  it('a request that got no answer is retried', async () => {
    const { failure: f, requests } = await failure('never-answers', POST, { retries: 1 });
    expect(f.reason).toBe('timeout');
    expect(f.partial).toBeUndefined();
    expect(f.message).toBe('no complete answer within 300 ms (--timeout): no response head had arrived');
    expect(requests).toBe(2);
  });

  it.each([
    [
      'slow-drip',
      'timeout',
      /^no complete answer within 300 ms \(--timeout\): HTTP 200 and \d+ body bytes had arrived$/,
    ],
    [
      'reset-mid-body',
      'reset',
      /^connection closed by 127\.0\.0\.1:\d+ before a complete response .*: HTTP 200 and 1000 body bytes had arrived$/,
    ],
    ['endless-body', 'too large', /^the response exceeded 64 KiB \(--max-response-bytes\)$/],
  ] as const)(
    'an answer cut short (%s) is not retried, and what arrived is kept for the trace',
    async (kind, reason, message) => {
      const { failure: f, requests, ms } = await failure(kind, POST, { retries: 2 });
      expect(ms).toBeLessThan(3000);
      expect(f.reason).toBe(reason);
      expect(f.message).toMatch(message);
      expect(requests).toBe(1);
      expect(f.partial?.status).toBe(200);
      expect(f.partial?.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(f.partial!.bodyPrefix.length).toBe(Math.min(f.partial!.bodyBytes, 8000));
    },
  );

  it('a head over the limit is not retried either', async () => {
    const { failure: f, requests } = await failure('endless-headers', POST, { retries: 2 });
    expect([f.reason, f.message]).toEqual(['too large', 'the response head (status line and headers) exceeded 16 KiB']);
    expect(requests).toBe(1);
  });
});

describe('the run signal', () => {
  it('ends an exchange in flight as interrupted, long before its own deadline', async () => {
    const run = new AbortController();
    setTimeout(() => run.abort(runTimedOut(100)), 100);
    const { failure: f, ms } = await failure('never-answers', POST, { timeoutMs: 20_000, retries: 3, run: run.signal });
    expect(f.reason).toBe('interrupted');
    expect(f.message).toBe('the run did not finish within 100 ms (--run-timeout)');
    expect(ms).toBeLessThan(10_000);
  });

  it('sends nothing once it has fired', async () => {
    const run = new AbortController();
    run.abort(runTimedOut(1));
    const { failure: f, requests } = await failure('never-answers', RAW, { run: run.signal });
    expect(f.reason).toBe('interrupted');
    expect(requests).toBe(0);
  });
});

describe('the raw-socket path has the same bounds', () => {
  it.each([
    ['never-answers', 'timeout', /^no complete answer within 300 ms \(--timeout\): no response head had arrived$/],
    [
      'slow-drip',
      'timeout',
      /^no complete answer within 300 ms \(--timeout\): HTTP 200 and \d+ body bytes had arrived$/,
    ],
    ['endless-body', 'too large', /^the response exceeded 64 KiB \(--max-response-bytes\)$/],
    ['endless-headers', 'too large', /^the response head \(status line and headers\) exceeded 16 KiB$/],
  ] as const)('%s', async (kind, reason, message) => {
    const { failure: f, ms } = await failure(kind, RAW);
    expect(f.reason).toBe(reason);
    expect(f.message).toMatch(message);
    expect(ms).toBeLessThan(3000);
  });
});
