/**
 * `Expect: 100-continue` over raw sockets (RFC 9110 §10.1.1): a request the head alone refuses is
 * answered with its final status at once, the body never asked for and the connection closed; a
 * request that may succeed gets its 100, then its answer, on a connection that stays open.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener, listen, type Listening } from '../../runtime/index.js';
import { NS, serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';
import { echoHandlers, envelope, sendBody, startServer, type TestServer } from '../fixtures/runtime/harness.js';
import { SOAP11 } from '../../tools/soap-fault.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
});

interface Exchanged {
  /** Everything the server wrote. */
  readonly text: string;
  /** Whether the client sent the body (it does only after `100 Continue`). */
  readonly sentBody: boolean;
  readonly closedByServer: boolean;
}

/**
 * Sends the head; sends the body only once `100 Continue` arrives, then `next` (a request on the
 * same connection) once `answered` matches. Ends when the server closes, or after `waitMs`.
 */
function exchange(
  url: string,
  head: string,
  body: string,
  next?: { readonly answered: RegExp; readonly request: string },
): Promise<Exchanged> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    let sentBody = false;
    let sentNext = false;
    const done = (closedByServer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, sentBody, closedByServer });
    };
    const timer = setTimeout(() => done(false), 5_000);
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (!sentBody && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sentBody = true;
        socket.write(body);
      }
      if (next !== undefined && !sentNext && next.answered.test(text)) {
        sentNext = true;
        socket.write(next.request);
      }
    });
    socket.on('end', () => done(true));
    socket.on('error', () => done(true));
    socket.on('connect', () => socket.write(head));
  });
}

const SOAP = envelope(
  SOAP11,
  sendBody({ keyword: 'k', emailAddress: 'e@x', password: 'p', smsto: '1', carrierCode: 'c', smsmsg: 'hi' }),
);
const head = (line: string, headers: string, length = Buffer.byteLength(SOAP)): string =>
  `${line}\r\nHost: x\r\n${headers}Expect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;
const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** The service with its SOAP 1.1 binding alone: a SOAPAction it does not know is refused from the head. */
function listenSoap11Only(): Promise<Listening> {
  const soap11Only = {
    ...serviceApiDescriptor,
    bindings: serviceApiDescriptor.bindings.filter((b) => b.protocol === 'soap11'),
  };
  return listen(createRequestListener(soap11Only, echoHandlers, {}), {});
}

describe('Expect: 100-continue decided by the head', () => {
  it.each([
    [
      'an unknown path',
      head('POST /nowhere.asmx HTTP/1.1', 'Content-Type: text/xml; charset=utf-8\r\n'),
      404,
      'Not found.',
    ],
    [
      'a method not served there',
      head('PUT /serviceapi.asmx HTTP/1.1', 'Content-Type: text/xml; charset=utf-8\r\n'),
      405,
      'Method not allowed. Use GET, HEAD, POST.',
    ],
    [
      'a media type not served there',
      head('POST /serviceapi.asmx HTTP/1.1', 'Content-Type: application/json\r\n'),
      415,
      'Unsupported content type: application/json.',
    ],
    [
      'a charset not served there',
      head('POST /serviceapi.asmx HTTP/1.1', 'Content-Type: text/xml; charset=utf-32\r\n'),
      415,
      'Unsupported charset: utf-32.',
    ],
    [
      'a SOAPAction and action parameter no operation has',
      head(
        'POST /serviceapi.asmx HTTP/1.1',
        'Content-Type: application/soap+xml; charset=utf-8; action="urn:nope"\r\nSOAPAction: "urn:nope"\r\n',
      ),
      500,
      'did not recognize the value of action parameter: urn:nope.',
    ],
  ])(
    '%s: the final status at once, no 100, the body never sent, the connection closed',
    async (_name, request, status, text) => {
      const got = await exchange(server.url, request, SOAP);
      expect(statuses(got.text)).toEqual([status]);
      expect(got.text).toContain(text);
      expect(got.text).toMatch(/\r\nConnection: close\r\n/i);
      expect(got.sentBody).toBe(false);
      expect(got.closedByServer).toBe(true);
    },
  );

  it('a request that may succeed gets 100, its answer, and a connection that stays open', async () => {
    const got = await exchange(
      server.url,
      head('POST /serviceapi.asmx HTTP/1.1', `Content-Type: text/xml; charset=utf-8\r\nSOAPAction: "${NS}SMSSend"\r\n`),
      SOAP,
      {
        answered: /<\/soap:Envelope>$/,
        request: 'GET /serviceapi.asmx?wsdl HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      },
    );
    expect(got.sentBody).toBe(true);
    expect(statuses(got.text)).toEqual([100, 200, 200]);
    expect(got.text).toContain('<SMSSendResult>');
    expect(got.text.split('\r\n\r\n')[1]).toMatch(/connection: keep-alive/i);
  });

  it('a request without a body is answered without a 100', async () => {
    const request = 'GET /serviceapi.asmx?wsdl HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n';
    const got = await exchange(server.url, request, '');
    expect(statuses(got.text)).toEqual([200]);
    expect(got.text).toContain('</wsdl:definitions>');
  });

  it("a listener that is not smskit's gets its 100 when it reads the body", async () => {
    const own: Listening = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.end(`read ${Buffer.concat(chunks).length}`));
    });
    try {
      const got = await exchange(own.url, head('POST /any HTTP/1.1', 'Connection: close\r\n'), SOAP);
      expect(got.sentBody).toBe(true);
      expect(got.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
      expect(got.text).toContain(`read ${Buffer.byteLength(SOAP)}`);
    } finally {
      await own.close();
    }
  });

  it("a listener of one's own that only drains the body (resume()) gets its 100 too", async () => {
    const own: Listening = await listen((req, res) => {
      let length = 0;
      req.on('end', () => res.end(`drained ${length}`));
      req.resume();
      req.socket.on('data', (c: Buffer) => (length += c.length));
    });
    try {
      const got = await exchange(own.url, head('POST /any HTTP/1.1', 'Connection: close\r\n'), SOAP);
      expect(got.sentBody).toBe(true);
      expect(got.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    } finally {
      await own.close();
    }
  });

  it('a SOAPAction no operation has, where only SOAP 1.1 is served: its fault before the body', async () => {
    const only = await listenSoap11Only();
    try {
      const got = await exchange(
        only.url,
        head('POST /serviceapi.asmx HTTP/1.1', 'Content-Type: text/xml; charset=utf-8\r\nSOAPAction: "urn:nope"\r\n'),
        SOAP,
      );
      expect(statuses(got.text)).toEqual([500]);
      expect(got.text).toContain('Server did not recognize the value of HTTP Header SOAPAction: urn:nope.');
      expect(got.text).toMatch(/\r\nConnection: close\r\n/i);
      expect(got.sentBody).toBe(false);
    } finally {
      await only.close();
    }
  });

  it('an HTTP POST to an operation that requires a UsernameToken: 403 before the body', async () => {
    const listener = createRequestListener(serviceApiDescriptor, echoHandlers, {
      wsSecurity: { required: true, passwordOf: () => undefined },
    });
    const secured = await listen(listener, {});
    try {
      const got = await exchange(
        secured.url,
        head('POST /serviceapi.asmx/SMSSend HTTP/1.1', 'Content-Type: application/x-www-form-urlencoded\r\n', 10),
        'keyword=k&',
      );
      expect(statuses(got.text)).toEqual([403]);
      expect(got.sentBody).toBe(false);
    } finally {
      await secured.close();
    }
  });
});

/**
 * Streams a chunked body without end after the head; resolves when the server closes the
 * connection (with what it answered and how much body it was sent), or after `giveUpMs`.
 */
function endlessBody(url: string, head: string, giveUpMs: number): Promise<{ answer: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    const chunk = `1000\r\n${'x'.repeat(4096)}\r\n`;
    const pump = setInterval(() => {
      if (socket.writable) socket.write(chunk);
    }, 2);
    const done = (closed: boolean): void => {
      clearInterval(pump);
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer: answer.split('\r\n')[0] ?? '', closed });
    };
    const timer = setTimeout(() => done(false), giveUpMs);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => done(true));
    socket.on('close', () => done(true));
    socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`);
  });
}

describe('a body still arriving when the head is refused (no Expect)', () => {
  it('is read on for 1 MiB at most, then its connection is cut off', async () => {
    const only = await listenSoap11Only();
    try {
      const cases: [string, string, RegExp][] = [
        [server.url, 'POST /nothing-here HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n', /^HTTP\/1\.1 404 /],
        [server.url, 'GET /serviceapi.asmx?wsdl HTTP/1.1\r\nHost: x\r\n', /^HTTP\/1\.1 200 /],
        [server.url, 'POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\n', /^HTTP\/1\.1 415 /],
        [
          only.url,
          `POST /serviceapi.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nSOAPAction: "urn:nope"\r\n`,
          /^HTTP\/1\.1 500 /,
        ],
      ];
      for (const [url, head, status] of cases) {
        // Read on for 1 MiB at most (a few hundred ms here), then cut off.
        // node would otherwise read and discard the body until its request timeout (30 s here).
        const { answer, closed } = await endlessBody(url, head, 4_000);
        expect(answer).toMatch(status);
        expect(closed).toBe(true);
      }
    } finally {
      await only.close();
    }
  });

  it('a body of a usual size is read to its end: the connection stays open for the next request', async () => {
    const { hostname, port } = new URL(server.url);
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      let got = '';
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if ((got.match(/HTTP\/1\.1 /g) ?? []).length === 2) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('close', () => resolve(got));
      const body = 'x'.repeat(100_000);
      socket.write(
        `POST /nothing-here HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // The rest of the body comes after the answer, as from a client still uploading.
      setTimeout(() => socket.write(`${body}GET /serviceapi.asmx?wsdl HTTP/1.1\r\nHost: x\r\n\r\n`), 50);
    });
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text).not.toMatch(/Connection: close/i);
    expect(text).toMatch(/\r\n\r\nNot found\.HTTP\/1\.1 200 OK\r\n/);
  });
});
