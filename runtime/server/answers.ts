/**
 * The last step of every request: writing the answer. Each writer does nothing when an answer
 * was already sent or the client went away, so a late step can never write twice.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UNCOUNTED } from '../codec/plain-writer.js';
import type { FaultSpec, SoapVersion } from '../soap-version/version.js';
import type { BodyFailure } from './body.js';
import { describeError, GENERIC_SERVER_FAULT } from './faults.js';
import type { ServedAddress } from './routes.js';
import type { ServerSetup } from './setup.js';
import { requestOrigin } from './wsdl.js';

const PLAIN = 'text/plain; charset=utf-8';

/**
 * `countedBytes`: the text's UTF-8 length when its writer counted it (UNCOUNTED: measured here).
 * An ASCII text goes to node as latin1, the same bytes: for a UTF-8 string node sizes its write
 * buffer at three bytes a character, a large allocation per answer.
 */
export function writeText(
  res: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  countedBytes = UNCOUNTED,
): void {
  if (res.headersSent || res.destroyed) return;
  const bytes = countedBytes === UNCOUNTED ? Buffer.byteLength(text) : countedBytes;
  res.writeHead(status, ['Content-Type', contentType, 'Content-Length', String(bytes)]);
  res.end(text, bytes === text.length ? 'latin1' : 'utf8');
}

/** A void operation over HTTP GET/POST: ASMX answers 200 with an empty body and no Content-Type. */
export function writeEmpty(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, ['Content-Length', '0']);
  res.end();
}

/**
 * A one-way SOAP operation's answer: 202 Accepted with no body and no Content-Type (WS-I BP
 * R2714 forbids an envelope; JAX-WS @Oneway and ASMX OneWay methods answer so).
 */
export function writeAccepted(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(202, ['Content-Length', '0']);
  res.end();
}

/** A one-line text/plain answer; for GET/POST errors the fault family rides in a header. */
export function writePlain(
  res: ServerResponse,
  status: number,
  message: string,
  faultCode?: string,
  errorCode?: string,
): void {
  if (res.headersSent || res.destroyed) return;
  const line = message.replace(/[\r\n]+/g, ' ');
  const headers = ['Content-Type', PLAIN, 'Content-Length', String(Buffer.byteLength(line))];
  if (faultCode !== undefined) headers.push('X-Smskit-Fault-Code', faultCode);
  if (errorCode !== undefined && /^[\x21-\x7e]{1,100}$/.test(errorCode)) headers.push('X-Smskit-Error-Code', errorCode);
  res.writeHead(status, headers);
  res.end(line);
}

/** The last guard: a step that threw past its own fault handling still gets a 500, and a log line. */
export function answerUnexpected(setup: ServerSetup, res: ServerResponse, err: unknown): void {
  setup.logger.error(`unexpected error serving a request: ${describeError(err)}`);
  writePlainFault(res, GENERIC_SERVER_FAULT);
}

/** A fault over HTTP GET/POST: 500 text/plain, the fault family and error code in headers. */
export function writePlainFault(res: ServerResponse, fault: FaultSpec): void {
  writePlain(res, 500, fault.message, fault.kind === 'client' ? 'Client' : 'Server', fault.detail?.entries.code);
}

/** A SOAP fault: 500 in both versions (ASMX's convention, also for SOAP 1.2 Sender faults). */
export function writeSoapFault(res: ServerResponse, version: SoapVersion, fault: FaultSpec): void {
  let xml: string;
  try {
    xml = version.writeFault(fault);
  } catch {
    // The message itself cannot be written (a forbidden character in a ServiceError text).
    xml = version.writeFault({
      kind: fault.kind === 'client' ? 'client' : 'server',
      message: 'The fault message could not be encoded.',
    });
  }
  writeText(res, 500, version.contentType, xml);
}

/** 408/413/400 while reading the body: answer, then close the connection (the rest is not read). */
export function writeBodyFailure(res: ServerResponse, failure: BodyFailure): void {
  if (res.headersSent || res.destroyed) return;
  res.shouldKeepAlive = false;
  const line = failure.message;
  res.writeHead(failure.status, [
    'Content-Type',
    PLAIN,
    'Content-Length',
    String(Buffer.byteLength(line)),
    'Connection',
    'close',
  ]);
  res.end(line, () => res.socket?.destroy());
}

/**
 * The methods the bindings served here declare, and GET and HEAD for the service's own pages (the
 * help pages, ?wsdl) at a SOAP address; in alphabetical order: GET, HEAD, POST.
 */
function allowedMethods(setup: ServerSetup, route: ServedAddress): string {
  const methods = new Set<string>();
  const soap = route.soap11 !== undefined || route.soap12 !== undefined;
  const helpServed = setup.help !== undefined && setup.help.mode !== 'off';
  if (soap && (setup.wsdl !== undefined || helpServed)) {
    methods.add('GET');
    methods.add('HEAD');
  }
  for (const wire of route.wires) for (const method of wire.methods) methods.add(method);
  return [...methods].sort().join(', ');
}

export function writeMethodNotAllowed(
  setup: ServerSetup,
  req: IncomingMessage,
  res: ServerResponse,
  route: ServedAddress,
): void {
  const allow = allowedMethods(setup, route);
  // The method is allowed here, only not with this query (`?wsdl` on a server without a WSDL).
  if (req.method !== undefined && allow.split(', ').includes(req.method)) return writePlain(res, 404, 'Not found.');
  const line = `Method not allowed. Use ${allow}.`;
  res.writeHead(405, ['Content-Type', PLAIN, 'Content-Length', String(Buffer.byteLength(line)), 'Allow', allow]);
  res.end(line);
}

/** 415: what the bindings served here accept, as each declares it (BindingWire.shownAs). */
export function writeUnsupportedType(res: ServerResponse, route: ServedAddress, mediaType: string): void {
  const accepted: string[] = [];
  for (const wire of route.wires) if (wire.mediaTypes.length > 0) accepted.push(wire.shownAs);
  const shown = mediaType === '' ? 'none' : mediaType.slice(0, 100);
  writePlain(res, 415, `Unsupported content type: ${shown}. Use ${accepted.join(' or ')}.`);
}

export function writeWsdl(setup: ServerSetup, req: IncomingMessage, res: ServerResponse): void {
  const doc = setup.wsdl!.get(requestOrigin(req, setup.trustForwarded));
  res.writeHead(200, ['Content-Type', 'text/xml; charset=utf-8', 'Content-Length', String(doc.length)]);
  res.end(doc);
}
