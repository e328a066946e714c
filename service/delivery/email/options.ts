/**
 * An e-mail route's settings: the routes file's `type: email` entry, validated, defaults filled
 * in (./routes-entry.ts reads it). The relay password is read from the environment variable the file names (`passwordEnv`):
 * it is never in the file, argv or a log line.
 */
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
