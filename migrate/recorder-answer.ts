/**
 * How the recorder passes an upstream's answer to the client, and what of it the store keeps. A
 * WSDL (`?wsdl`) is read whole, its address rewritten to the recorder's and its secret names
 * learned; anything else is streamed as it comes. An answer that does not arrive whole is never
 * passed on or stored as if it were: a WSDL that breaks off (or is too large to read whole) is
 * answered 502, a streamed answer has the client's connection aborted (RFC 9112 §7.1: an
 * incomplete message must not be passed on as complete), and either is stored cut, with why.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { decodedBody } from './content-coding.js';
import { HOP_BY_HOP, withoutHopFields } from './hop-by-hop.js';
import type { HeaderList } from './recording.js';
import { type Redactor, secretFieldsOfWsdl } from './redact.js';
import { failureText, MAX_WSDL_BYTES, readUpstreamBody } from './upstream-body.js';

/** What the recorder does not pass on, either way: besides the hop-by-hop fields, those it sets itself. */
export const NOT_PASSED: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP,
  'proxy-authenticate',
  'host',
  // Node answers `Expect: 100-continue` itself (.NET clients send it); undici will not send it on.
  'expect',
]);

export interface AnswerContext {
  readonly upstream: URL;
  readonly redactor: Redactor;
  /** How much of an answer is kept for the store (its body limit). */
  readonly keepBytes: number;
  readonly onWarning: (line: string) => void;
}

/** What of an answer the store keeps: `cut` when not all of it; `failure` says why it is not whole. */
export interface Forwarded {
  readonly body: Buffer;
  readonly cut: boolean;
  readonly failure?: string;
}

const isWsdlRequest = (target: string): boolean => /\?wsdl(?:&|=|$)/i.test(target);

/** The client's 502, before any of the answer has gone to it. */
export function answerBadGateway(res: ServerResponse, why: string): void {
  res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`smskit record: ${why}\n`);
}

/** Sends the upstream's answer to the client and returns what of it the store keeps. */
export function forwardAnswer(
  ctx: AnswerContext,
  req: IncomingMessage,
  res: ServerResponse,
  upstreamRes: Dispatcher.ResponseData,
  responseHeaders: HeaderList,
  target: string,
): Promise<Forwarded> {
  const passed = withoutHopFields(responseHeaders, NOT_PASSED);
  if (isWsdlRequest(target) && upstreamRes.statusCode === 200) return forwardWsdl(ctx, req, res, upstreamRes, passed);
  return forwardStream(ctx, req, res, upstreamRes, passed, target);
}

/** A WSDL, read whole: compressed though identity was asked for, it is decoded before the rewrite and sent uncoded. */
async function forwardWsdl(
  ctx: AnswerContext,
  req: IncomingMessage,
  res: ServerResponse,
  upstreamRes: Dispatcher.ResponseData,
  passed: HeaderList,
): Promise<Forwarded> {
  const read = await readUpstreamBody(upstreamRes.body, MAX_WSDL_BYTES);
  if (read.failure !== undefined) {
    ctx.onWarning(
      `record: the upstream's WSDL (${(req.url ?? '/').split('?')[0]}?wsdl): ${read.failure}; answered 502`,
    );
    answerBadGateway(res, `the upstream's WSDL did not arrive whole (${read.failure})`);
    return { body: read.bytes, cut: true, failure: `${read.failure}; the client was answered 502` };
  }
  const coded = read.bytes;
  const decoded = decodedBody(passed, coded);
  if (decoded === undefined) {
    ctx.onWarning(
      `record: the upstream's WSDL (${(req.url ?? '/').split('?')[0]}?wsdl): its Content-Encoding could not be decoded; no secret names learned from it`,
    );
    res.writeHead(upstreamRes.statusCode, passed.flat());
    res.end(coded);
    return { body: coded, cut: false };
  }
  const wsdl = decoded.body.toString('utf8');
  ctx.redactor.learn(secretFieldsOfWsdl(wsdl));
  const rewritten = Buffer.from(
    wsdl.split(`${ctx.upstream.origin}/`).join(`http://${req.headers.host ?? ctx.upstream.host}/`),
  );
  const headers = decoded.headers.filter(([n]) => n.toLowerCase() !== 'content-length');
  res.writeHead(upstreamRes.statusCode, [...headers, ['Content-Length', String(rewritten.length)]].flat());
  res.end(rewritten);
  return { body: coded, cut: false };
}

/**
 * Any other answer, streamed at the client's pace; one byte past what will be stored is kept, so
 * the store knows to mark it cut. A client that goes away ends the exchange: the rest of the
 * answer is not read from the upstream (it may be endless), and the exchange is recorded failed.
 */
async function forwardStream(
  ctx: AnswerContext,
  req: IncomingMessage,
  res: ServerResponse,
  upstreamRes: Dispatcher.ResponseData,
  passed: HeaderList,
  target: string,
): Promise<Forwarded> {
  res.writeHead(upstreamRes.statusCode, passed.flat());
  // The connection's socket: a pipelined request's response has none of its own until the answers
  // before it are done, and closes with nothing else to say that the client left.
  const client = req.socket;
  const collected: Buffer[] = [];
  let kept = 0;
  let received = 0;
  let clientLeft = false;
  try {
    for await (const chunk of upstreamRes.body) {
      const bytes = chunk as Buffer;
      received += bytes.length;
      if (kept <= ctx.keepBytes) {
        collected.push(bytes.subarray(0, ctx.keepBytes + 1 - kept));
        kept += bytes.length;
      }
      if (res.destroyed || client.destroyed) {
        clientLeft = true;
        break; // leaving the loop destroys the upstream's body
      }
      // A client that reads slowly holds the upstream back, through both connections' windows,
      // rather than the recorder holding what the client has not taken yet.
      if (!res.write(bytes)) await drainedOrGone(res, client);
    }
  } catch (error) {
    const failure = `the answer broke off after ${received} bytes (${failureText(error)})`;
    ctx.onWarning(`record: the upstream's answer to ${target.split('?')[0]}: ${failure}`);
    res.destroy();
    return { body: Buffer.concat(collected), cut: true, failure: `${failure}; the client's connection was aborted` };
  }
  if (clientLeft) {
    const failure = `the client went away after ${received} bytes of the answer`;
    ctx.onWarning(`record: the answer to ${target.split('?')[0]}: ${failure}`);
    return {
      body: Buffer.concat(collected),
      cut: true,
      failure: `${failure}; the rest was not read from the upstream`,
    };
  }
  res.end();
  return { body: Buffer.concat(collected), cut: false };
}

/** Resolves when `res` can take more, or the client's connection has closed. */
function drainedOrGone(res: ServerResponse, client: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      client.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
    client.on('close', done);
  });
}
