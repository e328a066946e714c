/**
 * The read step of the bindings that have a body (SOAP, HTTP POST): refuse what the head alone
 * refuses (head-refusal.ts) without reading the body, else read it, then hand it to what
 * takes it at the request's address (the SOAP steps or the HTTP POST steps), so a request goes
 * down from the pipeline through here to its binding's steps and never back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContentType } from '../content-type.js';
import { answerUnexpected, writeBodyFailure, writeSoapFault } from './answers.js';
import type { BodyRead } from './body.js';
import type { BodyTaker, ServedAddress } from './routes.js';
import { refusedSoapAction } from './head-refusal.js';
import { serveHttp, writeNoUsernameToken } from './serve-http.js';
import { serveSoap } from './serve-soap.js';
import type { ServerSetup } from './setup.js';

/**
 * Reads the request's body and gives it to `taker`'s steps: at once when the read needs no
 * waiting, else when the body has come. A read that fails is answered here (408, 413, 400), and a
 * client that went away gets nothing. Plain functions and one promise rather than an async
 * function: its frame, promise and await were about a sixth of a SOAP request's allocations.
 * Never throws, and the promise returned never rejects (the bindings' steps answer their own
 * failures).
 */
export function withBody(
  setup: ServerSetup,
  route: ServedAddress,
  taker: BodyTaker,
  contentType: ContentType,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  try {
    // What the head alone refuses is answered before the body is read (and, with Expect:
    // 100-continue, before the client sends it).
    if (taker.soap !== undefined) {
      const refused = refusedSoapAction(route, taker.soap, req.headers, contentType);
      if (refused !== undefined) return writeSoapFault(res, refused.version, refused.fault);
    } else if (setup.wsSecurity?.required === true) return writeNoUsernameToken(res, taker.post, 'http-post');
    const read = setup.bodies.read(req);
    if (!(read instanceof Promise)) return bodyThen(setup, route, taker, contentType, req, res, read);
    return read.then(
      (arrived) => bodyThen(setup, route, taker, contentType, req, res, arrived),
      (err: unknown) => answerUnexpected(setup, res, err),
    );
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}

function bodyThen(
  setup: ServerSetup,
  route: ServedAddress,
  taker: BodyTaker,
  contentType: ContentType,
  req: IncomingMessage,
  res: ServerResponse,
  read: BodyRead,
): void | Promise<void> {
  try {
    if (read === undefined) return; // the client went away
    if (!(read instanceof Uint8Array)) return writeBodyFailure(res, read);
    if (taker.soap !== undefined) return serveSoap(setup, route, taker.soap, contentType, req, res, read);
    return serveHttp(setup, taker.post, 'http-post', read, req, res);
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}
