/**
 * The generated server's JavaScript alone: the listener of bench/children/server.ts driven with
 * in-memory requests (no sockets, no node:http), 32 in flight, as the load generator keeps 32
 * connections busy. Prints `{ binding, requests, cpuUs }` as JSON: CPU µs per request.
 * argv: binding [requests]. Run by bench/in-process.ts, bundled like the other children.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServiceAPIListener } from '../../generated/service-api/index.js';
import type { Protocol } from '../../runtime/index.js';
import { FIXED_INPUT, sendRequest } from '../lib/payloads.js';

const IN_FLIGHT = 32;
const WARM_UP = 50_000;

const binding = (process.argv[2] ?? 'soap11') as Protocol;
const requests = Number(process.argv[3] ?? 300_000);
const listener = createServiceAPIListener({
  SMSSend: () => ({ SMSSendResult: 'ok-1' }),
  SMSSendToPort: () => ({ SMSSendToPortResult: 'ok-1' }),
});
const spec = sendRequest(binding, FIXED_INPUT);
const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
const headers: Record<string, string> = { host: '127.0.0.1', ...spec.headers };
if (body !== undefined) headers['content-length'] = String(body.length);
const socket = { remoteAddress: '127.0.0.1' };

type Listener = (this: FakeRequest, chunk?: Buffer) => void;

/** What the server reads of a request: its head, and the body as 'data' then 'end'. */
class FakeRequest {
  readonly method = spec.method;
  readonly url = spec.path;
  readonly headers = headers;
  readonly socket = socket;
  private onData: Listener | undefined;
  private onEnd: Listener | undefined;

  on(event: string, listener: Listener): this {
    if (event === 'data') this.onData = listener;
    else if (event === 'end') this.onEnd = listener;
    return this;
  }

  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }

  /** The body arrives, all at once, after the listener has returned (as node:http gives it). */
  send(): void {
    if (body !== undefined) this.onData?.call(this, body);
    this.onEnd?.call(this);
  }
}

/** What the server writes: a status, headers and one body; anything but 200 ends the process (exit 1). */
class FakeResponse {
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  private status = 0;

  constructor(private readonly done: () => void) {}

  writeHead(status: number): this {
    this.status = status;
    this.headersSent = true;
    return this;
  }

  setHeader(): void {}

  once(): this {
    return this;
  }

  end(text: string): void {
    if (this.status !== 200) {
      // Not a throw: the server would catch it as its own error and the run would never end.
      process.stderr.write(`${binding}: the server answered ${this.status}: ${text}\n`);
      process.exit(1);
    }
    this.writableFinished = true;
    queueMicrotask(this.done); // not at once: a synchronous answer would recurse into the next request
  }
}

function run(count: number): Promise<void> {
  return new Promise((resolve) => {
    let started = 0;
    let finished = 0;
    const next = (): void => {
      finished++;
      if (finished === count) resolve();
      else if (started < count) start();
    };
    const start = (): void => {
      started++;
      const req = new FakeRequest();
      listener(req as unknown as IncomingMessage, new FakeResponse(next) as unknown as ServerResponse);
      req.send();
    };
    for (let i = 0; i < Math.min(IN_FLIGHT, count); i++) start();
  });
}

await run(Math.min(WARM_UP, requests));
const before = process.cpuUsage();
await run(requests);
const used = process.cpuUsage(before);
process.stdout.write(`${JSON.stringify({ binding, requests, cpuUs: (used.user + used.system) / requests })}\n`);
