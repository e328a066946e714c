/**
 * A small forward proxy for tests: CONNECT tunnels (how clients reach https:// targets through a
 * proxy) and absolute-form requests (`GET http://host/path`, how they reach http:// ones). It
 * records what went through it, so a test can prove that the proxy was used, and can demand
 * Proxy-Authorization. Loopback only; every socket is closed by `close()`.
 */
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';

export interface ForwardProxy {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  /** `host:port` of every CONNECT tunnel opened (or refused). */
  readonly connects: string[];
  /** The absolute-form target of every plain request forwarded (or refused). */
  readonly requests: string[];
  /** Every Proxy-Authorization header value received (undefined where none was sent). */
  readonly proxyAuthorizations: (string | undefined)[];
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /** Expected `Proxy-Authorization` value; anything else is answered 407. */
  readonly requireAuthorization?: string;
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const connects: string[] = [];
  const requests: string[] = [];
  const proxyAuthorizations: (string | undefined)[] = [];
  const sockets = new Set<net.Socket>();
  const authorized = (req: http.IncomingMessage): boolean => {
    const given = req.headers['proxy-authorization'];
    proxyAuthorizations.push(given);
    return options.requireAuthorization === undefined || given === options.requireAuthorization;
  };
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (!authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"', 'content-length': '0' }).end();
      return;
    }
    forward(req, res);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => {});
    connects.push(req.url ?? '');
    if (!authorized(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const [host, port] = splitHostPort(req.url ?? '');
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    proxyAuthorizations,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends an absolute-form request on to its target and streams the answer back. */
function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-length': '0' }).end();
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: req.method,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

function splitHostPort(authority: string): [string, number] {
  const colon = authority.lastIndexOf(':');
  return [authority.slice(0, colon).replace(/^\[|\]$/g, ''), Number(authority.slice(colon + 1))];
}
