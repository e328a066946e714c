/**
 * Hostile targets on 127.0.0.1 port 0, one misbehaviour each, written on raw sockets so every
 * byte (and every missing byte) is the test's choice. By default `GET …?wsdl` gets the real
 * WSDL — the runner's reachability probe passes and the cases meet the hostility; with
 * `hostileWsdl` the probe and a `--wsdl <url>` fetch meet it too.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import zlib from 'node:zlib';

export const HOSTILE_KINDS = [
  'endless-body',
  'slow-drip',
  'endless-headers',
  'huge-length',
  'xml-bomb',
  'dtd',
  'deep-nesting',
  'garbage',
  'reset-mid-body',
  'never-answers',
  'tiny-chunks',
  'gzip-bomb',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface HostileServer {
  /** The endpoint URL, e.g. http://127.0.0.1:41234/serviceapi.asmx */
  readonly url: string;
  /** Request heads received, in order (to check what the client asked for). */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const WSDL = readFileSync(new URL('../../wsdl/serviceapi.wsdl', import.meta.url));
const NS = /targetNamespace="([^"]+)"/.exec(WSDL.toString('utf8'))![1]!;
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
/** The over-size case sends more than the runner's --max-body-bytes, which the tests set to this. */
export const TEST_MAX_BODY_BYTES = 4096;
/** What the gzip bomb inflates to: far over any limit the tests set. */
export const GZIP_BOMB_INFLATED = 256 * 1024 * 1024;
const DEEP_LEVELS = 100_000;

function envelope(result: string, prolog = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>${prolog}<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><SMSSendResponse xmlns="${NS}"><SMSSendResult>${result}</SMSSendResult></SMSSendResponse></soap:Body></soap:Envelope>`;
}

const BILLION_LAUGHS = `<!DOCTYPE soap:Envelope [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`;
const XXE = '<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

function fixedAnswer(body: string | Buffer, extraHeaders = ''): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([
    Buffer.from(
      `HTTP/1.1 200 OK\r\ncontent-type: text/xml; charset=utf-8\r\n${extraHeaders}content-length: ${bytes.length}\r\nconnection: close\r\n\r\n`,
    ),
    bytes,
  ]);
}

/** Writes pieces as fast as the peer reads them, until `next` returns undefined or the socket closes. */
async function pump(socket: net.Socket, next: () => string | Buffer | undefined): Promise<void> {
  try {
    for (let piece = next(); piece !== undefined && !socket.destroyed; piece = next()) {
      if (!socket.write(piece)) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
    }
  } catch {
    // The client hung up (that is what a bounded client does): nothing more to send.
  }
}

/**
 * Writes the pieces a few at a time, one event-loop turn apart, without Nagle: the peer reads
 * hundreds of small segments, and the whole stays quick on a loaded machine (the pacing runs
 * in the test's own process).
 */
async function trickle(socket: net.Socket, pieces: Iterable<string>): Promise<void> {
  socket.setNoDelay(true);
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    socket.write(batch.join(''));
    batch = [];
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const piece of pieces) {
    if (socket.destroyed) return;
    batch.push(piece);
    if (batch.length === 32) await flush();
  }
  if (batch.length > 0 && !socket.destroyed) await flush();
}

function* chunked(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; at += size) {
    const piece = text.slice(at, at + size);
    yield `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
  }
  yield '0\r\n\r\n';
}

function every(socket: net.Socket, ms: number, tick: () => void): void {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : tick()), ms);
  socket.once('close', () => clearInterval(timer));
}

async function gzipBomb(): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (part: Buffer) => parts.push(part));
  const zeros = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < GZIP_BOMB_INFLATED / zeros.length; i++) if (!gzip.write(zeros)) await once(gzip, 'drain');
  gzip.end();
  await once(gzip, 'end');
  return Buffer.concat(parts);
}

type Behaviour = (socket: net.Socket, head: string) => void;

function behaviours(bomb: Buffer): Record<HostileKind, Behaviour> {
  return {
    'endless-body': (socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/xml; charset=utf-8\r\ntransfer-encoding: chunked\r\n\r\n');
      const chunk = `10000\r\n${'<a>'.repeat(0x10000 / 3)}x\r\n`;
      void pump(socket, () => chunk);
    },
    'slow-drip': (socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/xml; charset=utf-8\r\ncontent-length: 1000\r\n\r\n');
      every(socket, 100, () => socket.write('<'));
    },
    'endless-headers': (socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      let n = 0;
      void pump(socket, () => `x-filler-${n++}: ${'a'.repeat(1000)}\r\n`);
    },
    'huge-length': (socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/xml; charset=utf-8\r\ncontent-length: ${10 * 1024 ** 3}\r\n\r\n${'<'.repeat(100)}`,
      );
    },
    'xml-bomb': (socket) => void socket.end(fixedAnswer(envelope('&lol9;', BILLION_LAUGHS))),
    dtd: (socket) => void socket.end(fixedAnswer(envelope('&xxe;', XXE))),
    'deep-nesting': (socket) =>
      void socket.end(fixedAnswer(envelope(`${'<a>'.repeat(DEEP_LEVELS)}${'</a>'.repeat(DEEP_LEVELS)}`))),
    garbage: (socket) => {
      socket.write('SSH-2.0-OpenSSH_9.6\r\n');
      socket.end(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    },
    'reset-mid-body': (socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/xml; charset=utf-8\r\ncontent-length: 5000\r\n\r\n${envelope('x'.repeat(3000)).slice(0, 1000)}`,
      );
      setTimeout(() => socket.resetAndDestroy(), 50);
    },
    'never-answers': () => {},
    'tiny-chunks': (socket, head) => {
      // Correct answers, each in 8-byte chunks: over-size requests (a body over TEST_MAX_BODY_BYTES)
      // are refused with 413, HTTP GET gets its <string> document, SOAP its envelope.
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      const text = `ok:${'x'.repeat(200_000)}`;
      const [status, type, body] =
        length > TEST_MAX_BODY_BYTES
          ? ['413 Payload Too Large', 'text/plain; charset=utf-8', text]
          : head.startsWith('GET ')
            ? [
                '200 OK',
                'text/xml; charset=utf-8',
                `<?xml version="1.0" encoding="utf-8"?><string xmlns="${NS}">${text}</string>`,
              ]
            : ['200 OK', 'text/xml; charset=utf-8', envelope(text)];
      socket.write(
        `HTTP/1.1 ${status}\r\ncontent-type: ${type}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n`,
      );
      void trickle(socket, chunked(body, 8)).then(() => socket.end());
    },
    'gzip-bomb': (socket) => void socket.end(fixedAnswer(bomb, 'content-encoding: gzip\r\n')),
  };
}

export async function startHostileServer(
  kind: HostileKind,
  options: { hostileWsdl?: boolean } = {},
): Promise<HostileServer> {
  const behave = behaviours(kind === 'gzip-bomb' ? await gzipBomb() : Buffer.alloc(0))[kind];
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let received = '';
    const onData = (data: Buffer): void => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return void (received.length > 65536 && socket.destroy());
      socket.off('data', onData);
      const head = received.slice(0, end);
      requests.push(head);
      if (options.hostileWsdl !== true && /^GET \S*\?wsdl /i.test(head)) return void socket.end(fixedAnswer(WSDL));
      behave(socket, head);
    };
    socket.on('data', onData);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/serviceapi.asmx`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
