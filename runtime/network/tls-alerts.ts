/**
 * A server that requires a client certificate refuses one under TLS 1.3 after the handshake,
 * with an alert (certificate required, unknown CA). undici sees that alert as a socket error
 * and then, as the server closes, replaces it with "other side closed": the caller would get a
 * bare RESET. The connector here records the TLS error of each socket it made, so the client
 * can name the real cause (TransportError TLS) when undici reports the close.
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import { isTlsCode } from './tls-reasons.js';

/** The (local, remote) ports of a socket: what undici's SocketError tells about it. */
const key = (local: number | undefined, remote: number | undefined): string => `${local}:${remote}`;
/** An entry is kept this long after its socket closed: long enough for the request to fail. */
const KEEP_MS = 2_000;
const MAX_ENTRIES = 256;

export class TlsAlertLog {
  private readonly errors = new Map<string, Error & { code: string }>();

  /** undici's connector for `options`, recording each socket's first TLS error. */
  connector(options: buildConnector.BuildOptions): buildConnector.connector {
    const connect = buildConnector(options);
    return (opts, callback) =>
      connect(opts, (error, socket) => {
        // The callback gets (error) or (null, socket); `!= null` covers undefined as undici passes it.
        if (error != null || socket == null) {
          callback(error ?? new Error('no socket'), null);
          return;
        }
        this.watch(socket);
        callback(null, socket);
      });
  }

  /** The TLS error behind a socket error undici reported (its `socket` info), once. */
  take(cause: unknown): (Error & { code: string }) | undefined {
    const info = (cause as { socket?: { localPort?: number; remotePort?: number } } | undefined)?.socket;
    if (info === undefined) return undefined;
    const id = key(info.localPort, info.remotePort);
    const found = this.errors.get(id);
    if (found !== undefined) this.errors.delete(id);
    return found;
  }

  private watch(socket: Socket): void {
    const id = key(socket.localPort, socket.remotePort);
    const onError = (error: Error & { code?: unknown }): void => {
      if (typeof error.code !== 'string' || !isTlsCode(error.code) || this.errors.has(id)) return;
      if (this.errors.size >= MAX_ENTRIES) this.errors.delete(this.errors.keys().next().value!);
      this.errors.set(id, error as Error & { code: string });
    };
    // Before undici's own listener, so the alert is seen whatever undici does with it.
    socket.prependListener('error', onError);
    socket.once('close', () => {
      socket.off('error', onError);
      if (this.errors.has(id)) setTimeout(() => this.errors.delete(id), KEEP_MS).unref();
    });
  }
}
