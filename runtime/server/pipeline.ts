/**
 * Every request's walk: route it (path, method, content type) to what serves it, then hand it to
 * that binding's steps (serve-soap.ts, serve-http.ts; a binding with a body through the read
 * step, with-body.ts, first) or answer it here (help pages, ?wsdl, 404/405/415). Which binding
 * takes a body is looked up in what the bindings declare (routes.ts), never named here. The
 * binding steps return nothing, or a promise when they wait (for the body or the handler) that
 * never rejects (a failure inside one is logged and answered as a Server error), so nothing
 * here waits on them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAcceptedCharset, parseContentType, type ContentType } from '../content-type.js';
import type { HttpOperation } from '../http/binding.js';
import type { SoapVersion } from '../soap/version.js';
import { writeMethodNotAllowed, writePlain, writeUnsupportedType, writeWsdl } from './answers.js';
import { answerHelp, helpPageAt } from './help/index.js';
import { lookupRoute, type ServedAddress } from './routes.js';
import { serveHttp } from './serve-http.js';
import { serveSoap } from './serve-soap.js';
import type { ServerSetup } from './setup.js';
import { withBody } from './with-body.js';
import { isWsdlQuery } from './wsdl.js';

export function handleRequest(setup: ServerSetup, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (req.method === 'GET' && answerHelpPage(setup, req, res, path, query)) return;
  const route = lookupRoute(setup.routes, path);
  if (route === undefined) return writePlain(res, 404, 'Not found.');
  if (req.method === 'POST') return routePost(setup, route, req, res);
  if (req.method === 'GET') return routeGet(setup, route, q >= 0, query, req, res);
  writeMethodNotAllowed(setup, req, res, route);
}

function answerHelpPage(
  setup: ServerSetup,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: string,
): boolean {
  const site = setup.help;
  const page = site === undefined ? undefined : helpPageAt(site, path);
  if (site === undefined || page === undefined) return false;
  return answerHelp(site, page, req, res, { query, trustForwarded: setup.trustForwarded, logError: setup.logError });
}

function routePost(setup: ServerSetup, route: ServedAddress, req: IncomingMessage, res: ServerResponse): void {
  const contentType = parseContentType(req.headers['content-type']);
  const taker = route.bodies.get(contentType.mediaType);
  if (taker?.soap !== undefined) {
    if (!isAcceptedCharset(contentType.charset))
      return writePlain(res, 415, `Unsupported charset: ${contentType.charset}. Use utf-8.`);
    return void readThenServeSoap(setup, route, taker.soap, contentType, req, res);
  }
  if (taker !== undefined) return void readThenServeHttpPost(setup, taker.post, req, res);
  if (route.bodies.size > 0) return writeUnsupportedType(res, route, contentType.mediaType);
  writeMethodNotAllowed(setup, req, res, route);
}

function routeGet(
  setup: ServerSetup,
  route: ServedAddress,
  hasQuery: boolean,
  query: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const servesSoap = route.soap11 !== undefined || route.soap12 !== undefined;
  if (setup.wsdl !== undefined && hasQuery && servesSoap && isWsdlQuery(query)) return writeWsdl(setup, req, res);
  if (route.get !== undefined) return void serveHttp(setup, route.get, 'http-get', query, req, res);
  writeMethodNotAllowed(setup, req, res, route);
}

/** The read step, then the SOAP steps with the body (the version the media type hints). */
function readThenServeSoap(
  setup: ServerSetup,
  route: ServedAddress,
  hinted: SoapVersion,
  contentType: ContentType,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  return withBody(setup, req, res, (body) => serveSoap(setup, route, hinted, contentType, req, res, body));
}

/** The read step, then the HTTP POST steps with the form body. */
function readThenServeHttpPost(
  setup: ServerSetup,
  hop: HttpOperation,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  return withBody(setup, req, res, (body) => serveHttp(setup, hop, 'http-post', body, req, res));
}
