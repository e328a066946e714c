/** HTTP POST binding: `POST {address}{location}` with an `application/x-www-form-urlencoded` body. */
import { Buffer } from 'node:buffer';
import type { HttpOperation } from './binding.js';
import { parseFormText } from './form.js';
import { encodeParams, decodeParams, type ParamDecodeError } from './params.js';
import type { BindingWire, WireRequest } from '../wire.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** A POST of the parameters as a form. */
export const HTTP_POST_WIRE: BindingWire = {
  protocol: 'http-post',
  methods: ['POST'],
  mediaTypes: [FORM_CONTENT_TYPE],
  shownAs: FORM_CONTENT_TYPE,
  // Its %XX bytes are read as UTF-8, so another charset's text would be stored wrong.
  charsets: ['utf-8'],
};

export function buildPostRequest(
  basePath: string,
  hop: HttpOperation,
  input: unknown,
  extraHeaders: Record<string, string>,
): WireRequest {
  return {
    method: 'POST',
    path: `${basePath}${hop.op.httpPath ?? `/${hop.op.name}`}`,
    headers: { ...extraHeaders, 'content-type': FORM_CONTENT_TYPE },
    body: encodeParams(hop, input),
  };
}

/** Server: the input from the form body (UTF-8). */
export function decodePostRequest(
  hop: HttpOperation,
  body: Uint8Array,
  passAbsentOptional = false,
): { input: Record<string, unknown> } | ParamDecodeError {
  // The server's bodies are Buffers already: a view over one would be an object per request.
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const params = parseFormText(bytes.toString('utf8'));
  return decodeParams(hop, params, passAbsentOptional);
}
