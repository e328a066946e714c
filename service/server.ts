/**
 * `startSmsServer`: the SMS service on the wire runtime — one HTTP server, all four bindings.
 *
 * Built on the generated server skeletons: `createServiceAPIListener` with the service's typed
 * handlers, and beside it at /statusapi.asmx `createStatusAPIListener` with the status handlers
 * (a contract change that breaks them fails `npm run typecheck`). `close()` is graceful: the HTTP
 * server stops accepting, in-flight requests finish (their commits included), and only then is
 * the outbox closed, so no accepted request loses its answer or its message.
 */
import type http from 'node:http';
import { createServiceAPIListener } from '../generated/service-api/server.js';
import { createStatusAPIListener } from '../generated/status-api/server.js';
import { type ListenOptions, type Listening, listen, type ServerOptions } from '../runtime/index.js';
import { openSmsApp, type SmsApp, type SmsAppOptions } from './app.js';
import { type MetricsListener, startMetricsListener } from './metrics/listener.js';
import { type RetentionOptions, startRetention } from './outbox/retention.js';
import { mountStatusListener } from './status/mount.js';

export interface SmsServerOptions extends SmsAppOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (an ephemeral port); `smskit serve` passes 8080. */
  readonly port?: number;
  /** Wire options (WSDL text, body limits, timeouts, logger). */
  readonly http?: ServerOptions;
  /** The status contract's text, served at /statusapi.asmx?wsdl (the other wire options are `http`'s). */
  readonly statusWsdl?: string;
  /** How long close() lets in-flight requests run before dropping connections (ms). */
  readonly closeTimeoutMs?: number;
  /** Serve HTTPS (optionally requiring a client certificate) instead of HTTP. */
  readonly tls?: ListenOptions['tls'];
  /** Serve GET /metrics and /healthz on a listener of their own (host default 127.0.0.1). */
  readonly metrics?: { readonly host?: string; readonly port: number };
  /** How long message text and messages are kept (see ./outbox/retention.ts); for ever when absent. */
  readonly retention?: RetentionOptions;
}

export interface SmsServer {
  /** e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly app: SmsApp;
  /** The node:http server, for connection-level observation (tests, metrics). */
  readonly server: http.Server;
  /** The operations listener's address (GET /metrics, /healthz), when one was asked for. */
  readonly metricsUrl?: string;
  close(): Promise<void>;
}

export async function startSmsServer(options: SmsServerOptions): Promise<SmsServer> {
  const { host, port, http, statusWsdl, closeTimeoutMs, tls, metrics, retention, ...service } = options;
  const logger = http?.logger;
  const log = service.log ?? (logger === undefined ? undefined : (line: string) => logger.error(line));
  const app = await openSmsApp(log === undefined ? service : { ...service, log });
  let listening: Listening | undefined;
  let operations: MetricsListener | undefined;
  try {
    if (metrics !== undefined)
      operations = await startMetricsListener({
        host: metrics.host ?? '127.0.0.1',
        port: metrics.port,
        metrics: app.metrics,
        ...(log === undefined ? {} : { log }),
      });
    const { wsdl: _smsWsdl, ...statusHttp } = http ?? {};
    const listener = mountStatusListener(
      createServiceAPIListener(app.handlers, http),
      createStatusAPIListener(
        app.statusHandlers,
        statusWsdl === undefined ? statusHttp : { ...statusHttp, wsdl: statusWsdl },
      ),
    );
    listening = await listen(listener, {
      host: host ?? '127.0.0.1',
      port: port ?? 0,
      ...(closeTimeoutMs === undefined ? {} : { closeTimeoutMs }),
      ...(tls === undefined ? {} : { tls }),
    });
  } catch (error) {
    await operations?.close();
    await app.close();
    throw error;
  }
  app.startDelivery();
  app.startCallbacks();
  const pruning = retention === undefined ? undefined : startRetention(app.store, retention, log, service.clock);
  const server = listening;
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    app,
    server: server.server,
    ...(operations === undefined ? {} : { metricsUrl: operations.url }),
    close() {
      pruning?.stop();
      closing ??= server
        .close()
        .finally(() => operations?.close())
        .finally(() => app.close(closeTimeoutMs));
      return closing;
    },
  };
}
