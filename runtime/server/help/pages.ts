/**
 * The help pages, as ASMX serves them: `GET {path}` lists the service and its operations,
 * `GET {path}?op=NAME` shows one operation — documentation, parameters, the test form and a
 * sample request and response per binding. Landmarks and real headings (h1 service or
 * operation, h2 sections, h3 request/response) so that a screen reader can move by them.
 */
import { escapeHtml as html } from '../../escape/html.js';
import { renderPage } from './html.js';
import { renderTestForm, type TestFormState } from './form.js';
import { headerRows, parameterRows, resultRows, type ParameterRow } from './params.js';
import { Placeholders } from './placeholders.js';
import { httpSample, soapSample, type Sample, type SampleMessage } from './samples.js';
import type { HelpBinding, HelpOperation, HelpSite } from './site.js';
import { CodecError } from '../../errors.js';
import { soap11 } from '../../soap-version/soap11.js';
import { soap12 } from '../../soap-version/soap12.js';

export interface PageRequest {
  /** The path the page describes (a port address path). */
  readonly path: string;
  /** host[:port] for the samples' Host line. */
  readonly host: string;
  /** Whether this request may see the test form. */
  readonly testForm: boolean;
}

const TITLES = { soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', 'http-get': 'HTTP GET', 'http-post': 'HTTP POST' } as const;

function doc(text: string | undefined): string {
  return text === undefined ? '' : `<p class="doc">${html(text)}</p>`;
}

function opHref(name: string): string {
  return `?op=${encodeURIComponent(name)}`;
}

function descriptionLinks(site: HelpSite, path: string): string {
  if (!site.hasWsdl) return '';
  return [
    '<h2 id="description">Service description</h2>',
    '<ul>',
    `<li><a href="${html(path)}?wsdl">WSDL</a>: the contract (every binding, operation and type)</li>`,
    `<li><a href="${html(path)}?disco">DISCO</a>: the discovery document</li>`,
    '</ul>',
  ].join('\n');
}

export function renderServicePage(site: HelpSite, req: PageRequest): string {
  const name = site.d.name;
  const items = [...site.operations.values()].map(
    (op) => `<li><a href="${html(opHref(op.name))}">${html(op.name)}</a>${doc(op.documentation)}</li>`,
  );
  const protocols = [...new Set(site.d.bindings.map((b) => TITLES[b.protocol]))].join(', ');
  const main = [
    doc(site.documentation()),
    `<p>Web service at <code>${html(req.path)}</code> (${html(protocols)}).</p>`,
    '<h2 id="operations">Operations</h2>',
    items.length === 0 ? '<p>This service has no operations.</p>' : `<ul>\n${items.join('\n')}\n</ul>`,
    descriptionLinks(site, req.path),
  ].join('\n');
  return renderPage({ title: `${name} web service`, trail: [], heading: name, main, head: disco(site, req.path) });
}

function disco(site: HelpSite, path: string): string {
  return site.hasWsdl ? `<link rel="alternate" type="text/xml" href="${html(path)}?disco">` : '';
}

function table(caption: string, rows: readonly ParameterRow[]): string {
  if (rows.length === 0) return `<p>${html(caption)}: none.</p>`;
  const body = rows
    .map(
      (r) =>
        `<tr><th scope="row"><code>${html(r.name)}</code></th><td><code>${html(r.type)}</code></td><td>${html(r.use)}</td></tr>`,
    )
    .join('\n');
  return `<div class="table"><table>\n<caption>${html(caption)}</caption>\n<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Use</th></tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

function messageHtml(values: Placeholders, message: SampleMessage, host: string | undefined): string {
  const lines = [
    message.startLine,
    ...(host === undefined ? [] : [`Host: ${host}`]),
    ...message.headers.map(([n, v]) => `${n}: ${v}`),
  ];
  const text = `${lines.join('\n')}\n${message.body === '' ? '' : `\n${message.body}`}`;
  return `<pre><code>${values.toHtml(text)}</code></pre>`;
}

function bindingSection(site: HelpSite, values: Placeholders, b: HelpBinding, host: string): string {
  const title = TITLES[b.protocol];
  const head = `<section aria-labelledby="${b.protocol}">\n<h2 id="${b.protocol}">${title}</h2>`;
  if ('unusable' in b) return `${head}\n<p>Not available over ${title}: ${html(b.unusable)}.</p>\n</section>`;
  let sample: Sample;
  try {
    const ctx = { d: site.d, placeholders: site.placeholders(), values };
    sample =
      'op' in b
        ? soapSample(ctx, b.protocol === 'soap11' ? soap11 : soap12, b.path, b.op)
        : httpSample(ctx, b.protocol, b.base, b.hop);
  } catch (err) {
    // A contract this runtime cannot write a sample for (a required recursive field, say).
    if (!(err instanceof CodecError)) throw err;
    return `${head}\n<p>No sample: ${html(err.message)}.</p>\n</section>`;
  }
  return [
    head,
    `<p>A sample ${title} request and response, as the runtime writes them (XML indented here for reading). Replace the <var>placeholders</var> with values.</p>`,
    '<h3>Request</h3>',
    messageHtml(values, sample.request, host),
    '<h3>Response</h3>',
    messageHtml(values, sample.response, undefined),
    '</section>',
  ].join('\n');
}

function testFormState(op: HelpOperation, req: PageRequest): TestFormState {
  const post = op.bindings.find((b) => b.protocol === 'http-post');
  if (post === undefined) return { kind: 'unavailable', why: 'this service has no HTTP POST binding for it' };
  if ('unusable' in post) return { kind: 'unavailable', why: post.unusable };
  if (!('hop' in post)) return { kind: 'unavailable', why: 'no HTTP POST address' };
  if (!req.testForm) return { kind: 'remote-only' };
  return { kind: 'form', action: `${post.base}${post.hop.op.httpPath ?? `/${post.hop.op.name}`}`, hop: post.hop };
}

export function renderOperationPage(site: HelpSite, op: HelpOperation, req: PageRequest): string {
  const values = new Placeholders(site.d);
  const headers = headerRows(site.d, op);
  const usable = op.bindings
    .filter((b) => !('unusable' in b))
    .map((b) => `<a href="#${b.protocol}">${TITLES[b.protocol]}</a>`);
  const main = [
    doc(op.documentation),
    usable.length === 0
      ? '<p>No binding of this server can carry it.</p>'
      : `<p>Available over ${usable.join(', ')}.</p>`,
    '<h2 id="parameters">Parameters</h2>',
    table(`Input of ${op.name}`, parameterRows(site.d, op)),
    headers.length === 0 ? '' : table('SOAP headers', headers),
    '<h2 id="result">Result</h2>',
    table(`Output of ${op.name}`, resultRows(site.d, op)),
    '<h2 id="test">Test</h2>',
    renderTestForm(testFormState(op, req), op.name),
    ...op.bindings.map((b) => bindingSection(site, values, b, req.host)),
    descriptionLinks(site, req.path),
  ].join('\n');
  return renderPage({
    title: `${op.name} — ${site.d.name} web service`,
    trail: [[site.d.name, req.path]],
    heading: op.name,
    main,
    head: disco(site, req.path),
  });
}

export function renderUnknownOperationPage(site: HelpSite, name: string, req: PageRequest): string {
  const items = [...site.operations.keys()]
    .map((n) => `<li><a href="${html(opHref(n))}">${html(n)}</a></li>`)
    .join('\n');
  const main = `<p>${html(site.d.name)} has no operation named <code>${html(name)}</code>. Its operations:</p>\n<ul>\n${items}\n</ul>`;
  return renderPage({
    title: `No operation ${name} — ${site.d.name} web service`,
    trail: [[site.d.name, req.path]],
    heading: 'No such operation',
    main,
  });
}
