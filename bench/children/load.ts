/**
 * The load generator, in its own process so it never shares an event loop with a server:
 * answers each IPC request `{ url, request, connections, seconds }` with one autocannon run.
 */
import autocannon from 'autocannon';
import type { HttpRequestSpec } from '../lib/payloads.js';

export interface LoadRequest {
  readonly url: string;
  readonly request: HttpRequestSpec;
  readonly connections: number;
  readonly seconds: number;
  /**
   * Each request's path is `request.path` + this + the time it is sent (ms since the epoch), so
   * the far side can time each message from the moment it was sent (the gateway section puts it
   * at the end of Kannel's dlr-url). The requests are then built one by one.
   */
  readonly stampAfter?: string;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  readonly rps: number;
  readonly p99Ms: number;
  readonly failures: number;
  /** Successful (2xx) responses in all. */
  readonly ok: number;
}

async function run(spec: LoadRequest): Promise<LoadResult> {
  const r = await autocannon({
    url: spec.url + spec.request.path,
    connections: spec.connections,
    pipelining: 1,
    duration: spec.seconds,
    method: spec.request.method,
    headers: { ...spec.request.headers },
    ...(spec.request.body === undefined ? {} : { body: spec.request.body }),
    ...(spec.stampAfter === undefined
      ? {}
      : { requests: [{ setupRequest: stamped(spec.request.path, spec.stampAfter) }] }),
  });
  return { rps: r['2xx'] / r.duration, p99Ms: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts, ok: r['2xx'] };
}

function stamped(path: string, after: string) {
  return (request: { path: string }) => {
    request.path = `${path}${after}${Date.now()}`;
    return request;
  };
}

process.on('message', (message) => {
  run(message as LoadRequest).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0)); // a normal exit, so --cpu-prof writes its profile
