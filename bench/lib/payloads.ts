/**
 * The fixed requests the load generator sends, one per binding, and the input the client
 * section calls with. Every side of a comparison gets the same bytes.
 */
import type { Protocol } from '../../runtime/index.js';

export const NS = 'http://smskit.dev/serviceapi/';
export const SERVICE_PATH = '/serviceapi.asmx';
export const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];

export interface SendInput {
  readonly keyword: string;
  readonly emailAddress: string;
  readonly password: string;
  readonly smsto: string;
  readonly carrierCode: string;
  readonly smsmsg: string;
}

/** A valid SMSSend for the fixed-result servers (any values do). */
export const FIXED_INPUT: SendInput = {
  keyword: 'KW',
  emailAddress: 'user@example.com',
  password: 'secret',
  smsto: '+14155550123',
  carrierCode: 'ATT',
  smsmsg: 'Hello from the benchmark',
};

export interface HttpRequestSpec {
  readonly method: 'GET' | 'POST';
  /** Path and query, e.g. `/serviceapi.asmx/SMSSend?keyword=...`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

function fields(input: SendInput): string {
  return (Object.keys(input) as (keyof SendInput)[]).map((k) => `<${k}>${escapeXml(input[k])}</${k}>`).join('');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function form(input: SendInput): string {
  return new URLSearchParams(input as unknown as Record<string, string>).toString();
}

/** The SMSSend request of `binding`, as the load generator sends it. */
export function sendRequest(binding: Protocol, input: SendInput): HttpRequestSpec {
  const action = `${NS}SMSSend`;
  switch (binding) {
    case 'soap11':
      return {
        method: 'POST',
        path: SERVICE_PATH,
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` },
        body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><SMSSend xmlns="${NS}">${fields(input)}</SMSSend></soap:Body></soap:Envelope>`,
      };
    case 'soap12':
      return {
        method: 'POST',
        path: SERVICE_PATH,
        headers: { 'content-type': `application/soap+xml; charset=utf-8; action="${action}"` },
        body: `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap12:Body><SMSSend xmlns="${NS}">${fields(input)}</SMSSend></soap12:Body></soap12:Envelope>`,
      };
    case 'http-get':
      return { method: 'GET', path: `${SERVICE_PATH}/SMSSend?${form(input)}`, headers: {} };
    case 'http-post':
      return {
        method: 'POST',
        path: `${SERVICE_PATH}/SMSSend`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form(input),
      };
  }
}
