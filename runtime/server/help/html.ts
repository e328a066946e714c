/**
 * The help pages' HTML shell: escaping, the page frame (headings, viewport, one stylesheet) and
 * the response headers. Every text that reaches a page goes through `escapeHtml()` (runtime/escape/html.ts) — operation
 * documentation comes from the WSDL, and a WSDL is not trusted markup.
 *
 * The pages need no script: the Content-Security-Policy allows none, only the stylesheet below
 * (by its hash) and forms posted to this origin, so a page that needed a script would break
 * visibly instead of working by accident.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { escapeHtml as html } from '../../escape/html.js';

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 62rem; padding: 1rem; overflow-wrap: anywhere; }
header { border-bottom: 1px solid #8886; margin-bottom: 1rem; }
h1 { font-size: 1.6rem; margin: .25rem 0; }
h2 { font-size: 1.3rem; margin-top: 2rem; }
h3 { font-size: 1.1rem; margin-top: 1.5rem; }
nav ol { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
nav li + li::before { content: "›"; margin-right: .5rem; }
.doc { white-space: pre-line; }
pre { overflow-x: auto; padding: .75rem; background: #8881; border: 1px solid #8884; border-radius: 4px; font-size: .85rem; overflow-wrap: normal; }
var { font-style: normal; font-weight: 600; color: #0b57d0; }
@media (prefers-color-scheme: dark) { var { color: #8ab4f8; } }
.table { overflow-x: auto; }
table { border-collapse: collapse; min-width: 100%; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #8884; vertical-align: top; }
code { font-size: .9em; }
form p { margin: .75rem 0; }
label { display: block; font-weight: 600; }
.hint { font-weight: normal; color: #666; }
@media (prefers-color-scheme: dark) { .hint { color: #aaa; } }
input, select { font: inherit; width: 100%; max-width: 32rem; padding: .45rem; box-sizing: border-box; }
button { font: inherit; padding: .5rem 1.5rem; }
iframe { width: 100%; height: 8rem; border: 1px solid #8884; border-radius: 4px; background: #fff; }
.note { border-left: 4px solid #8886; padding-left: .75rem; }
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Only the stylesheet above (and the empty icon), forms and the answer frame to this origin, no framing of the page, no scripts. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src data:; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

export interface PageFrame {
  /** The document title (text, escaped here). */
  readonly title: string;
  /** Breadcrumbs above the main heading: [text, href] pairs, hrefs already safe to quote. */
  readonly trail: readonly (readonly [string, string])[];
  /** The main heading (text). */
  readonly heading: string;
  /** Extra `<head>` markup (already HTML). */
  readonly head?: string;
  /** The page's content (already HTML). */
  readonly main: string;
}

export function renderPage(frame: PageFrame): string {
  const trail =
    frame.trail.length === 0
      ? ''
      : `<nav aria-label="Breadcrumb"><ol>${frame.trail.map(([text, href]) => `<li><a href="${html(href)}">${html(text)}</a></li>`).join('')}<li aria-current="page">${html(frame.heading)}</li></ol></nav>\n`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${html(frame.title)}</title>`,
    // An empty icon: without one the browser asks for /favicon.ico, which the service has not.
    '<link rel="icon" href="data:,">',
    `<style>${STYLE}</style>`,
    frame.head ?? '',
    '</head>',
    '<body>',
    `<header>\n${trail}<h1>${html(frame.heading)}</h1>\n</header>`,
    `<main>\n${frame.main}\n</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export function writeHtml(res: ServerResponse, status: number, page: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, [
    'Content-Type',
    'text/html; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(page)),
    'Content-Security-Policy',
    CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options',
    'nosniff',
    'Cache-Control',
    'no-cache',
  ]);
  res.end(page);
}
