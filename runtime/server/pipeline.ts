/**
 * Every request's walk: route it (path, method, content type) to what serves it, then hand it to
 * that binding's steps (soap/serve.ts, http/serve.ts) or answer it here (help pages, ?wsdl,
 * 404/405/415). The binding steps return nothing, or a promise when they wait (for the body or
 * the handler) that never rejects (a failure inside one is logged and answered as a Server
 * error), so nothing here waits on them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAcceptedCharset, parseContentType, type ContentType } from '../content-type.js';
import { serveHttpGet, serveHttpPost } from './serve-http.js';
import { FORM_CONTENT_TYPE } from '../http/post.js';
import { serveSoap } from './serve-soap.js';
import { soap11 } from '../soap/soap11.js';
import { soap12 } from '../soap/soap12.js';
import type { SoapVersion } from '../soap/version.js';
import { writeMethodNotAllowed, writePlain, writeUnsupportedType, writeWsdl } from './answers.js';
import { answerHelp, helpPageAt } from './help/index.js';
import { lookupRoute, type Route } from './routes.js';
import type { ServerSetup } from './setup.js';
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

function soapVersionOf(contentType: ContentType): SoapVersion | undefined {
  if (contentType.mediaType === 'text/xml') return soap11;
  if (contentType.mediaType === 'application/soap+xml') return soap12;
  return undefined;
}

function routePost(setup: ServerSetup, route: Route, req: IncomingMessage, res: ServerResponse): void {
  const contentType = parseContentType(req.headers['content-type']);
  const version = soapVersionOf(contentType);
  const servesSoap = route.soap11 !== undefined || route.soap12 !== undefined;
  if (version !== undefined && servesSoap) {
    if (!isAcceptedCharset(contentType.charset))
      return writePlain(res, 415, `Unsupported charset: ${contentType.charset}. Use utf-8.`);
    return void serveSoap(setup, route, version, contentType, req, res);
  }
  if (route.post !== undefined && contentType.mediaType === FORM_CONTENT_TYPE)
    return void serveHttpPost(setup, route.post, req, res);
  if (servesSoap || route.post !== undefined) return writeUnsupportedType(res, route, contentType.mediaType);
  writeMethodNotAllowed(setup, req, res, route);
}

function routeGet(
  setup: ServerSetup,
  route: Route,
  hasQuery: boolean,
  query: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const servesSoap = route.soap11 !== undefined || route.soap12 !== undefined;
  if (setup.wsdl !== undefined && hasQuery && servesSoap && isWsdlQuery(query)) return writeWsdl(setup, req, res);
  if (route.get !== undefined) return void serveHttpGet(setup, route.get, query, req, res);
  writeMethodNotAllowed(setup, req, res, route);
}
