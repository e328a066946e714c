/**
 * The application's side of delivery callbacks, as the crash and outage tests need it: an HTTP
 * receiver on 127.0.0.1 that checks every request's Standard Webhooks signature (with the
 * `standardwebhooks` verifier, so a callback it cannot verify is counted, never logged as received)
 * and logs what arrived, in arrival order. It can go down (its port refuses connections) and come
 * back up on the same port, as a receiver does when its host restarts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One verified callback, as it arrived. */
export interface ArrivedCallback {
  readonly webhookId: string;
  readonly messageId: string;
  readonly sequence: number;
  readonly state: string;
  readonly previousState: string;
}

export interface CallbackReceiver {
  readonly url: string;
  /** Every verified callback, in the order they arrived (repeats kept). */
  readonly arrived: ArrivedCallback[];
  /** Requests whose signature did not verify. */
  unverified(): number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY) throw new Error('callback body over 64 KiB');
  }
  return body;
}

export async function startCallbackReceiver(secret: string): Promise<CallbackReceiver> {
  const verifier = new Webhook(secret);
  const arrived: ArrivedCallback[] = [];
  let unverified = 0;
  const handle = async (request: IncomingMessage): Promise<number> => {
    const body = await readBody(request);
    let payload: { data: Omit<ArrivedCallback, 'webhookId'> };
    try {
      payload = verifier.verify(body, request.headers as Record<string, string>) as typeof payload;
    } catch {
      unverified++;
      return 401;
    }
    const { messageId, sequence, state, previousState } = payload.data;
    arrived.push({ webhookId: String(request.headers['webhook-id']), messageId, sequence, state, previousState });
    return 204;
  };
  const listen = (server: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const newServer = (): Server =>
    createServer((request, response) => {
      handle(request).then(
        (status) => response.writeHead(status).end(),
        () => response.writeHead(400).end(),
      );
    });
  let server: Server | undefined = newServer();
  const port = await listen(server, 0);
  const down = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    if (closing === undefined) return;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}/sms-status`,
    arrived,
    unverified: () => unverified,
    down,
    up: async () => {
      if (server !== undefined) return;
      server = newServer();
      await listen(server, port);
    },
    close: down,
  };
}
