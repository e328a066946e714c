/**
 * The GET side of a service's address, besides `?wsdl`: the help pages (`{path}`,
 * `{path}?op=NAME`) and the DISCO document (`{path}?disco`, whenever the WSDL is served, since
 * it points there). `answerHelp` returns false for anything else, which the server answers as
 * before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceDescriptor } from '../../descriptor.js';
import { renderDisco } from './disco.js';
import { writeHtml } from './html.js';
import { renderOperationPage, renderServicePage, renderUnknownOperationPage, type PageRequest } from './pages.js';
import { HELP_PAGES_MODES, type HelpPagesMode } from './mode.js';
import { compileHelpSite, type HelpSite } from './site.js';
import { isWsdlQuery, requestOrigin } from '../wsdl.js';

export { HELP_PAGES_MODES, type HelpPagesMode } from './mode.js';
export type { HelpSite } from './site.js';

export function helpPagesMode(value: unknown): HelpPagesMode {
  if (value === undefined) return 'local-test-form';
  if (HELP_PAGES_MODES.includes(value as HelpPagesMode)) return value as HelpPagesMode;
  throw new TypeError(`Server option helpPages must be one of ${HELP_PAGES_MODES.map((m) => `'${m}'`).join(', ')}`);
}

/** Undefined when there is nothing to serve: pages off and no WSDL for DISCO to point to. */
export function compileHelp(
  d: ServiceDescriptor,
  mode: HelpPagesMode,
  basePath: string | undefined,
  wsdl: string | undefined,
): HelpSite | undefined {
  return mode === 'off' && wsdl === undefined ? undefined : compileHelpSite(d, mode, basePath, wsdl);
}

/**
 * A request from this machine, as ASMX's HttpPostLocalhost sees it: a loopback peer, and no
 * proxy header saying it was forwarded from elsewhere (a proxy on this machine makes every
 * client look local).
 */
export function isLocalRequest(req: IncomingMessage): boolean {
  const h = req.headers;
  if (h['x-forwarded-for'] !== undefined || h.forwarded !== undefined || h['x-real-ip'] !== undefined) return false;
  const address = req.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function operationName(query: string): string | undefined {
  for (const [key, value] of new URLSearchParams(query)) if (key.toLowerCase() === 'op') return value;
  return undefined;
}

export interface HelpRequest {
  /** Everything after '?' ('' without one). */
  readonly query: string;
  readonly trustForwarded: boolean;
  /** One line about a page that failed (a bug: the client gets a plain 500). */
  readonly logError: (message: string) => void;
}

/** The help page at `path` (its own spelling), if there is one. */
export function helpPageAt(site: HelpSite, path: string): string | undefined {
  if (path === site.lastMiss) return undefined;
  const page = site.pages.get(path.toLowerCase());
  if (page === undefined) site.lastMiss = path;
  return page;
}

/**
 * True when the request for `page` (found by helpPageAt) was a help page or DISCO request, now
 * answered.
 */
export function answerHelp(
  site: HelpSite,
  page: string,
  req: IncomingMessage,
  res: ServerResponse,
  help: HelpRequest,
): boolean {
  if (isWsdlQuery(help.query)) return false;
  try {
    return answer(site, page, req, res, help);
  } catch (err) {
    help.logError(`the help page at ${page} failed: ${err instanceof Error ? err.name : typeof err}`);
    if (!res.headersSent) {
      res.writeHead(500, ['Content-Type', 'text/plain; charset=utf-8']);
      res.end('Server was unable to process request.');
    }
    return true;
  }
}

function answer(
  site: HelpSite,
  page: string,
  req: IncomingMessage,
  res: ServerResponse,
  { query, trustForwarded }: HelpRequest,
): boolean {
  const origin = requestOrigin(req, trustForwarded);
  if (query.toLowerCase() === 'disco') {
    if (!site.hasWsdl) return false;
    const doc = renderDisco(site, origin, page);
    res.writeHead(200, ['Content-Type', 'text/xml; charset=utf-8', 'Content-Length', String(Buffer.byteLength(doc))]);
    res.end(doc);
    return true;
  }
  if (site.mode === 'off') return false;
  const request: PageRequest = {
    path: page,
    host: origin.slice(origin.indexOf('//') + 2),
    testForm: site.mode === 'test-form' || isLocalRequest(req),
  };
  const name = operationName(query);
  if (name === undefined) {
    writeHtml(res, 200, renderServicePage(site, request));
    return true;
  }
  const op =
    site.operations.get(name) ?? [...site.operations.values()].find((o) => o.name.toLowerCase() === name.toLowerCase());
  if (op === undefined) writeHtml(res, 404, renderUnknownOperationPage(site, name, request));
  else writeHtml(res, 200, renderOperationPage(site, op, request));
  return true;
}
