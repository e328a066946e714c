/**
 * The SMS service as wire handlers: `SMSSend` / `SMSSendToPort` for the generated server
 * skeleton. Only translation happens here:
 *
 * - success → `{ SMSSendResult: id }` / `{ SMSSendToPortResult: id }`;
 * - `SmsRefusal` → runtime `ServiceError(code, "<code>: <message>", { field })`, which the runtime
 *   writes as a SOAP Client/Sender fault (code and field also in the detail) or a GET/POST 500
 *   text/plain (code also in the X-Smskit-Error-Code header);
 * - `SmsUnavailable` is rethrown unchanged: the runtime answers a Server/Receiver fault (or a
 *   GET/POST 500) and logs its one-line message, which names the storage condition.
 */
import type { ServiceAPIHandlers } from '../generated/service-api/server.js';
import { ServiceError } from '../runtime/errors.js';
import { SmsRefusal } from './errors.js';
import type { SendRequest, SmsService } from './sms.js';

/** The SOAP wrapper content / GET-POST parameters of SMSSend (absent parameters are undefined). */
export interface SmsSendInput {
  readonly keyword?: string | null;
  readonly emailAddress?: string | null;
  readonly password?: string | null;
  readonly smsto?: string | null;
  readonly carrierCode?: string | null;
  readonly smsmsg?: string | null;
}

export interface SmsSendToPortInput extends SmsSendInput {
  readonly port?: string | null;
}

export interface HandlerContext {
  readonly remoteAddress?: string;
}

/** The service's handlers; they implement the generated skeleton's `ServiceAPIHandlers`. */
export interface SmsHandlers extends ServiceAPIHandlers {
  SMSSend(input: SmsSendInput, context: HandlerContext): Promise<{ SMSSendResult: string }>;
  SMSSendToPort(input: SmsSendToPortInput, context: HandlerContext): Promise<{ SMSSendToPortResult: string }>;
}

export function createSmsHandlers(sms: Pick<SmsService, 'send'>): SmsHandlers {
  async function send(request: SendRequest, context: HandlerContext): Promise<string> {
    try {
      return await sms.send(
        request,
        context.remoteAddress === undefined ? {} : { remoteAddress: context.remoteAddress },
      );
    } catch (error) {
      throw toWireError(error);
    }
  }
  return {
    async SMSSend(input, context) {
      const { keyword, emailAddress, password, smsto, carrierCode, smsmsg } = input;
      return { SMSSendResult: await send({ keyword, emailAddress, password, smsto, carrierCode, smsmsg }, context) };
    },
    async SMSSendToPort(input, context) {
      const { keyword, emailAddress, password, smsto, carrierCode, smsmsg } = input;
      // null, not undefined: an absent port is MissingParameter, never a silent SMSSend.
      const port = input.port ?? null;
      return {
        SMSSendToPortResult: await send({ keyword, emailAddress, password, smsto, carrierCode, smsmsg, port }, context),
      };
    },
  };
}

/** A refusal becomes the runtime's client fault; anything else passes unchanged. */
export function toWireError(error: unknown): unknown {
  if (!(error instanceof SmsRefusal)) return error;
  // The code leads the human text too, so a GET/POST client reading only the body (curl) and a
  // SOAP client reading only faultstring both see it (ASMX likewise leads with the exception type).
  return new ServiceError(
    error.code,
    `${error.code}: ${error.message}`,
    error.field === undefined ? undefined : { field: error.field },
  );
}
