/**
 * An HTTP GET or POST request, from its route (GET) or its body (POST, through the read step,
 * with-body.ts) to its answer: decode the parameters (the query string, or the form body),
 * invoke the handler, encode the result document, write it. Errors are 500 text/plain with the
 * fault family in X-Smskit-Fault-Code, as ASMX answers them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Protocol } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { answerUnexpected, writeEmpty, writePlain, writePlainFault, writeText } from './answers.js';
import { internalFault } from './faults.js';
import { invokeHandler, type Invoked } from './invoke.js';
import type { ServerSetup } from './setup.js';
import type { FaultSpec } from '../soap-version/version.js';
import { encodeHttpResponse, type HttpOperation } from '../http/binding.js';
import type { Written } from '../codec/plain-writer.js';
import { decodeGetRequest } from '../http/get.js';
import type { ParamDecodeError } from '../http/params.js';
import { decodePostRequest } from '../http/post.js';

type Params = { input: Record<string, unknown> } | ParamDecodeError;

/**
 * `request`: the query string (GET) or the form body (POST) the parameters are read from. No
 * promise unless the handler returns one: a GET with a plain handler is answered at once.
 */
export function serveHttp(
  setup: ServerSetup,
  hop: HttpOperation,
  binding: Protocol,
  request: string | Uint8Array,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  try {
    // A UsernameToken travels in a SOAP header, which GET and POST do not have. 403, not 401: a
    // 401 must offer an HTTP authentication scheme (WWW-Authenticate), and none would help here.
    if (setup.wsSecurity?.required === true) return writeNoUsernameToken(res, hop, binding);
    const params: Params =
      typeof request === 'string'
        ? decodeGetRequest(hop, request, setup.passAbsentOptional)
        : decodePostRequest(hop, request, setup.passAbsentOptional);
    if ('error' in params) return writePlain(res, 500, params.error, 'Client', params.code);
    const call = { op: hop.op, binding, input: params.input, soapHeaders: {}, identity: undefined };
    const invoked = invokeHandler(setup, call, req, res);
    if (!(invoked instanceof Promise)) return writeOutcome(setup, hop, binding, invoked, res);
    return invoked.then(
      (outcome) => writeOutcome(setup, hop, binding, outcome, res),
      (err: unknown) => answerUnexpected(setup, res, err),
    );
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}

/** Encode and write what the handler gave (nothing when the client went away); never throws. */
function writeOutcome(
  setup: ServerSetup,
  hop: HttpOperation,
  binding: Protocol,
  outcome: Invoked,
  res: ServerResponse,
): void {
  try {
    if (res.destroyed) return;
    if ('fault' in outcome) return writePlainFault(res, outcome.fault);
    const encoded = encodeResponse(setup, hop, binding, outcome);
    if (!('text' in encoded)) return writePlainFault(res, encoded);
    // A void operation: ASMX answers 200 with an empty body and no Content-Type.
    if (hop.result === undefined) return writeEmpty(res);
    writeText(res, 200, 'text/xml; charset=utf-8', encoded.text, encoded.bytes);
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}

/** An operation that requires a UsernameToken, called over HTTP GET or POST (which cannot carry one). */
export function writeNoUsernameToken(res: ServerResponse, hop: HttpOperation, binding: Protocol): void {
  const method = binding === 'http-get' ? 'GET' : 'POST';
  const line = `${hop.op.name} requires a WS-Security UsernameToken, which HTTP ${method} cannot carry: call it over SOAP.`;
  writePlain(res, 403, line, 'Client');
}

function encodeResponse(
  setup: ServerSetup,
  hop: HttpOperation,
  binding: Protocol,
  outcome: Extract<Invoked, { output: unknown }>,
): Written | FaultSpec {
  try {
    checkResponseHeaders(hop, outcome.responseHeaders);
    return encodeHttpResponse(setup.d, hop, outcome.output);
  } catch (err) {
    return internalFault(setup.logger, err, hop.op, binding, 'encoding the response');
  }
}

/**
 * HTTP GET/POST carry no SOAP headers, so the handler's are not sent (ASMX does the same); one
 * its operation does not declare (on its SOAP bindings) is still a handler bug.
 */
function checkResponseHeaders(hop: HttpOperation, headers: Record<string, unknown> | undefined): void {
  if (headers === undefined) return;
  for (const prop of Object.keys(headers)) {
    if (headers[prop] !== undefined && !hop.outputHeaderProps.has(prop)) {
      throw new CodecError('CODEC_UNEXPECTED', `Header/${prop}`, 'this operation declares no such output SOAP header');
    }
  }
}
