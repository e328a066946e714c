/**
 * `GetMessageStatus`: the state of one message, for the account that sent it.
 *
 * The steps and their refusals, in this order (the same order and faults as SMSSend):
 * 1. emailAddress, password, messageId present and non-empty, else MissingParameter (its field);
 * 2. the account authenticates (`Accounts.authenticate`: AuthenticationFailed, TooManyAttempts,
 *    AccountDisabled, with the same lockout counters as SMSSend);
 * 3. messageId has the form the outbox gives ids (`SMS-` and 26 characters), else
 *    InvalidMessageId: no such id can exist, and the refusal tells a caller it mistyped it;
 * 4. the message exists and belongs to this account, else UnknownMessage. Another account's
 *    message, a message never sent and one deleted by retention get the same refusal, with the
 *    same text, after the same single read: an account cannot learn that another's id exists.
 *
 * Step 3 comes after authentication so that a caller without credentials learns nothing, not
 * even what an id looks like.
 */
import type { GetMessageStatus, MessageStatus } from '../../generated/status-api/types.js';
import type { Accounts } from '../accounts/accounts.js';
import { SmsRefusal } from '../errors.js';
import { toUnavailable } from '../send/sms.js';
import { MESSAGE_ID_PATTERN } from '../store/ids.js';
import type { Store, StoredMessage } from '../store/index.js';

export interface StatusServiceOptions {
  readonly store: Pick<Store, 'getMessage'>;
  readonly accounts: Pick<Accounts, 'authenticate'>;
}

/** A message's status as the contract answers it: the state and attempts always, the error when there is one. */
export type MessageStatusAnswer = MessageStatus & Required<Pick<MessageStatus, 'State'>>;

export interface StatusService {
  status(
    input: GetMessageStatus,
    context?: { readonly remoteAddress?: string | undefined },
  ): Promise<MessageStatusAnswer>;
}

/** The fields in the order they are checked; held to the generated type both ways. */
const STATUS_FIELDS: { readonly [F in keyof GetMessageStatus]-?: true } = {
  emailAddress: true,
  password: true,
  messageId: true,
};

export function createStatusService(options: StatusServiceOptions): StatusService {
  return {
    async status(input, context = {}) {
      const fields = requireStatusFields(input);
      const account = await toUnavailable(() =>
        options.accounts.authenticate(fields.emailAddress, fields.password, context.remoteAddress),
      );
      if (!MESSAGE_ID_PATTERN.test(fields.messageId))
        throw new SmsRefusal(
          'InvalidMessageId',
          'messageId is not a message id (SMS- and 26 letters and digits, as SMSSend returns it)',
          'messageId',
        );
      const message = await toUnavailable(() => options.store.getMessage(fields.messageId));
      if (message === undefined || message.account !== account.email)
        throw new SmsRefusal('UnknownMessage', 'this account sent no message with this messageId', 'messageId');
      return toMessageStatus(message);
    },
  };
}

function requireStatusFields(input: GetMessageStatus): Required<GetMessageStatus> {
  const given = input as Readonly<Record<string, string | null | undefined>>;
  for (const field of Object.keys(STATUS_FIELDS) as (keyof GetMessageStatus)[]) {
    const value = given[field];
    if (value === undefined || value === null || value === '')
      throw new SmsRefusal('MissingParameter', `${field} is required`, field);
  }
  return input as Required<GetMessageStatus>;
}

/** The stored message as the contract answers it; an absent error is left out, as ASMX leaves out a null string. */
export function toMessageStatus(message: StoredMessage): MessageStatusAnswer {
  return {
    State: message.state,
    Updated: new Date(message.updatedAt).toISOString(),
    Attempts: message.attempts,
    ...(message.errorCode === null ? {} : { ErrorCode: message.errorCode }),
    ...(message.errorText === null ? {} : { ErrorText: message.errorText }),
  };
}
