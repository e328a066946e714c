/**
 * A SOAP request, from its body to its answer, one step after the other: decode the envelope
 * (routing it to its operation), check the UsernameToken when the server verifies one, invoke
 * the handler, encode the response, write it. Each step returns what the next one needs, or the
 * fault to answer with instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Written } from '../codec/plain-writer.js';
import type { ContentType } from '../content-type.js';
import { answerUnexpected, writeAccepted, writeSoapFault, writeText } from './answers.js';
import { internalFault, requestFault } from './faults.js';
import { invokeHandler, type Invoked } from './invoke.js';
import type { ServedAddress } from './routes.js';
import type { ServerSetup } from './setup.js';
import type { VerifiedIdentity } from '../wsse/types.js';
import { writeSecurityFault } from '../wsse/fault.js';
import type { SoapDecoded } from '../soap/envelope.js';
import { encodeSoapResponse } from '../soap/response.js';
import type { FaultSpec, SoapVersion } from '../soap-version/version.js';

type Decoded = Extract<SoapDecoded, { ok: true }>;
type Refused = { readonly ok: false; readonly version: SoapVersion; readonly fault: FaultSpec };

/** A decoded request and who sent it (the identity a UsernameToken proved, with `wsSecurity`). */
type Accepted = { readonly ok: true; readonly decoded: Decoded; readonly identity: VerifiedIdentity | undefined };

/**
 * The steps after the body has come (the read step, with-body.ts, hands it over): decode (verify
 * first with `wsSecurity`), invoke, answer.
 */
export function serveSoap(
  setup: ServerSetup,
  route: ServedAddress,
  hinted: SoapVersion,
  contentType: ContentType,
  req: IncomingMessage,
  res: ServerResponse,
  body: Uint8Array,
): void | Promise<void> {
  if (setup.wsSecurity === undefined)
    return invokeAccepted(setup, decodeRequest(setup, route, hinted, contentType, req, body), req, res);
  return verifyThenDecode(setup, route, hinted, contentType, req, res, body).then(
    (accepted) => (accepted === undefined ? undefined : invokeAccepted(setup, accepted, req, res)),
    (err: unknown) => answerUnexpected(setup, res, err),
  );
}

/** Invoke the handler for an accepted request and answer with what it gives (or the refusal's fault); never throws. */
function invokeAccepted(
  setup: ServerSetup,
  accepted: Accepted | Refused,
  req: IncomingMessage,
  res: ServerResponse,
): void | Promise<void> {
  try {
    if (!accepted.ok) return writeSoapFault(res, accepted.version, accepted.fault);
    const { decoded, identity } = accepted;
    const call = {
      op: decoded.op,
      binding: decoded.version.protocol,
      input: decoded.input,
      soapHeaders: decoded.soapHeaders,
      identity,
    };
    const invoked = invokeHandler(setup, call, req, res);
    if (!(invoked instanceof Promise)) return writeOutcome(setup, decoded, invoked, res);
    return invoked.then(
      (outcome) => writeOutcome(setup, decoded, outcome, res),
      (err: unknown) => answerUnexpected(setup, res, err),
    );
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}

/** Encode and write what the handler gave (nothing when the client went away); never throws. */
function writeOutcome(setup: ServerSetup, decoded: Decoded, outcome: Invoked, res: ServerResponse): void {
  try {
    if (res.destroyed) return;
    const { version } = decoded;
    if (decoded.op.oneWay === true) return answerOneWay(setup, decoded, outcome, res);
    if ('fault' in outcome) return writeSoapFault(res, version, outcome.fault);
    const encoded = encodeResponse(setup, decoded, outcome);
    if ('text' in encoded) writeText(res, 200, version.contentType, encoded.text, encoded.bytes);
    else writeSoapFault(res, version, encoded);
  } catch (err) {
    answerUnexpected(setup, res, err);
  }
}

/**
 * A one-way operation is answered 202 once its handler has settled, and a handler's refusal
 * cannot reach the client (WS-I BP R2714 forbids the envelope; R2727: a 2xx says the message
 * arrived, not that it was processed): it is logged by its class and code or fault name, as
 * unexpected failures already are. A request that cannot be read or routed still gets its
 * fault, as JAX-WS answers an unreadable one (a deliberate deviation from R2714: the sender
 * learns that nothing was delivered).
 */
function answerOneWay(setup: ServerSetup, decoded: Decoded, outcome: Invoked, res: ServerResponse): void {
  if ('fault' in outcome && outcome.refusal !== undefined) {
    setup.logger.error(
      `${decoded.op.name} (${decoded.version.protocol}): the handler refused a one-way call (${outcome.refusal}); answered 202 all the same, a one-way operation has no fault to send`,
    );
  }
  writeAccepted(res);
}

/** The fault for a request that could not be read or decoded, in the version it is answered in. */
function unreadable(setup: ServerSetup, version: SoapVersion, err: unknown): Refused {
  return { ok: false, version, fault: requestFault(setup.logger, err, 'SOAP request') };
}

function decodeRequest(
  setup: ServerSetup,
  route: ServedAddress,
  hinted: SoapVersion,
  contentType: ContentType,
  req: IncomingMessage,
  body: Uint8Array,
): Accepted | Refused {
  try {
    const decoded = setup.soapRequests.decode(route, hinted, req.headers, contentType, body);
    return decoded.ok ? { ok: true, decoded, identity: undefined } : decoded;
  } catch (err) {
    return unreadable(setup, hinted, err);
  }
}

/**
 * The UsernameToken check first, then the Body is decoded: an unauthenticated caller costs no
 * Body decode and learns nothing from a codec fault. The WSS fault says which check failed,
 * never with what; it is written here (undefined: answered already, or the client went away).
 */
async function verifyThenDecode(
  setup: ServerSetup,
  route: ServedAddress,
  hinted: SoapVersion,
  contentType: ContentType,
  req: IncomingMessage,
  res: ServerResponse,
  body: Uint8Array,
): Promise<Accepted | Refused | undefined> {
  let routed: ReturnType<typeof setup.soapRequests.route>;
  try {
    routed = setup.soapRequests.route(route, hinted, req.headers, contentType, body);
  } catch (err) {
    return unreadable(setup, hinted, err);
  }
  if (!routed.ok) return routed;
  const { version, op } = routed;
  let outcome: Awaited<ReturnType<NonNullable<ServerSetup['wsSecurity']>['verify']>>;
  try {
    outcome = await setup.wsSecurity!.verify(routed.securityHeaders ?? []);
  } catch (err) {
    const fault = internalFault(setup.logger, err, op, version.protocol, 'wsSecurity.passwordOf');
    return { ok: false, version, fault };
  }
  if (res.destroyed) return undefined;
  if (!outcome.ok) {
    writeText(res, 500, version.contentType, writeSecurityFault(version, outcome.fault));
    return undefined;
  }
  try {
    return { ok: true, decoded: routed.decodeInput(), identity: outcome.identity };
  } catch (err) {
    return unreadable(setup, version, err);
  }
}

function encodeResponse(
  setup: ServerSetup,
  decoded: Decoded,
  outcome: Extract<Invoked, { output: unknown }>,
): Written | FaultSpec {
  const { version, op } = decoded;
  try {
    return encodeSoapResponse(setup.d, version, op, outcome.output, outcome.responseHeaders, decoded.mustUnderstand);
  } catch (err) {
    return internalFault(setup.logger, err, op, version.protocol, 'encoding the response');
  }
}
