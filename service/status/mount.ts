/**
 * One HTTP server for both contracts: requests under the status service's path
 * (`/statusapi.asmx`, its `?wsdl`, help pages and `/statusapi.asmx/GetMessageStatus`) go to the
 * status listener, everything else to the SMS listener unchanged, so `/serviceapi.asmx` answers
 * byte for byte as it does alone. Paths compare case-insensitively, as ASMX's do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LISTENER_OPTIONS, type SmskitRequestListener } from '../../runtime/index.js';

/** The path the status contract's ports name (wsdl/statusapi.wsdl). */
export const STATUS_PATH = '/statusapi.asmx';

export function mountStatusListener(
  sms: SmskitRequestListener,
  status: SmskitRequestListener,
  path: string = STATUS_PATH,
): SmskitRequestListener {
  const prefix = path.toLowerCase();
  const listener = ((req: IncomingMessage, res: ServerResponse) => {
    const target = (req.url ?? '/').toLowerCase();
    const end = target.length > prefix.length ? target[prefix.length] : '';
    const isStatus = target.startsWith(prefix) && (end === '' || end === '/' || end === '?');
    (isStatus ? status : sms)(req, res);
  }) as SmskitRequestListener;
  // The SMS listener's options set the server's header and request timeouts (see runtime listen).
  listener[LISTENER_OPTIONS] = sms[LISTENER_OPTIONS];
  listener.close = () => {
    sms.close();
    status.close();
  };
  return listener;
}
