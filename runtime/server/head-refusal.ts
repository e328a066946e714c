/**
 * A SOAP request its head alone refuses, whatever its body: the SOAPAction (SOAP 1.1) or action
 * parameter (SOAP 1.2) names no operation of any SOAP binding at the address. The read step asks
 * before it reads, so such a request costs no body, and a client that sent `Expect:
 * 100-continue` is answered without uploading it (RFC 9110 §10.1.1).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ContentType } from '../content-type.js';
import { routeOperation } from '../soap/envelope.js';
import type { FaultSpec, SoapVersion } from '../soap-version/version.js';
import type { ServedAddress } from './routes.js';

/**
 * The fault when every SOAP binding here refuses the request's action, in the version the
 * Content-Type hints where that binding is served; undefined when some binding may still route
 * it (it names a known action, or none, and routes by the Body element). An envelope of a version
 * not served here is refused too (VersionMismatch), so the head decides.
 */
export function refusedSoapAction(
  route: ServedAddress,
  hinted: SoapVersion,
  headers: IncomingHttpHeaders,
  contentType: ContentType,
): { readonly version: SoapVersion; readonly fault: FaultSpec } | undefined {
  let refusal: { version: SoapVersion; fault: FaultSpec } | undefined;
  for (const endpoint of [route.soap11, route.soap12]) {
    if (endpoint === undefined) continue;
    const action = endpoint.version.requestAction(headers, contentType);
    if (action === undefined || endpoint.byAction.has(action)) return undefined;
    // Both versions refuse it: the fault is written in the one the Content-Type hints.
    if (refusal !== undefined && endpoint.version !== hinted) continue;
    const message = routeOperation(endpoint, action, undefined) as string;
    refusal = { version: endpoint.version, fault: { kind: 'client', message } };
  }
  return refusal;
}
