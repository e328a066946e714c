/**
 * The generated SMS skeleton (generated/service-api) served with `wsSecurity`, handlers that
 * count their calls and answer with the identity they were handed, and raw SOAP requests whose
 * `wsse:Security` header a test writes itself (so it can also write wrong ones).
 */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { createServiceAPIListener, type ServiceAPIHandlers } from '../../generated/service-api/index.js';
import {
  listen,
  soap11,
  soap12,
  type ServerOptions,
  type SoapVersion,
  type VerifiedIdentity,
  type WsSecurityOptions,
} from '../../runtime/index.js';

export const WSDL_TEXT = readFileSync(new URL('../../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
export const NS = 'http://smskit.dev/serviceapi/';
export const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
export const PASSWORD_DIGEST =
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
export const PASSWORD_TEXT =
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';
export const BASE64_BINARY =
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';

/** The one account the test servers know. */
export const USER = 'alice@example.com';
export const PASSWORD = 'correct horse <battery> & staple';

export const SEND_INPUT = {
  keyword: 'k',
  emailAddress: 'body@example.com',
  password: 'body-password',
  smsto: '+15551234567',
  carrierCode: 'ATT',
  smsmsg: 'hello',
};

export interface WsseServer {
  /** e.g. http://127.0.0.1:41234/serviceapi.asmx */
  readonly endpoint: string;
  /** Every handler call, with the identity it was handed (null: none). */
  readonly calls: { readonly operation: string; readonly identity: VerifiedIdentity | null }[];
  readonly logged: string[];
  close(): Promise<void>;
}

export async function startWsseServer(
  wsSecurity: Partial<WsSecurityOptions> | undefined,
  options: ServerOptions = {},
): Promise<WsseServer> {
  const calls: { operation: string; identity: VerifiedIdentity | null }[] = [];
  const logged: string[] = [];
  const handlers: ServiceAPIHandlers = {
    SMSSend: (_input, context) => {
      calls.push({ operation: 'SMSSend', identity: context.identity ?? null });
      return { SMSSendResult: `sent as ${context.identity?.username ?? 'nobody'}` };
    },
    SMSSendToPort: (_input, context) => {
      calls.push({ operation: 'SMSSendToPort', identity: context.identity ?? null });
      return { SMSSendToPortResult: `sent as ${context.identity?.username ?? 'nobody'}` };
    },
  };
  const security =
    wsSecurity === undefined
      ? {}
      : { wsSecurity: { passwordOf: (user: string) => (user === USER ? PASSWORD : undefined), ...wsSecurity } };
  const listener = createServiceAPIListener(handlers, {
    wsdl: WSDL_TEXT,
    logger: { error: (line) => logged.push(line) },
    ...security,
    ...options,
  });
  const listening = await listen(listener, { host: '127.0.0.1', port: 0 });
  return { endpoint: `${listening.url}/serviceapi.asmx`, calls, logged, close: () => listening.close() };
}

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** POSTs an SMSSend envelope of `version` with `header` (XML of header blocks) as its Header. */
export async function postSend(endpoint: string, version: SoapVersion, header: string): Promise<RawAnswer> {
  const body = `<SMSSend xmlns="${NS}">${Object.entries(SEND_INPUT)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('')}</SMSSend>`;
  const envelope =
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${version.envNs}">` +
    `${header === '' ? '' : `<soap:Header>${header}</soap:Header>`}<soap:Body>${body}</soap:Body></soap:Envelope>`;
  const action = `${NS}SMSSend`;
  const headers: Record<string, string> =
    version === soap11
      ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` }
      : { 'content-type': `application/soap+xml; charset=utf-8; action="${action}"` };
  const res = await request(endpoint, { method: 'POST', headers, body: envelope });
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type'] ?? ''),
    text: await res.body.text(),
  };
}

export const VERSIONS = [
  ['SOAP 1.1', soap11],
  ['SOAP 1.2', soap12],
] as const;
