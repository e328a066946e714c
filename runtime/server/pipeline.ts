/**
 * Every request's walk: route it (path, method, content type) to what serves it, then hand it on
 * (a body to the read step, with-body.ts, which hands it to the binding's steps; an HTTP GET to
 * serve-http.ts) or answer it here (help pages, ?wsdl, 404/405/415). Which binding takes a body
 * is looked up in what the bindings declare (routes.ts), never named here. The
 * binding steps return nothing, or a promise when they wait (for the body or the handler) that
 * never rejects (a failure inside one is logged and answered as a Server error), so nothing
 * here waits on them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAcceptedCharset, parseContentType } from '../content-type.js';
import { writeMethodNotAllowed, writePlain, writeUnsupportedType, writeWsdl } from './answers.js';
import { answerHelp, helpPageAt } from './help/index.js';
import { lookupRoute, type ServedAddress } from './routes.js';
import { serveHttp } from './serve-http.js';
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
  if (taker?.soap !== undefined && !isAcceptedCharset(contentType.charset))
    return writePlain(res, 415, `Unsupported charset: ${contentType.charset}. Use utf-8.`);
  if (taker !== undefined) return void withBody(setup, route, taker, contentType, req, res);
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
