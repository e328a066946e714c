/**
 * `Expect: 100-continue` answered only when the body is wanted (RFC 9110 §10.1.1): a client
 * that asks waits for `100 Continue` before it uploads, so a request its head alone refuses (an
 * unknown path, a method or media type not served there, a SOAPAction no operation has) gets its
 * final status at once and its body is never sent for nothing. The 100 goes when something
 * begins to read the body (a 'data' or 'readable' listener, or `resume()`: the body reader's, or
 * any other listener's own), so a request listener that is not smskit's still gets its body.
 *
 * An answer written before the 100 closes the connection (`Connection: close`, RFC 9110 §10.1.1
 * and RFC 9112 §9.6): a client told no may send the body anyway, or may not, and the server
 * cannot tell the next request's bytes from a body that never came. node:http does this itself
 * for a final status sent without a 100 to a request that expected one; once the 100 has gone,
 * the connection is kept alive as usual.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBody } from './body.js';

/** On `checkContinue`: the 100 waits for the first read of the body; a request with no body needs none. */
export function deferContinue(req: IncomingMessage, res: ServerResponse): void {
  if (!hasBody(req)) return;
  const sendContinue = (): void => {
    req.off('newListener', onNewListener);
    req.off('resume', sendContinue);
    // An answer already begun cannot be preceded by a 100: its body is not wanted.
    if (res.headersSent || res.destroyed) return;
    res.writeContinue();
  };
  const onNewListener = (event: string | symbol): void => {
    if (event === 'data' || event === 'readable') sendContinue();
  };
  req.on('newListener', onNewListener);
  // A listener that only drains the body (`req.resume()`, `pipeline` into a sink) adds neither.
  req.on('resume', sendContinue);
}
