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
import { charsetFamily, parseContentType } from '../content-type.js';
import { writeMethodNotAllowed, writePlain, writeUnsupportedType, writeWsdl } from './answers.js';
import { hasBody } from './body.js';
import { answerHelp, helpPageAt } from './help/index.js';
import { lingerOnUnreadBody } from './linger.js';
import { equivalentPath, lookupRoute, type BodyTaker, type ServedAddress } from './routes.js';
import { serveHttp } from './serve-http.js';
import type { ServerSetup } from './setup.js';
import { withBody } from './with-body.js';
import { isWsdlQuery } from './wsdl.js';

export function handleRequest(setup: ServerSetup, req: IncomingMessage, res: ServerResponse): void {
  routeRequest(setup, req, res);
  // Answered already, from the head alone, while a body is still on its way.
  if (res.writableEnded && !req.complete && hasBody(req)) lingerOnUnreadBody(req);
}

function routeRequest(setup: ServerSetup, req: IncomingMessage, res: ServerResponse): void {
  const target = requestTarget(req);
  if (typeof target !== 'string') return writePlain(res, 400, target.refusal);
  const url = target;
  const q = url.indexOf('?');
  const path = equivalentPath(q < 0 ? url : url.slice(0, q));
  const query = q < 0 ? '' : url.slice(q + 1);
  // HEAD reads a page as GET does, with the same header fields and no content (RFC 9110
  // §9.3.2; node's response drops the body of an answer to HEAD itself).
  const reading = req.method === 'GET' || req.method === 'HEAD';
  if (reading && answerHelpPage(setup, req, res, path, query)) return;
  const route = lookupRoute(setup.routes, path);
  if (route === undefined) return writePlain(res, 404, 'Not found.');
  if (req.method === 'POST') return routePost(setup, route, req, res);
  if (reading) return routeRead(setup, route, q >= 0, query, req, res);
  writeMethodNotAllowed(setup, req, res, route);
}

/**
 * The request's path and query, from its target in origin form (`/path?query`) or absolute form
 * (`http://host/path?query`, what a request through a proxy carries: RFC 9112 §3.2.2, which also
 * says the target's authority then stands for Host, so it replaces it); a refusal for more than
 * one Host line or a Host value that is no host[:port] (RFC 9112 §3.2: 400).
 */
function requestTarget(req: IncomingMessage): string | { readonly refusal: string } {
  let hosts = 0;
  // Absent on a request made in process (the bench's driver, a framework's adapter).
  const raw = req.rawHeaders ?? [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return { refusal: 'Bad request: more than one Host header.' };
  const host = req.headers.host;
  if (host !== undefined && !HOST_VALUE.test(host))
    return { refusal: 'Bad request: the Host header is not a host[:port].' };
  const url = req.url ?? '/';
  if (url.startsWith('/')) return url;
  const absolute = ABSOLUTE_FORM.exec(url);
  if (absolute === null) return url;
  const authority = absolute[1]!;
  if (!HOST_VALUE.test(authority)) return { refusal: 'Bad request: the request target names no host[:port].' };
  req.headers.host = authority;
  const rest = absolute[2] ?? '';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** RFC 3986 host (reg-name, IPv4, or an IP literal in brackets) and an optional port. */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;
/** scheme://authority then the path and query (the path may be empty: "/" then). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)(\/[^#]*|\?[^#]*)?$/;

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
  if (taker !== undefined && !takesCharset(taker, contentType.charset))
    return writePlain(
      res,
      415,
      `Unsupported charset: ${contentType.charset}. Use ${taker.wire.charsets.join(' or ')}.`,
    );
  if (taker !== undefined) return void withBody(setup, route, taker, contentType, req, res);
  if (route.bodies.size > 0) return writeUnsupportedType(res, route, contentType.mediaType);
  writeMethodNotAllowed(setup, req, res, route);
}

/** Whether the body's charset is one its binding declares (none given, or utf-8, decided without a lookup). */
function takesCharset(taker: BodyTaker, charset: string | undefined): boolean {
  if (charset === undefined || charset === 'utf-8') return true;
  const family = charsetFamily(charset);
  return family !== undefined && taker.wire.charsets.includes(family);
}

/**
 * GET, and HEAD for the same header fields without content. An HTTP GET operation is not run for
 * a HEAD: its GET is not safe (SMSSend sends), and a link checker's or a monitor's HEAD must not
 * send a message, so the operation's address answers 405 and its Allow leaves HEAD out.
 */
function routeRead(
  setup: ServerSetup,
  route: ServedAddress,
  hasQuery: boolean,
  query: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const servesSoap = route.soap11 !== undefined || route.soap12 !== undefined;
  if (setup.wsdl !== undefined && hasQuery && servesSoap && isWsdlQuery(query)) return writeWsdl(setup, req, res);
  if (req.method === 'GET' && route.get !== undefined)
    return void serveHttp(setup, route.get, 'http-get', query, req, res);
  writeMethodNotAllowed(setup, req, res, route);
}
