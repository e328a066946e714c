/** HTTP GET binding: `GET {address}{location}?a=1&b=2`; the response is the result element document. */
import type { HttpOperation } from './binding.js';
import { parseFormText } from './form.js';
import { encodeParams, decodeParams, type ParamDecodeError } from './params.js';
import type { BindingWire, WireRequest } from '../wire.js';

export const HTTP_GET_RESPONSE_TYPE = 'text/xml; charset=utf-8';

/** A GET without a body: the parameters are the query string. */
export const HTTP_GET_WIRE: BindingWire = {
  protocol: 'http-get',
  methods: ['GET'],
  mediaTypes: [],
  shownAs: '',
  charsets: [],
};

/** Client: the request for an operation (path is the port address path + location + query). */
export function buildGetRequest(
  basePath: string,
  hop: HttpOperation,
  input: unknown,
  extraHeaders: Record<string, string>,
): WireRequest {
  const query = encodeParams(hop, input);
  const path = `${basePath}${hop.op.httpPath ?? `/${hop.op.name}`}`;
  return {
    method: 'GET',
    path: query === '' ? path : `${path}?${query}`,
    headers: { ...extraHeaders },
    body: undefined,
  };
}

/** Server: the input from the query string (everything after '?'). */
export function decodeGetRequest(
  hop: HttpOperation,
  query: string,
  passAbsentOptional = false,
): { input: Record<string, unknown> } | ParamDecodeError {
  const params = parseFormText(query);
  return decodeParams(hop, params, passAbsentOptional);
}
