/**
 * The WS-Security UsernameToken of a run (`wsse`): every SOAP request gets the `wsse:Security`
 * header block the runtime's client writes (runtime/wsse/header.ts), with a fresh nonce and time
 * on every attempt. A case's request is built once, before the run, and a server that remembers
 * nonces refuses one it has seen, so the block is added as the request is sent. It goes first in
 * the envelope's Header, as the runtime's client puts it; a Header is added where there is none.
 * A body without a Body start tag (no envelope to speak of) is sent as it is.
 */
import { SOAP11_ENV_NS, SOAP12_ENV_NS, soap11, soap12, type UsernameTokenOptions } from '../../runtime/index.js';
import { writeSecurityHeader } from '../../runtime/wsse/header.js';
import type { RequestSpec } from '../types.js';

const HEADER_START = /<([\w.-]+:)?Header(?:\s[^>]*)?>/;
const BODY_START = /<([\w.-]+:)?Body(?:\s[^>]*)?>/;
/** Where the Header and Body start tags are looked for: an over-size body's padding comes after them. */
const HEAD_SCAN_BYTES = 64 * 1024;

/** The security block, its mustUnderstand prefix `soap` declared on it unless the envelope uses that prefix. */
function securityBlock(version: '1.1' | '1.2', token: UsernameTokenOptions, envelopePrefix: string): string {
  const block = writeSecurityHeader(token, version === '1.1' ? soap11 : soap12);
  if (envelopePrefix === 'soap:' || token.mustUnderstand === false) return block;
  const namespace = version === '1.1' ? SOAP11_ENV_NS : SOAP12_ENV_NS;
  return block.replace('<wsse:Security', `<wsse:Security xmlns:soap="${namespace}"`);
}

/** `request` with a fresh UsernameToken in its SOAP Header. */
export function withUsernameToken(
  request: RequestSpec,
  version: '1.1' | '1.2',
  token: UsernameTokenOptions,
): RequestSpec {
  const body = request.body;
  if (body === undefined) return request;
  // Latin-1 keeps byte offsets: the tags looked for are ASCII.
  const head =
    typeof body === 'string'
      ? body
      : Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, HEAD_SCAN_BYTES)).toString('latin1');
  const bodyStart = BODY_START.exec(head);
  if (bodyStart === null) return request;
  const prefix = bodyStart[1] ?? '';
  const block = securityBlock(version, token, prefix);
  const headerStart = HEADER_START.exec(head.slice(0, bodyStart.index));
  const [at, insert] =
    headerStart === null
      ? [bodyStart.index, `<${prefix}Header>${block}</${prefix}Header>`]
      : [headerStart.index + headerStart[0].length, block];
  if (typeof body === 'string') return { ...request, body: `${body.slice(0, at)}${insert}${body.slice(at)}` };
  return { ...request, body: Buffer.concat([body.subarray(0, at), Buffer.from(insert), body.subarray(at)]) };
}
