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
import type { SMSSend, SMSSendResponse, SMSSendToPort, SMSSendToPortResponse } from '../generated/service-api/types.js';
import { ServiceError } from '../runtime/errors.js';
import type { RequestContext } from '../runtime/index.js';
import { SmsRefusal, SmsUnavailable } from './errors.js';
import type { SendRequest, SmsService } from './send/sms.js';

/** What the SMS handlers read of the runtime's `RequestContext` (named apart from the runtime's own class). */
export type SmsRequestContext = Pick<RequestContext, 'remoteAddress'> &
  Partial<Pick<RequestContext, 'setHttpHeader' | 'binding'>>;

/** Told of every answer, for the metrics. */
export interface HandlerHooks {
  answered?(
    operation: SendRequest['operation'],
    binding: string,
    outcome: 'accepted' | 'refused' | 'unavailable' | 'error',
    code?: string,
  ): void;
  stored?(state: 'queued' | 'test'): void;
}

/**
 * The header that tells a client, beside the contract's answer, whether the message it just got
 * an id for will be delivered (`queued`) or was a test account's (`test`): `smskit conformance
 * --target` reads it to remind users that a run against a live service sends real messages.
 */
export const DELIVERY_HEADER = 'X-Smskit-Delivery';

/** The service's handlers: the generated skeleton's `ServiceAPIHandlers`, always answering with an id. */
export interface SmsHandlers extends ServiceAPIHandlers {
  SMSSend(input: SMSSend, context: SmsRequestContext): Promise<Required<SMSSendResponse>>;
  SMSSendToPort(input: SMSSendToPort, context: SmsRequestContext): Promise<Required<SMSSendToPortResponse>>;
}

export function createSmsHandlers(sms: Pick<SmsService, 'send'>, hooks: HandlerHooks = {}): SmsHandlers {
  async function send(request: SendRequest, context: SmsRequestContext): Promise<string> {
    const binding = context.binding ?? 'unknown';
    try {
      const id = await sms.send(request, {
        remoteAddress: context.remoteAddress,
        onStored: (state) => {
          context.setHttpHeader?.(DELIVERY_HEADER, state);
          hooks.stored?.(state);
        },
      });
      hooks.answered?.(request.operation, binding, 'accepted');
      return id;
    } catch (error) {
      if (error instanceof SmsRefusal) hooks.answered?.(request.operation, binding, 'refused', error.code);
      else if (error instanceof SmsUnavailable) hooks.answered?.(request.operation, binding, 'unavailable');
      else hooks.answered?.(request.operation, binding, 'error');
      throw toWireError(error);
    }
  }
  return {
    // The input goes on whole, with its operation: an SMSSendToPort without a port is
    // MissingParameter, never a silent SMSSend.
    async SMSSend(input, context) {
      return { SMSSendResult: await send({ operation: 'SMSSend', input }, context) };
    },
    async SMSSendToPort(input, context) {
      return { SMSSendToPortResult: await send({ operation: 'SMSSendToPort', input }, context) };
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
