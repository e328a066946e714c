/**
 * The status service as wire handlers for the generated `StatusAPI` skeleton: success becomes
 * `{ GetMessageStatusResult }`, a refusal the same Client/Sender fault (or GET/POST 500) as
 * SMSSend's through the SMS handlers' `toWireError`, and a storage failure passes on to become a
 * Server/Receiver fault, as it does for SMSSend.
 */
import type { StatusAPIHandlers } from '../../generated/status-api/server.js';
import type { GetMessageStatus, GetMessageStatusResponse } from '../../generated/status-api/types.js';
import { SmsRefusal, SmsUnavailable } from '../errors.js';
import { type SmsRequestContext, toWireError } from '../handlers.js';
import type { MessageStatusAnswer, StatusService } from './status.js';

/** The status handlers: the generated skeleton's, always answering with a status. */
export interface StatusHandlers extends StatusAPIHandlers {
  GetMessageStatus(
    input: GetMessageStatus,
    context: SmsRequestContext,
  ): Promise<Required<GetMessageStatusResponse> & { GetMessageStatusResult: MessageStatusAnswer }>;
}

/** Told of every answer, for the metrics (the operation is always GetMessageStatus). */
export interface StatusHooks {
  answered?(binding: string, outcome: 'accepted' | 'refused' | 'unavailable' | 'error', code?: string): void;
}

export function createStatusHandlers(service: Pick<StatusService, 'status'>, hooks: StatusHooks = {}): StatusHandlers {
  return {
    async GetMessageStatus(input, context) {
      const binding = context.binding ?? 'unknown';
      try {
        const status = await service.status(input, { remoteAddress: context.remoteAddress });
        hooks.answered?.(binding, 'accepted');
        return { GetMessageStatusResult: status };
      } catch (error) {
        if (error instanceof SmsRefusal) hooks.answered?.(binding, 'refused', error.code);
        else if (error instanceof SmsUnavailable) hooks.answered?.(binding, 'unavailable');
        else hooks.answered?.(binding, 'error');
        throw toWireError(error);
      }
    },
  };
}
