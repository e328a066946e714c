/**
 * An e-mail route's settings: the routes file's `type: email` entry, validated, defaults filled
 * in. The relay password is read from the environment variable the file names (`passwordEnv`):
 * it is never in the file, argv or a log line.
 */
import { readFileSync } from 'node:fs';

export interface EmailRouteOptions {
  /** The relay (smarthost). */
  readonly host: string;
  readonly port: number;
  /**
   * starttls: plain connection upgraded with STARTTLS, refused if the relay does not offer it
   * (port 587); tls: TLS from the first byte (port 465); none: never TLS (a relay on loopback).
   */
  readonly security: 'starttls' | 'tls' | 'none';
  /** AUTH user; with `password` (from `passwordEnv`). No AUTH without it. */
  readonly username?: string;
  readonly password?: string;
  /** Extra CA certificates (PEM text) to trust for the relay's certificate. */
  readonly tlsCa?: string;
  /** The envelope sender and From: header. */
  readonly from: string;
  /** A Subject: header; none by default (gateways prepend the subject to the SMS). */
  readonly subject?: string;
  /** Connections kept open to the relay at once (the route's send window). */
  readonly connections: number;
  /** Mails sent over one connection before it is replaced. */
  readonly messagesPerConnection: number;
  /** Bound on connecting, the greeting and each reply (ms). */
  readonly timeoutMs: number;
  /** Backoff while the relay is unreachable: first wait, doubled per failure, up to max (ms). */
  readonly reconnect: { readonly initialMs: number; readonly maxMs: number };
}

export const EMAIL_DEFAULTS = {
  security: 'starttls',
  connections: 2,
  messagesPerConnection: 100,
  timeoutMs: 30_000,
  reconnect: { initialMs: 1_000, maxMs: 60_000 },
} as const;

/** A routes-file setting of an e-mail route was wrong; `key` names it. */
export class EmailRouteConfigError extends Error {
  override readonly name = 'EmailRouteConfigError';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
  }
}

/** Keys the routes file's own parser handles for every route kind. */
const COMMON_KEYS = new Set(['name', 'type', 'carriers', 'default']);
const KEYS = new Set([
  'host',
  'port',
  'security',
  'username',
  'passwordEnv',
  'tlsCaFile',
  'from',
  'subject',
  'connections',
  'messagesPerConnection',
  'timeoutMs',
  'reconnect',
]);
const ADDRESS = /^[^\s@<>"]{1,64}@[A-Za-z0-9.-]{1,253}$/;
const HOST = /^[A-Za-z0-9.:[\]-]{1,253}$/;

function text(settings: Record<string, unknown>, key: string, pattern?: RegExp, hint?: string): string | undefined {
  const value = settings[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || (pattern !== undefined && !pattern.test(value)))
    throw new EmailRouteConfigError(key, hint ?? 'must be a non-empty string');
  return value;
}

function integer(value: unknown, key: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new EmailRouteConfigError(key, `must be an integer from ${min} to ${max}`);
  return value;
}

function security(value: unknown): EmailRouteOptions['security'] {
  if (value === undefined) return EMAIL_DEFAULTS.security;
  if (value === 'starttls' || value === 'tls' || value === 'none') return value;
  throw new EmailRouteConfigError('security', 'must be starttls, tls or none');
}

function credentials(settings: Record<string, unknown>, env: NodeJS.ProcessEnv): Partial<EmailRouteOptions> {
  const username = text(settings, 'username');
  const passwordEnv = text(settings, 'passwordEnv', /^[A-Za-z_][A-Za-z0-9_]*$/, 'must name an environment variable');
  if ((username === undefined) !== (passwordEnv === undefined))
    throw new EmailRouteConfigError(
      username === undefined ? 'username' : 'passwordEnv',
      'AUTH needs both username and passwordEnv',
    );
  if (username === undefined || passwordEnv === undefined) return {};
  const password = env[passwordEnv];
  if (password === undefined || password === '')
    throw new EmailRouteConfigError('passwordEnv', `the environment variable ${passwordEnv} is not set`);
  return { username, password };
}

function reconnect(value: unknown): EmailRouteOptions['reconnect'] {
  if (value === undefined) return EMAIL_DEFAULTS.reconnect;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EmailRouteConfigError('reconnect', 'must be { initialMs, maxMs }');
  const { initialMs, maxMs, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new EmailRouteConfigError(`reconnect.${extra}`, 'is not a setting');
  const initial = integer(initialMs, 'reconnect.initialMs', 10, 3_600_000) ?? EMAIL_DEFAULTS.reconnect.initialMs;
  const max =
    integer(maxMs, 'reconnect.maxMs', initial, 3_600_000) ?? Math.max(initial, EMAIL_DEFAULTS.reconnect.maxMs);
  return { initialMs: initial, maxMs: max };
}

function caFile(path: string | undefined): Partial<EmailRouteOptions> {
  if (path === undefined) return {};
  try {
    return { tlsCa: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new EmailRouteConfigError(
      'tlsCaFile',
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/**
 * Validates a `type: email` route's settings (a plain object, as the routes file parsed it) and
 * fills in the defaults. Throws `EmailRouteConfigError` naming the first wrong key.
 */
export function parseEmailRoute(
  settings: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): EmailRouteOptions {
  for (const key of Object.keys(settings))
    if (!KEYS.has(key) && !COMMON_KEYS.has(key))
      throw new EmailRouteConfigError(key, `is not a setting of an e-mail route (${[...KEYS].join(', ')})`);
  const host = text(settings, 'host', HOST, 'must be a host name or address');
  if (host === undefined) throw new EmailRouteConfigError('host', 'is required (the mail relay)');
  const mode = security(settings.security);
  const from = text(settings, 'from', ADDRESS, 'must be a mail address such as sms@example.com');
  if (from === undefined) throw new EmailRouteConfigError('from', 'is required (the sender address)');
  const subject = text(settings, 'subject', /^[^\r\n]{1,200}$/, 'must be one line of at most 200 characters');
  if (mode === 'none' && settings.username !== undefined)
    throw new EmailRouteConfigError('security', 'AUTH sends the password: use starttls or tls with username');
  return Object.freeze({
    host,
    port: integer(settings.port, 'port', 1, 65535) ?? (mode === 'tls' ? 465 : mode === 'starttls' ? 587 : 25),
    security: mode,
    ...credentials(settings, env),
    ...caFile(text(settings, 'tlsCaFile')),
    from,
    ...(subject === undefined ? {} : { subject }),
    connections: integer(settings.connections, 'connections', 1, 100) ?? EMAIL_DEFAULTS.connections,
    messagesPerConnection:
      integer(settings.messagesPerConnection, 'messagesPerConnection', 1, 100_000) ??
      EMAIL_DEFAULTS.messagesPerConnection,
    timeoutMs: integer(settings.timeoutMs, 'timeoutMs', 100, 600_000) ?? EMAIL_DEFAULTS.timeoutMs,
    reconnect: reconnect(settings.reconnect),
  });
}
