/**
 * Turns a client's network options into what it sends with: the dispatcher, the Authorization
 * value, the secrets to keep out of messages, and the route to name in connection failures.
 * Conflicting options are refused here, once, with a TypeError that names them.
 */
import type { Dispatcher } from 'undici';
import { type SoapFaultError, TransportError, type TransportErrorCode } from '../errors.js';
import { authSecrets, authorizationValue } from './auth.js';
import { createDispatcher } from './dispatcher.js';
import { readProxyOption, type ProxyChoice } from './proxy.js';
import { explainTransportError, redactFault } from './redact.js';
import { TlsAlertLog } from './tls-alerts.js';
import { tlsReason } from './tls-reasons.js';
import type { NetworkOptions } from './types.js';

export interface NetworkSettings extends NetworkOptions {
  readonly connections?: number | undefined;
  readonly timeoutMs: number;
  /** The client's own extra headers: an Authorization among them conflicts with `auth`. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Other secrets of the client (a WS-Security password) to keep out of messages. */
  readonly secrets?: readonly string[] | undefined;
}

export interface ClientNetwork {
  readonly dispatcher: Dispatcher;
  /** False for a caller's own dispatcher: the client does not close what it does not own. */
  readonly ownsDispatcher: boolean;
  /** `Authorization` for every request, from `auth`. */
  readonly authorization: string | undefined;
  /** True when the client's own dispatcher goes through a proxy: calls then need one overall timer. */
  readonly proxied: boolean;
  /** The client's error filter: secrets out, the proxy named on connection failures. */
  explain(error: TransportError): TransportError;
  /** A fault with the client's secrets out of its text and detail. */
  explainFault(fault: SoapFaultError): SoapFaultError;
}

const CONNECTION_CODES = new Set<TransportErrorCode>(['REFUSED', 'DNS', 'TIMEOUT', 'TLS', 'RESET']);

export function resolveNetwork(url: URL, settings: NetworkSettings): ClientNetwork {
  if (settings.dispatcher !== undefined) checkOwnDispatcher(settings);
  const authorization = settings.auth === undefined ? undefined : authorizationValue(settings.auth);
  if (authorization !== undefined && hasAuthorizationHeader(settings.headers))
    throw new TypeError('options.auth and an Authorization header in options.headers conflict: give one');
  const proxy = settings.proxy === undefined ? undefined : readProxyOption(settings.proxy);
  if (settings.tls !== undefined && url.protocol === 'http:') checkTlsForHttp(settings.tls, proxy);
  const secrets = [
    ...(settings.secrets ?? []),
    ...(settings.auth === undefined || authorization === undefined ? [] : authSecrets(settings.auth, authorization)),
    ...(proxy?.secrets ?? []),
    ...(settings.tls?.passphrase === undefined ? [] : [settings.tls.passphrase]),
  ];
  const route = routeOf(proxy);
  const alerts = settings.dispatcher === undefined && url.protocol === 'https:' ? new TlsAlertLog() : undefined;
  const dispatcher =
    settings.dispatcher ??
    createDispatcher(url, {
      connections: settings.connections ?? 32,
      timeoutMs: settings.timeoutMs,
      tls: settings.tls,
      proxy,
      alerts,
    });
  return {
    dispatcher,
    ownsDispatcher: settings.dispatcher === undefined,
    authorization,
    proxied: settings.dispatcher === undefined && proxy !== undefined,
    explain: (error) => {
      const named =
        alerts === undefined ? error : withTlsAlert(error, alerts, url.origin, settings.tls?.cert !== undefined);
      return secrets.length === 0 && route === ''
        ? named
        : explainTransportError(named, secrets, CONNECTION_CODES.has(named.code) ? route : '');
    },
    explainFault: (fault) => (secrets.length === 0 ? fault : redactFault(fault, secrets)),
  };
}

/**
 * A connection closed right after a TLS alert is that alert's failure, not a bare reset. A
 * server that rejects a client certificate it does not trust (Node's does) sends no alert and
 * just closes before answering: that stays RESET, since nothing proves the cause, with a hint.
 */
function withTlsAlert(
  error: TransportError,
  alerts: TlsAlertLog,
  origin: string,
  sentCertificate: boolean,
): TransportError {
  if (error.code !== 'RESET') return error;
  const alert = alerts.take(error.cause);
  if (alert !== undefined)
    return new TransportError('TLS', `TLS failure with ${origin}: ${tlsReason([alert.code]) ?? alert.message}`, {
      cause: alert,
    });
  const bytesRead = (error.cause as { socket?: { bytesRead?: unknown } } | undefined)?.socket?.bytesRead;
  if (!sentCertificate || bytesRead !== 0) return error;
  return new TransportError(
    'RESET',
    `${error.message}: ${origin} closed the TLS connection without answering, as a server does that does not accept the client certificate (is it issued by a CA the server trusts?)`,
    { cause: error.cause },
  );
}

/**
 * An http:// service has no TLS of its own: the client certificate and servername would never
 * be used. The CAs may stay when there is a proxy: they check an https:// proxy's certificate.
 */
function checkTlsForHttp(tls: NonNullable<NetworkSettings['tls']>, proxy: ProxyChoice | undefined): void {
  const unused = Object.entries(tls)
    .filter(([name, value]) => value !== undefined && !(proxy !== undefined && name === 'ca'))
    .map(([name]) => `options.tls.${name}`);
  if (unused.length > 0)
    throw new TypeError(`${unused.join(', ')}: for https:// URLs only, and the service URL is http://`);
}

function checkOwnDispatcher(settings: NetworkSettings): void {
  const given = (['tls', 'proxy', 'connections'] as const).filter((name) => settings[name] !== undefined);
  if (given.length > 0)
    throw new TypeError(
      `options.dispatcher replaces the client's own connections: ${given.map((n) => `options.${n}`).join(', ')} cannot be given with it (configure your dispatcher instead)`,
    );
  if (typeof (settings.dispatcher as { request?: unknown }).request !== 'function')
    throw new TypeError('options.dispatcher must be an undici Dispatcher (an Agent, Pool, ProxyAgent…)');
}

function hasAuthorizationHeader(headers: Readonly<Record<string, string>> | undefined): boolean {
  return headers !== undefined && Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
}

function routeOf(proxy: ProxyChoice | undefined): string {
  if (proxy === undefined) return '';
  return proxy.kind === 'url'
    ? ` (through the proxy ${proxy.url})`
    : ' (through the proxy settings of HTTP(S)_PROXY / NO_PROXY)';
}
