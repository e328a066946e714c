/**
 * What every answer of the server must look like, whatever it was sent: a 200 with a
 * well-formed document of the binding's content type, a well-formed fault of the right SOAP
 * version, or a 4xx/5xx with the documented content type; never a stack trace, a file path or
 * the password. `checkResponse` returns every problem found (empty when the answer is fine).
 */
import { XMLValidator } from 'fast-xml-parser';
import { parseFault, SOAP11, SOAP12 } from '../soap-fault.js';
import type { FuzzRequest } from './mutate.js';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly ms: number;
}

/** A stack frame, a source path or an internal module: must never reach a client. */
export const LEAK =
  /\bat [^\n]*\(?[^\s()]+:\d+:\d+\)?|node:internal|\/work\/|\/tmp\/|\.ts:\d+|node_modules|SQLITE_|better-sqlite3/;

const SOAP_TYPES: Record<string, string> = {
  'text/xml; charset=utf-8': SOAP11,
  'application/soap+xml; charset=utf-8': SOAP12,
};
const PLAIN = 'text/plain; charset=utf-8';
/** The service's help pages (GET on the service path, `?op=`): HTML, never scripted. */
const HTML = 'text/html; charset=utf-8';
/** Statuses our runtime answers with text/plain. */
const PLAIN_STATUSES = new Set([400, 404, 405, 408, 413, 415, 500]);
/** Statuses Node's own HTTP parser answers with, before the request reaches the runtime (no body). */
const PARSER_STATUSES = new Set([400, 414, 431]);

export function checkResponse(
  req: FuzzRequest,
  answer: Answer,
  secrets: readonly string[],
  timeLimitMs: number,
): string[] {
  const problems: string[] = [];
  const text = answer.body.toString('utf8');
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.ms > timeLimitMs) problems.push(`answered after ${Math.round(answer.ms)} ms (limit ${timeLimitMs} ms)`);
  for (const secret of secrets)
    if (text.includes(secret) || JSON.stringify(answer.headers).includes(secret))
      problems.push('the answer contains the password');
  if (LEAK.test(text)) problems.push(`the answer leaks internals: ${JSON.stringify(LEAK.exec(text)?.[0])}`);
  if (req.method === 'HEAD') return problems;
  if (type === HTML && req.method === 'GET' && (answer.status === 200 || answer.status === 404))
    problems.push(...checkHelpPage(text));
  else if (answer.status === 200) problems.push(...checkSuccess(type, text));
  else if (answer.status === 500 && type in SOAP_TYPES) problems.push(...checkFault(type, text));
  else if (PLAIN_STATUSES.has(answer.status) && type === PLAIN) problems.push(...checkPlain(answer, text));
  else if (PARSER_STATUSES.has(answer.status) && type === '' && text === '') {
    // Node's parser refused the request line or headers (malformed, or over 16 KiB): fine.
  } else problems.push(`unexpected answer: ${answer.status} ${JSON.stringify(type)}`);
  return problems;
}

function checkSuccess(type: string, text: string): string[] {
  if (type !== 'text/xml; charset=utf-8' && type !== 'application/soap+xml; charset=utf-8')
    return [`200 with content type ${JSON.stringify(type)}`];
  if (!text.startsWith('<?xml version="1.0" encoding="utf-8"?>')) return ['200 without the XML declaration'];
  const valid = XMLValidator.validate(text);
  if (valid !== true) return [`200 with malformed XML: ${valid.err.msg}`];
  if (text.includes('<wsdl:definitions') || /<string xmlns="http:\/\/smskit.dev\/serviceapi\/"/.test(text)) return [];
  const envNs = /^<\?xml[^>]*\?>\s*<([\w]+):Envelope xmlns:\1="([^"]+)"/.exec(text)?.[2];
  if (envNs !== SOAP_TYPES[type]) return [`200 ${type} with envelope namespace ${JSON.stringify(envNs)}`];
  return [];
}

function checkHelpPage(text: string): string[] {
  if (!/^<!DOCTYPE html>/i.test(text)) return ['an HTML answer that is not a whole page'];
  if (/<script\b/i.test(text)) return ['a help page with a script in it'];
  return [];
}

function checkFault(type: string, text: string): string[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return [`fault with malformed XML: ${valid.err.msg}`];
  try {
    const fault = parseFault(text);
    if (fault.envNs !== SOAP_TYPES[type]) return [`a ${fault.envNs} fault sent as ${type}`];
    const codes =
      fault.envNs === SOAP11
        ? ['soap:Client', 'soap:Server', 'soap:VersionMismatch', 'soap:MustUnderstand']
        : ['soap:Sender', 'soap:Receiver', 'soap:VersionMismatch', 'soap:MustUnderstand'];
    if (!codes.includes(fault.code)) return [`fault code ${JSON.stringify(fault.code)}`];
    if (fault.message === '' || fault.message.includes('\n')) return [`fault message ${JSON.stringify(fault.message)}`];
  } catch (error) {
    return [`a 500 ${type} that is not a fault: ${(error as Error).message}`];
  }
  return [];
}

function checkPlain(answer: Answer, text: string): string[] {
  const problems: string[] = [];
  if (text === '' || /[\r\n]/.test(text))
    problems.push(`text/plain answer is not one line: ${JSON.stringify(text.slice(0, 200))}`);
  if (answer.status === 500 && !['Client', 'Server'].includes(String(answer.headers['x-smskit-fault-code'])))
    problems.push('a 500 text/plain without X-Smskit-Fault-Code');
  return problems;
}

/** The request as it may be shown in a failure: password redacted, long bodies cut. */
export function describeRequest(req: FuzzRequest, secrets: readonly string[]): string {
  const redact = (s: string): string => secrets.reduce((acc, secret) => acc.split(secret).join('[REDACTED]'), s);
  const body = req.body === undefined ? '' : req.body.toString('latin1');
  const shownBody =
    body.length > 1500 ? `${body.slice(0, 1000)}…[${body.length - 1500} bytes]…${body.slice(-500)}` : body;
  const pathShown = req.path.length > 600 ? `${req.path.slice(0, 600)}…[${req.path.length} chars]` : req.path;
  return redact(
    `#${req.index} ${req.target} ${req.binding} [${req.mutations.join(', ')}]\n  ${req.method} ${pathShown}\n  headers: ${JSON.stringify(req.headers).slice(0, 600)}\n  body (${req.body?.length ?? 0} bytes): ${JSON.stringify(shownBody)}`,
  );
}
