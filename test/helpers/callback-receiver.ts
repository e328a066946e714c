/**
 * A callback receiver for tests, written the way an application would write one and checking
 * what an application must: every request is verified twice, with the npm `svix` package's
 * Webhook (a second implementation of the Standard Webhooks specification, not the one smskit
 * signs with) and with a plain HMAC-SHA256 computed here with node:crypto, and refused when either
 * says no (a tampered body, another secret, a timestamp more than 5 minutes off).
 *
 * It records every request (verified or not), counts requests in flight (the sender's per-host
 * limit is measured here, at the receiving end), and answers as `answer` says: a status, a delay,
 * a huge body, a redirect.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'svix';

export const TOLERANCE_SECONDS = 5 * 60;

export interface ReceivedCallback {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Both verifications passed. */
  readonly verified: boolean;
  readonly rejection: string | null;
  readonly at: number;
}

export interface Answer {
  readonly status?: number;
  readonly delayMs?: number;
  /** Bytes of body to send (a receiver that answers with far too much). */
  readonly bodyBytes?: number;
  readonly headers?: Record<string, string>;
  /** Drop the connection without an answer. */
  readonly destroy?: boolean;
}

export interface CallbackReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedCallback[];
  /** Requests being answered now, and the most at once so far. */
  readonly concurrency: { now: number; max: number };
  answer: (request: ReceivedCallback, index: number) => Answer;
  /** Stops listening and cuts its connections: the port refuses, as a receiver whose host is down. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** The plain HMAC check: `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`, key = the secret's bytes. */
export function hmacCheck(
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  secret: string,
  nowSeconds: number,
): string | null {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (id === undefined || timestamp === undefined || signatures === undefined) return 'missing webhook headers';
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS)
    return 'timestamp outside the tolerance';
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  const match = signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature);
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? null : 'no matching signature';
}

/** svix's verifier; null when it accepts. */
export function svixCheck(
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  secret: string,
): string | null {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return null;
  } catch (error) {
    return `svix: ${(error as Error).message}`;
  }
}

/** Both verifications; the reason of the first that refuses, or null. */
export function verifyCallback(
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  secret: string,
): string | null {
  return svixCheck(headers, body, secret) ?? hmacCheck(headers, body, secret, Math.floor(Date.now() / 1000));
}

function flatHeaders(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') out[name] = value;
  return out;
}

async function answerWith(res: http.ServerResponse, answer: Answer): Promise<void> {
  if (answer.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
  if (answer.destroy === true) return void res.socket?.destroy();
  res.writeHead(answer.status ?? 204, answer.headers);
  if (answer.bodyBytes === undefined) return void res.end();
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const writable = (): Promise<unknown> =>
    new Promise((resolve) => {
      const done = (): void => {
        res.off('drain', done).off('close', done);
        resolve(undefined);
      };
      res.on('drain', done).on('close', done);
    });
  for (let sent = 0; sent < answer.bodyBytes && !res.destroyed; sent += chunk.length)
    if (!res.write(chunk)) await writable();
  res.end();
}

export async function startCallbackReceiver(secret: string, host = '127.0.0.1'): Promise<CallbackReceiver> {
  const concurrency = { now: 0, max: 0 };
  const received: ReceivedCallback[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = flatHeaders(req);
      const rejection = verifyCallback(headers, body, secret);
      const request = { headers, body, verified: rejection === null, rejection, at: Date.now() };
      received.push(request);
      concurrency.max = Math.max(concurrency.max, ++concurrency.now);
      const answer = rejection === null ? receiver.answer(request, received.length - 1) : { status: 401 };
      void answerWith(res, answer).finally(() => concurrency.now--);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: CallbackReceiver = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/hooks/sms`,
    port,
    received,
    concurrency,
    answer: () => ({ status: 204 }),
    down: () => stopListening(server),
    up: () => new Promise<void>((resolve) => server.listen(port, host, resolve)),
    close: () => stopListening(server),
  };
  return receiver;
}

function stopListening(server: http.Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
