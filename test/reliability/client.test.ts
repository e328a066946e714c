/**
 * The client against hostile or broken servers, on every binding: each failure is a
 * typed error (TransportError with its code, or SoapFaultError), settles (a timeout at its limit),
 * and no promise rejection is left unhandled. (test/runtime/client.test.ts covers each code once over
 * SOAP 1.1; this is the binding x behaviour matrix, plus responses that try to attack the client.)
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { SoapFaultError, TransportError } from '../../runtime/index.js';

const BINDINGS = ['soap11', 'soap12', 'http-get', 'http-post'] as const;
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const BEHAVIOURS: Record<string, Behaviour> = {
  hang: () => {},
  'slow-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  },
  'close-before-answer': (req) => req.socket.destroy(),
  'close-mid-response': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': '5000' });
    res.write('<?xml version="1.0"?><soap:Envelope');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  'huge-declared': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': String(64 * 1024 * 1024) });
    res.write('<a>');
    setTimeout(() => res.socket?.destroy(), 500);
  },
  'huge-streamed': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    let sent = 0;
    const pump = (): void => {
      while (sent < 8 * 1024 * 1024) {
        sent += 65536;
        if (!res.write(Buffer.alloc(65536, 0x20))) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  },
  'html-500': (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<html><body><h1>Internal Server Error</h1><pre>at Object.&lt;anonymous&gt;</pre></body></html>');
  },
  'html-200': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!DOCTYPE html><html><body>Login</body></html>');
  },
  'not-xml-500': (_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":"boom"}');
  },
  'empty-200': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    res.end();
  },
  'odd-fault': (req, res) => {
    res.writeHead(500, {
      'content-type':
        req.headers['content-type']?.startsWith('application/soap+xml') === true
          ? 'application/soap+xml; charset=utf-8'
          : 'text/xml; charset=utf-8',
    });
    res.end(
      `<?xml version="1.0"?><e:Envelope xmlns:e="${SOAP11}"><e:Body><e:Fault><weird><deeper/></weird></e:Fault></e:Body></e:Envelope>`,
    );
  },
  'xxe-response': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    res.end(
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><string xmlns="http://smskit.dev/serviceapi/">&xxe;</string>`,
    );
  },
  'deep-response': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    res.end(`<?xml version="1.0"?>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`);
  },
};

let rogue: http.Server;
let rogueUrl = '';
let garbage: net.Server;
let garbageUrl = '';
const garbageSockets = new Set<net.Socket>();
let refusedUrl = '';
beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  rogue = http.createServer((req, res) => BEHAVIOURS[req.url!.split('/')[1]!]!(req, res));
  await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));
  rogueUrl = `http://127.0.0.1:${(rogue.address() as net.AddressInfo).port}`;
  garbage = net.createServer((socket) => {
    garbageSockets.add(socket);
    socket.on('error', () => {});
    socket.end('SSH-2.0-OpenSSH_9.6\r\nthis is not HTTP\r\n\r\n');
  });
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  garbageUrl = `http://127.0.0.1:${(garbage.address() as net.AddressInfo).port}`;
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(closed.address() as net.AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  rogue.closeAllConnections();
  await new Promise<void>((resolve) => rogue.close(() => resolve()));
  for (const socket of garbageSockets) socket.destroy();
  await new Promise<void>((resolve) => garbage.close(() => resolve()));
  process.off('unhandledRejection', onUnhandled);
});

/**
 * The call's time limit where the case is about the limit, and a bound on a client that ignores
 * it: a call still pending that long after its limit is reported as 'hang'.
 */
const TIME_LIMIT_MS = 1_000;
const HANG_MS = 30_000;

async function outcome(url: string, binding: (typeof BINDINGS)[number], timeoutMs: number): Promise<string> {
  const client = new ServiceAPIClient({ url, binding, timeoutMs, maxResponseBytes: 1024 * 1024 });
  try {
    const settled = await Promise.race([
      client
        .SMSSend({
          keyword: 'K',
          emailAddress: 'a@example.com',
          password: 'Never-Echoed-1',
          smsto: '+14155550123',
          carrierCode: 'att',
          smsmsg: 'hi',
        })
        .then(
          () => 'resolved',
          (error: unknown) =>
            error instanceof TransportError
              ? `TransportError ${error.code}`
              : error instanceof SoapFaultError
                ? 'SoapFaultError'
                : `untyped ${String(error)}`,
        ),
      new Promise<string>((resolve) => setTimeout(() => resolve('hang'), timeoutMs + HANG_MS).unref()),
    ]);
    return settled;
  } finally {
    await client.close().catch(() => {});
  }
}

const CASES: Array<[string, { given: (b: string) => string; want: (b: string) => string }]> = [
  ['connection refused', { given: () => refusedUrl, want: () => 'TransportError REFUSED' }],
  ['a server that never answers', { given: () => `${rogueUrl}/hang`, want: () => 'TransportError TIMEOUT' }],
  [
    'a body that trickles past the time limit',
    { given: () => `${rogueUrl}/slow-body`, want: () => 'TransportError TIMEOUT' },
  ],
  ['a close before any answer', { given: () => `${rogueUrl}/close-before-answer`, want: () => 'TransportError RESET' }],
  ['a close mid-response', { given: () => `${rogueUrl}/close-mid-response`, want: () => 'TransportError RESET' }],
  [
    'a declared length over maxResponseBytes',
    { given: () => `${rogueUrl}/huge-declared`, want: () => 'TransportError TOO_LARGE' },
  ],
  [
    'a streamed body over maxResponseBytes',
    { given: () => `${rogueUrl}/huge-streamed`, want: () => 'TransportError TOO_LARGE' },
  ],
  ['an HTML 500 error page', { given: () => `${rogueUrl}/html-500`, want: () => 'TransportError BAD_RESPONSE' }],
  ['an HTML 200 page', { given: () => `${rogueUrl}/html-200`, want: () => 'TransportError BAD_RESPONSE' }],
  ['a non-XML 500', { given: () => `${rogueUrl}/not-xml-500`, want: () => 'TransportError BAD_RESPONSE' }],
  ['an empty 200', { given: () => `${rogueUrl}/empty-200`, want: () => 'TransportError BAD_RESPONSE' }],
  ['not HTTP at all', { given: () => garbageUrl, want: () => 'TransportError BAD_RESPONSE' }],
  [
    'a fault with unexpected structure',
    {
      given: () => `${rogueUrl}/odd-fault`,
      want: (b) => (b.startsWith('soap') ? 'SoapFaultError' : 'TransportError BAD_RESPONSE'),
    },
  ],
  [
    'a response with a DOCTYPE (XXE at the client)',
    { given: () => `${rogueUrl}/xxe-response`, want: () => 'TransportError BAD_RESPONSE' },
  ],
  [
    'a 100,000-level nested response',
    { given: () => `${rogueUrl}/deep-response`, want: () => 'TransportError BAD_RESPONSE' },
  ],
];

describe('client failures are typed, bounded and never unhandled', () => {
  const table = BINDINGS.flatMap((binding) =>
    CASES.map(([name, c]): [string, (typeof BINDINGS)[number], typeof c] => [`${binding}: ${name}`, binding, c]),
  );
  // Concurrently: the cases are independent calls of their own clients, and the timeout ones spend
  // their second waiting (eight of them one after another held a test worker ~9 s, mostly idle).
  it.concurrent.each(table)(
    '%s',
    async (_name, binding, { given, want }) => {
      // Only the timeout cases run on the short limit: elsewhere a busy machine must not turn the
      // expected failure into a TIMEOUT.
      const timeoutMs = want(binding) === 'TransportError TIMEOUT' ? TIME_LIMIT_MS : HANG_MS;
      expect(await outcome(`${given(binding)}/serviceapi.asmx`, binding, timeoutMs)).toBe(want(binding));
    },
    2 * HANG_MS + 5_000,
  );

  it('left no unhandled rejection behind', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).toEqual([]);
  });
});
