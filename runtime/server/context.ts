/**
 * What a handler gets besides its input: the request's binding, headers and identity, the SOAP
 * headers to send back, and a signal for a client that went away. `CallContext` is the one the
 * server builds per call; the AbortSignal is made only when a handler asks for it.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Protocol } from '../descriptor.js';
import type { VerifiedIdentity } from '../wsse/types.js';

export interface RequestContext<InHeaders = Record<string, unknown>, OutHeaders = Record<string, unknown>> {
  readonly binding: Protocol;
  /** The operation's WSDL name. */
  readonly operation: string;
  readonly remoteAddress?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** Declared SOAP header blocks of the request, by property name ({} over HTTP GET/POST). */
  readonly soapHeaders: InHeaders;
  /**
   * SOAP header blocks for the response, by the operation's output header property names: the
   * handler sets them, the server writes the set ones in the response's Header. A property that
   * is not a declared output header is a handler bug (a Server fault, logged). HTTP GET/POST
   * have no headers: there they are checked the same way but not sent, as ASMX does.
   */
  readonly responseSoapHeaders: Partial<OutHeaders>;
  /**
   * Adds an HTTP header to the answer, on every binding: an out-of-band hint beside the contract
   * (e.g. the SMS service's `X-Smskit-Delivery`). Only `X-` extension names; the body's headers
   * (Content-Type, Content-Length) stay the server's.
   */
  setHttpHeader(name: string, value: string): void;
  /** Aborted when the client goes away before the response is sent. */
  readonly signal: AbortSignal;
  /**
   * Who the request's WS-Security UsernameToken proved the caller to be (`ServerOptions.wsSecurity`
   * verified it before the handler was called); undefined when the server checks no tokens, or
   * when the token is optional and the request had none.
   */
  readonly identity: VerifiedIdentity | undefined;
}

/**
 * A handler gets the decoded input and returns the output (or a promise of it). The input and
 * the context's header types are `any` here because generated code narrows them per operation
 * (`(input: SMSSend, context: RequestContext<AuthIn, TraceOut>) => ...`), which `unknown` would
 * not accept under strictFunctionTypes.
 */
// biome-ignore lint/suspicious/noExplicitAny: generated handlers narrow input and context per operation (see above)
export type OperationHandler = (input: any, context: RequestContext<any, any>) => unknown;

const EXTENSION_HEADER = /^X-[A-Za-z0-9-]{1,60}$/;
const PRINTABLE_VALUE = /^[\x20-\x7e]{0,200}$/;

export class CallContext implements RequestContext {
  /**
   * Read when the call starts: once the client has gone the socket no longer knows it, and a
   * handler may ask after an await (per-address lockouts depend on it).
   */
  readonly remoteAddress: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** The response header object, made when a handler first asks for it (most never do). */
  setHeaders: Record<string, unknown> | undefined;
  private controller: AbortController | undefined;

  constructor(
    readonly binding: Protocol,
    readonly operation: string,
    req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly soapHeaders: Record<string, unknown>,
    readonly identity: VerifiedIdentity | undefined,
  ) {
    this.remoteAddress = req.socket.remoteAddress;
    this.headers = req.headers;
  }

  get responseSoapHeaders(): Record<string, unknown> {
    return (this.setHeaders ??= {});
  }

  setHttpHeader(name: string, value: string): void {
    if (!EXTENSION_HEADER.test(name) || !PRINTABLE_VALUE.test(value))
      throw new TypeError(`setHttpHeader: "${name}" must be an X- header name with a printable ASCII value`);
    if (!this.res.headersSent) this.res.setHeader(name, value);
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      const res = this.res;
      if (res.destroyed) controller.abort();
      else
        res.once('close', () => {
          if (!res.writableFinished) controller.abort();
        });
    }
    return this.controller.signal;
  }
}
