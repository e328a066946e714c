/**
 * runtime/ is a stack of layers, and each imports only the layers below it (and itself):
 *
 *   entry (server.ts, listen.ts, client.ts, transport.ts, index.ts)
 *     ▶ server/ (the server wing: routing, the read step, each binding's serve steps, help pages)
 *     ▶ bindings (soap/, http/: decoding requests and encoding answers, client and server side)
 *     ▶ network/ (TLS, proxies, auth, the raw sender)
 *     ▶ wsse/ (WS-Security tokens, their headers and faults)
 *     ▶ soap-version/ (version.ts, soap11.ts, soap12.ts: what differs between the SOAP versions)
 *     ▶ codec/ and message.ts (values and messages <-> XML)
 *     ▶ xml/ (reading and writing XML)
 *     ▶ escape/
 *     ▶ base (primitives, descriptor, errors, namespaces, wire, content-type, and xml/types.ts,
 *       the XML tree's types the errors name)
 *
 * The SOAP versions sit under wsse/, in a folder of their own beside soap/ (so that soap/ and
 * wsse/ do not import each other), because a WS-Security fault or header is written in the
 * request's version, while reading a request (soap/envelope.ts) hands its Security header to
 * wsse/. A request's walk never climbs back up: nothing under the bindings knows the server.
 * Also kept here: the server routes by what the bindings declare, so the modules that route
 * (server/pipeline.ts, server/routes.ts) spell no media type.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-tree.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNTIME = join(ROOT, 'runtime');

/** Lowest first: a layer may import its own and those before it. */
const LAYERS = [
  'base',
  'escape',
  'xml',
  'codec',
  'soap-versions',
  'wsse',
  'network',
  'bindings',
  'server',
  'entry',
] as const;
type Layer = (typeof LAYERS)[number];

/** Files by path under runtime/ (checked first), then folders. */
const FILES: Readonly<Record<string, Layer>> = {
  'primitives.ts': 'base',
  'descriptor.ts': 'base',
  'errors.ts': 'base',
  'namespaces.ts': 'base',
  'wire.ts': 'base',
  'content-type.ts': 'base',
  'xml/types.ts': 'base',
  'message.ts': 'codec',
  'server.ts': 'entry',
  'listen.ts': 'entry',
  'client.ts': 'entry',
  'transport.ts': 'entry',
  'index.ts': 'entry',
};
const FOLDERS: Readonly<Record<string, Layer>> = {
  escape: 'escape',
  xml: 'xml',
  codec: 'codec',
  'soap-version': 'soap-versions',
  wsse: 'wsse',
  network: 'network',
  soap: 'bindings',
  http: 'bindings',
  server: 'server',
};

/** The layer of a file under runtime/, or undefined outside it (or in no layer). */
function layerOf(file: string): Layer | undefined {
  const path = relative(RUNTIME, file).split(sep).join('/');
  if (path.startsWith('../')) return undefined;
  return FILES[path] ?? FOLDERS[path.split('/')[0]!];
}

function wrongWay(file: string, text: string): string[] {
  const from = layerOf(file)!;
  const highest = LAYERS.indexOf(from);
  return importsOf(text)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ specifier, to: layerOf(resolve(dirname(file), specifier).replace(/\.js$/, '.ts')) }))
    .filter(({ to }) => to !== undefined && LAYERS.indexOf(to) > highest)
    .map(({ specifier, to }) => `${relative(ROOT, file)} (${from}) imports ${specifier} (${to})`);
}

/** A media type written out as a string, e.g. 'text/xml' or "application/soap+xml". */
const MEDIA_TYPE = /['"`](?:text|application)\/[\w.+-]+/g;

function spelledMediaTypes(text: string): string[] {
  return [...text.matchAll(MEDIA_TYPE)].map((m) => m[0].slice(1));
}

const all = sourceFiles(RUNTIME);

describe('runtime layers', () => {
  it('every file belongs to a layer', () => {
    expect(all.filter((file) => layerOf(file) === undefined).map((file) => relative(ROOT, file))).toEqual([]);
  });

  it.each(LAYERS)('%s imports only its own layer and those below it', (layer) => {
    const found = all.filter((file) => layerOf(file) === layer);
    expect(found.length).toBeGreaterThan(0);
    expect(found.flatMap((file) => wrongWay(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('would catch an upward import', () => {
    const planted = "import { withBody } from '../server/with-body.js';";
    expect(wrongWay(join(RUNTIME, 'soap', 'envelope.ts'), planted)).toEqual([
      'runtime/soap/envelope.ts (bindings) imports ../server/with-body.js (server)',
    ]);
    const typeOnly = "import type {\n  ServedAddress,\n} from '../server/routes.js';";
    expect(wrongWay(join(RUNTIME, 'http', 'binding.ts'), typeOnly)).toHaveLength(1);
    expect(
      wrongWay(join(RUNTIME, 'soap-version', 'soap11.ts'), "import { a } from '../soap/envelope.js';"),
    ).toHaveLength(1);
    expect(wrongWay(join(RUNTIME, 'errors.ts'), "import { listen } from './listen.js';")).toHaveLength(1);
    expect(wrongWay(join(RUNTIME, 'server', 'pipeline.ts'), "import { a } from '../soap/envelope.js';")).toEqual([]);
  });

  it('the modules that route name no media type: the bindings declare theirs', () => {
    for (const module of ['server/pipeline.ts', 'server/routes.ts'])
      expect(spelledMediaTypes(readFileSync(join(RUNTIME, module), 'utf8')), module).toEqual([]);
    expect(spelledMediaTypes("if (contentType.mediaType === 'text/xml') return soap11;")).toEqual(['text/xml']);
  });
});
