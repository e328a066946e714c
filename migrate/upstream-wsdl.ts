/**
 * The secret field names the upstream's own WSDL declares, read once when the recorder starts.
 * It is read as any answer is (asked uncompressed, decoded when compressed anyway, bounded):
 * a name missed here is a password written to the recording, so a WSDL that cannot be read is
 * said, never passed over in silence.
 */
import type { Dispatcher } from 'undici';
import { decodedBody, IDENTITY_ONLY } from './content-coding.js';
import { secretFieldsOfWsdl } from './redact.js';
import { failureText, MAX_WSDL_BYTES, readUpstreamBody, responseHeaderList } from './upstream-body.js';

export interface UpstreamSecrets {
  readonly fields: readonly string[];
  /** Why the WSDL gave no names though the upstream answered 200 (or did not answer): one line. */
  readonly warning?: string;
}

/** The secret names of `upstream`'s `?wsdl`; none (quietly) when the upstream serves no WSDL there (404). */
export async function upstreamSecretFields(dispatcher: Dispatcher, upstream: URL): Promise<UpstreamSecrets> {
  if (upstream.pathname === '/' || upstream.pathname === '') return { fields: [] };
  const path = `${upstream.pathname}?wsdl`;
  const unread = (why: string): UpstreamSecrets => ({
    fields: [],
    warning: `could not read the upstream's WSDL (${path}): ${why}; secret names come from the built-in rule alone`,
  });
  let res: Dispatcher.ResponseData;
  try {
    res = await dispatcher.request({
      origin: upstream.origin,
      path,
      method: 'GET',
      headers: { host: upstream.host, 'accept-encoding': IDENTITY_ONLY },
    });
  } catch (error) {
    return unread(`the upstream did not answer (${failureText(error)})`);
  }
  if (res.statusCode !== 200) {
    await res.body.dump().catch(() => undefined);
    // 404: no WSDL served there, nothing to say. Any other status (401, 403, 500) is one that
    // hides a WSDL the names should have come from.
    return res.statusCode === 404 ? { fields: [] } : unread(`the upstream answered ${res.statusCode}`);
  }
  const read = await readUpstreamBody(res.body, MAX_WSDL_BYTES);
  if (read.failure !== undefined) return unread(read.failure);
  const decoded = decodedBody(responseHeaderList(res.headers), read.bytes);
  if (decoded === undefined) return unread('its Content-Encoding could not be decoded');
  return { fields: secretFieldsOfWsdl(decoded.body.toString('utf8')) };
}
