/**
 * The read step of the bindings that have a body (SOAP, HTTP POST): read it, then hand it to the
 * binding's next step.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerUnexpected, writeBodyFailure } from './answers.js';
import type { BodyRead } from './body.js';
import type { ServerSetup } from './setup.js';

/**
 * Reads the request's body and gives it to `next`, the binding's next step: at once when the read
 * needs no waiting, else when the body has come. A read that fails is answered here (408, 413,
 * 400), and a client that went away gets nothing. Plain functions and one promise rather than an
 * async function: its frame, promise and await were about a sixth of a SOAP request's
 * allocations. Never throws; the promise returned never rejects as long as `next`'s does not
 * (the bindings' steps answer their own failures).
 */
export function withBody(
  setup: ServerSetup,
  req: IncomingMessage,
  res: ServerResponse,
  next: (body: Uint8Array) => void | Promise<void>,
): void | Promise<void> {
  try {
    const read = setup.bodies.read(req);
    if (!(read instanceof Promise)) return bodyThen(setup, res, read, next);
    return read.then(
      (arrived) => bodyThen(setup, res, arrived, next),
      (err: unknown) => answerUnexpected(setup, res, err),
    );
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}

function bodyThen(
  setup: ServerSetup,
  res: ServerResponse,
  read: BodyRead,
  next: (body: Uint8Array) => void | Promise<void>,
): void | Promise<void> {
  try {
    if (read === undefined) return; // the client went away
    if (read instanceof Uint8Array) return next(read);
    writeBodyFailure(res, read);
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}
