/**
 * The server's options (`createRequestListener(descriptor, handlers, options)`), documented
 * where a user reads them, and the check that refuses a misspelt one at start.
 */
import type { XmlReadLimits } from '../xml/types.js';
import type { HelpPagesMode } from './help/mode.js';
import type { WsSecurityOptions } from '../wsse/types.js';

export interface Logger {
  /** One line about a failure the client only saw as a generic Server fault. Never request values. */
  error(message: string): void;
}

export interface ServerOptions {
  /** The WSDL text served at `{address}?wsdl` (addresses rewritten to the request's origin). */
  readonly wsdl?: string;
  /** Largest accepted request body (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Applied by `listen` to `server.headersTimeout` (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** Applied by `listen` to `server.requestTimeout` (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Time allowed for the request body once the headers are in (default 10 s). */
  readonly bodyTimeoutMs?: number;
  readonly logger?: Logger;
  /** Serve every binding under this path instead of the port addresses' paths. */
  readonly basePath?: string;
  /** Honour X-Forwarded-Proto / X-Forwarded-Host for the ?wsdl addresses (only behind a trusted proxy). */
  readonly trustForwardedHeaders?: boolean;
  /** Limits for the XML reader (depth, attributes, elements); the reader's defaults otherwise. */
  readonly xmlLimits?: XmlReadLimits;
  /**
   * HTTP GET/POST parameters that are absent: 'refuse' (default, ASMX) answers every one with
   * `Missing parameter: x.`; 'pass' lets an absent parameter whose SOAP wrapper field is
   * optional reach the handler as undefined, as the absent element does over SOAP (required
   * ones are still refused), so a service can validate all four bindings the same way.
   */
  readonly httpMissingParameters?: 'refuse' | 'pass';
  /**
   * The help pages at the service address (`GET {path}`, `{path}?op=NAME`, with sample messages
   * and an HTTP POST test form): 'local-test-form' (default, as ASMX) shows the test form only to
   * requests from this machine, 'test-form' to every client, 'off' serves no pages.
   */
  readonly helpPages?: HelpPagesMode;
  /**
   * Verify a WS-Security UsernameToken (WSS UsernameToken Profile) on every SOAP request before
   * its handler runs; the handler gets the identity as `context.identity`. A failure is a SOAP
   * fault with a WSS fault code (wsse:FailedAuthentication...), and the handler is not called.
   * docs/ws-security.md.
   */
  readonly wsSecurity?: WsSecurityOptions;
}

const OPTION_NAMES = new Set([
  'wsdl',
  'maxBodyBytes',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'bodyTimeoutMs',
  'logger',
  'basePath',
  'trustForwardedHeaders',
  'xmlLimits',
  'httpMissingParameters',
  'helpPages',
  'wsSecurity',
]);

export function checkOptionNames(options: ServerOptions): void {
  for (const key of Object.keys(options))
    if (!OPTION_NAMES.has(key)) throw new TypeError(`Unknown server option: ${key}`);
}

/** A positive number option, or its default. */
export function positiveOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`Server option ${name} must be a positive number`);
  return value;
}

export function missingParametersOption(value: unknown): 'refuse' | 'pass' {
  if (value === undefined || value === 'refuse' || value === 'pass') return value ?? 'refuse';
  throw new TypeError(`Server option httpMissingParameters must be 'refuse' or 'pass'`);
}
