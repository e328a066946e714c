/**
 * Calling a handler: its output, or the fault it ends in. A handler that returns a plain value
 * is answered without a promise; one that returns a promise is awaited. A ServiceError becomes
 * a Client fault the handler chose, a DeclaredFault the operation's declared fault (faults.ts);
 * anything else is logged and answered as a Server fault.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationDescriptor, Protocol } from '../descriptor.js';
import { DeclaredFault, ServiceError } from '../errors.js';
import type { FaultSpec } from '../soap-version/version.js';
import type { VerifiedIdentity } from '../wsse/types.js';
import { CallContext } from './context.js';
import { declaredFault, GENERIC_SERVER_FAULT, internalFault, serviceFault } from './faults.js';
import type { ServerSetup } from './setup.js';

export type Invoked =
  | { readonly output: unknown; readonly responseHeaders: Record<string, unknown> | undefined }
  /** `refusal`: the handler's own refusal (its class and code or fault name), for the log of a one-way call. */
  | { readonly fault: FaultSpec; readonly refusal?: string };

/** What one call needs besides the server's setup. */
export interface Call {
  readonly op: OperationDescriptor;
  readonly binding: Protocol;
  readonly input: unknown;
  readonly soapHeaders: Record<string, unknown>;
  readonly identity: VerifiedIdentity | undefined;
}

export function invokeHandler(
  setup: ServerSetup,
  call: Call,
  req: IncomingMessage,
  res: ServerResponse,
): Invoked | Promise<Invoked> {
  const handler = setup.handlers.get(call.op.method)!;
  const context = new CallContext(call.binding, call.op.name, req, res, call.soapHeaders, call.identity);
  let result: unknown;
  try {
    result = handler(call.input, context);
  } catch (err) {
    return handlerFailure(setup, call, err, res);
  }
  if (!isThenable(result)) return { output: result, responseHeaders: context.setHeaders };
  return Promise.resolve(result).then(
    (output): Invoked => ({ output, responseHeaders: context.setHeaders }),
    (err: unknown): Invoked => handlerFailure(setup, call, err, res),
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function')
  );
}

/**
 * The fault a handler's error becomes; nothing is logged for a client that already went away. A
 * one-way operation sends no fault at all: its handler's refusal is only named for the log.
 */
function handlerFailure(setup: ServerSetup, call: Call, err: unknown, res: ServerResponse): Invoked {
  if (res.destroyed) return { fault: GENERIC_SERVER_FAULT };
  if (call.op.oneWay === true && (err instanceof ServiceError || err instanceof DeclaredFault))
    return {
      fault: GENERIC_SERVER_FAULT,
      refusal: `${err.name} ${err instanceof ServiceError ? err.code : err.faultName}`,
    };
  if (err instanceof ServiceError) return { fault: serviceFault(setup.d, err) };
  if (err instanceof DeclaredFault) return { fault: declaredFault(setup.logger, setup.d, call.op, call.binding, err) };
  return { fault: internalFault(setup.logger, err, call.op, call.binding, 'the handler') };
}
