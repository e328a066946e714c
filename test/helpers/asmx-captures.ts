/**
 * Reads the captured ASMX exchanges (test/fixtures/asmx/captures/<site>/*.txt; the format is in
 * test/fixtures/asmx/README.md), so a test can replay the exact request bytes elsewhere or compare
 * its own wire text with what genuine ASMX wrote.
 *
 * Files are split as latin1 text so every byte of a body survives unchanged; a body's
 * Content-Length is checked, so a capture edited by hand fails loudly instead of replaying
 * something else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { AsmxSite } from './asmx-peer.js';

export type CaptureBinding = 'soap11' | 'soap12' | 'get' | 'post';

export interface CapturedMessage {
  /** The request line (`POST /rich.asmx HTTP/1.1`) or status line (`HTTP/1.1 200 OK`). */
  readonly startLine: string;
  /** Header lines in order, as [name, value]. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

export interface Capture {
  readonly site: AsmxSite;
  /** File name without `.txt`, e.g. `EchoStrings.soap11.null-array`. */
  readonly name: string;
  readonly operation: string;
  readonly binding: CaptureBinding;
  readonly variant: string | undefined;
  readonly request: CapturedMessage;
  readonly response: CapturedMessage;
  /** The response's status code. */
  readonly status: number;
}

const BINDINGS = new Set<string>(['soap11', 'soap12', 'get', 'post']);
const capturesDir = (site: AsmxSite): URL => new URL(`../fixtures/asmx/captures/${site}/`, import.meta.url);

/** One capture by its file name (`WhoAmI.soap11.txt`). */
export function readCapture(site: AsmxSite, file: string): Capture {
  return parseCapture(site, file.replace(/\.txt$/, ''), readFileSync(new URL(file, capturesDir(site))));
}

/** A header's value (the name in any case), or undefined when the message has none. */
export function header(message: CapturedMessage, name: string): string | undefined {
  return message.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

/** Every capture of a site, in file-name order. */
export function readCaptures(site: AsmxSite): Capture[] {
  const dir = capturesDir(site);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.txt'))
    .sort()
    .map((file) => parseCapture(site, file.slice(0, -'.txt'.length), readFileSync(new URL(file, dir))));
}

export function parseCapture(site: AsmxSite, name: string, bytes: Buffer): Capture {
  const [operation, binding, ...rest] = name.split('.');
  if (operation === undefined || binding === undefined || !BINDINGS.has(binding))
    throw new Error(`capture ${site}/${name}: the name is not <Operation>.<binding>[.<variant>]`);
  const text = bytes.toString('latin1');
  const REQUEST = '#### request\n';
  const RESPONSE = '\n#### response\n';
  if (!text.startsWith(REQUEST)) throw new Error(`capture ${site}/${name}: does not start with "#### request"`);
  const split = text.indexOf(RESPONSE);
  if (split < 0) throw new Error(`capture ${site}/${name}: no "#### response" line`);
  // The capture script adds one "\n" after each body: the one before "#### response" is part
  // of RESPONSE above; the one at the end of the file is stripped here.
  if (!text.endsWith('\n')) throw new Error(`capture ${site}/${name}: does not end with a newline`);
  const response = parseMessage(`${site}/${name} response`, text.slice(split + RESPONSE.length, -1));
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(response.startLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`capture ${site}/${name}: bad status line ${response.startLine}`);
  return {
    site,
    name,
    operation,
    binding: binding as CaptureBinding,
    variant: rest.length === 0 ? undefined : rest.join('.'),
    request: parseMessage(`${site}/${name} request`, text.slice(REQUEST.length, split)),
    response,
    status,
  };
}

function parseMessage(where: string, text: string): CapturedMessage {
  const end = text.indexOf('\n\n');
  if (end < 0) throw new Error(`${where}: no blank line after the headers`);
  const [startLine, ...lines] = text.slice(0, end).split('\n');
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`${where}: not a header line: ${JSON.stringify(line)}`);
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const body = Buffer.from(text.slice(end + 2), 'latin1');
  const length = headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1];
  if (length !== undefined && Number(length) !== body.length)
    throw new Error(`${where}: Content-Length ${length} but the body has ${body.length} bytes`);
  return { startLine: startLine!, headers, body };
}

/** The request line's method and target (`/rich.asmx/Add?a=2`). */
export function requestTarget(capture: Capture): { method: string; target: string } {
  const [method, target] = capture.request.startLine.split(' ');
  if (method === undefined || target === undefined)
    throw new Error(`capture ${capture.site}/${capture.name}: bad request line`);
  return { method, target };
}
