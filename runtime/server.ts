/**
 * The server: `createRequestListener(descriptor, handlers, options)` -> a node:http request
 * listener serving every binding of the descriptor at its port address.
 *
 * A request's walk (docs/development.md): server/pipeline.ts routes it, server/with-body.ts
 * reads its body, then the binding's steps decode, invoke the handler, encode and write
 * (server/serve-soap.ts, server/serve-http.ts).
 *
 * Status codes: 200 success; SOAP faults 500 in both versions (ASMX's convention, also for
 * SOAP 1.2 Sender faults); GET/POST errors 500 text/plain; 404 unknown path; 405 wrong method
 * (with Allow); 415 unsupported content type; 413 body over maxBodyBytes; 408 body too slow;
 * 400 invalid Content-Length; 403 HTTP GET/POST when `wsSecurity` requires a UsernameToken.
 * See docs/runtime.md, "Errors the server answers".
 * GET on the service address: the help pages and `?disco` (server/help/index.ts), `?wsdl`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ServiceDescriptor } from './descriptor.js';
import type { OperationHandler } from './server/context.js';
import type { ServerOptions } from './server/options.js';
import { handleRequest } from './server/pipeline.js';
import { compileServerSetup } from './server/setup.js';

export type { OperationHandler, RequestContext } from './server/context.js';
export type { Logger, ServerOptions } from './server/options.js';

/** Marks the listener with its options, so `listen` can apply the server-level timeouts. */
export const LISTENER_OPTIONS = Symbol.for('smskit.listenerOptions');

export type SmskitRequestListener = RequestListener & { [LISTENER_OPTIONS]: ServerOptions; close(): void };

export function createRequestListener(
  descriptor: ServiceDescriptor,
  handlers: Record<string, OperationHandler>,
  options: ServerOptions = {},
): SmskitRequestListener {
  const setup = compileServerSetup(descriptor, handlers, options);
  const listener = ((req: IncomingMessage, res: ServerResponse) =>
    handleRequest(setup, req, res)) as SmskitRequestListener;
  listener[LISTENER_OPTIONS] = options;
  listener.close = () => {}; // nothing to release today; kept so callers can treat listeners uniformly
  return listener;
}
