/**
 * The two operations, independent of the wire: SMSSend and SMSSendToPort are both `send`, the
 * latter with `port`.
 *
 * Validation order (the first failing step answers; see docs/service.md for every code):
 *   1. missing parameters (null/undefined; "" counts as missing except for smsmsg)
 *   2. authentication (TooManyAttempts, AuthenticationFailed, AccountDisabled)
 *   3. keyword (InvalidKeyword, KeywordNotAllowed)
 *   4. recipient (InvalidRecipient)
 *   5. carrier (UnknownCarrier)
 *   6. port (InvalidPort) — before the message, because the port changes the segment sizes
 *   7. message (EmptyMessage, InvalidMessage, MessageTooLong)
 * Then the message is committed to the outbox and its id returned. Nothing is stored for a
 * refused request; a storage failure is `SmsUnavailable`.
 */
import type { SMSSend, SMSSendToPort } from '../../generated/service-api/types.js';
import type { Accounts } from '../accounts/accounts.js';
import { resolveCarrier, type CarrierTable } from '../delivery/carriers.js';
import { SmsRefusal, SmsUnavailable, StorageError, type SmsField } from '../errors.js';
import { checkKeyword } from '../accounts/keyword.js';
import { normalizePhone, type PhoneOptions } from './phone.js';
import { parsePort } from './port.js';
import { checkMessage, DEFAULT_MAX_SEGMENTS } from '../sms/segments.js';
import type { AccountRow, Store } from '../store/index.js';

/** Each field of an operation's input as a caller may give it: absent, null (nil) or a value. */
export type Given<Input> = { readonly [F in keyof Input]?: Input[F] | null | undefined };

/** One send: the operation and its input, with the fields the generated contract types declare. */
export type SendRequest =
  | { readonly operation: 'SMSSend'; readonly input: Given<SMSSend> }
  | { readonly operation: 'SMSSendToPort'; readonly input: Given<SMSSendToPort> };

export interface SendContext {
  readonly remoteAddress?: string | undefined;
  /**
   * Told how the message was stored once it is committed: `queued` (it will be delivered) or
   * `test` (a test account's: never delivered). The wire handlers pass it on as a header.
   */
  readonly onStored?: (state: 'queued' | 'test') => void;
}

export interface SmsLimits extends PhoneOptions {
  readonly maxSegments: number;
}

export const DEFAULT_SMS_LIMITS: SmsLimits = { maxSegments: DEFAULT_MAX_SEGMENTS };

export interface SmsServiceOptions {
  readonly store: Pick<Store, 'enqueue' | 'getAccount'>;
  readonly accounts: Pick<Accounts, 'authenticate'>;
  readonly carriers: CarrierTable;
  readonly limits?: Partial<SmsLimits>;
}

export interface SmsService {
  /** Resolves with the message id once the message is committed to the outbox. */
  send(request: SendRequest, context?: SendContext): Promise<string>;
}

/**
 * When a field counts as missing (step 1): absent or null always; `''` too, except for the
 * message, where an empty text is refused as EmptyMessage (step 7), which says more.
 */
type Presence = 'non-empty' | 'present';

/**
 * Every input field of each operation, in the order they are checked. The keys are held to the
 * generated types both ways: a field added to the WSDL does not compile until it is listed here.
 */
const SMS_SEND_FIELDS: { readonly [F in keyof SMSSend]-?: Presence } = {
  keyword: 'non-empty',
  emailAddress: 'non-empty',
  password: 'non-empty',
  smsto: 'non-empty',
  carrierCode: 'non-empty',
  smsmsg: 'present',
};
const REQUIRED: { readonly [O in SendRequest['operation']]: Readonly<Partial<Record<SmsField, Presence>>> } = {
  SMSSend: SMS_SEND_FIELDS,
  SMSSendToPort: { ...SMS_SEND_FIELDS, port: 'non-empty' } satisfies {
    readonly [F in keyof SMSSendToPort]-?: Presence;
  },
};

export function createSmsService(options: SmsServiceOptions): SmsService {
  const limits: SmsLimits = { ...DEFAULT_SMS_LIMITS, ...options.limits };
  return {
    async send(request, context = {}) {
      const fields = requireFields(request);
      const account = await toUnavailable(() =>
        options.accounts.authenticate(fields.emailAddress, fields.password, context.remoteAddress),
      );
      const keyword = await allowedKeyword(options.store, fields.keyword, account);
      const smsto = normalizePhone(fields.smsto, limits);
      const carrierCode = resolveCarrier(options.carriers, fields.carrierCode);
      const port = fields.port === undefined ? null : parsePort(fields.port);
      const { encoding, segments } = checkMessage(fields.smsmsg, port !== null, limits);
      const message = {
        account: account.email,
        keyword,
        smsto,
        carrierCode,
        encoding,
        segments,
        port,
        smsmsg: fields.smsmsg,
      };
      // A test account's message is validated and answered like any other, but never delivered.
      const state = account.test === true ? 'test' : 'queued';
      const { id } = await toUnavailable(() => options.store.enqueue(message, state));
      context.onStored?.(state);
      return id;
    },
  };
}

/**
 * The keyword, canonical, if the account has it. A refusal is checked again on the row read now:
 * the row authentication gave may be kept a moment behind a keyword another process just added.
 */
async function allowedKeyword(store: Pick<Store, 'getAccount'>, given: string, account: AccountRow): Promise<string> {
  try {
    return checkKeyword(given, account.keywords);
  } catch (error) {
    if (!(error instanceof SmsRefusal) || error.code !== 'KeywordNotAllowed') throw error;
    const current = await toUnavailable(() => store.getAccount(account.email, { fresh: true }));
    if (current === undefined || current.keywords.join(' ') === account.keywords.join(' ')) throw error;
    return checkKeyword(given, current.keywords);
  }
}

/** The fields once present: SMSSend's, and the port for SMSSendToPort. */
type Fields = { readonly [F in keyof SMSSend]-?: string } & { readonly port?: string };

function requireFields(request: SendRequest): Fields {
  const given: Readonly<Record<string, string | null | undefined>> = request.input;
  const fields: Record<string, string> = {};
  for (const [field, presence] of Object.entries(REQUIRED[request.operation]) as Array<[SmsField, Presence]>) {
    const value = given[field];
    const missing = value === undefined || value === null || (value === '' && presence === 'non-empty');
    if (missing) throw new SmsRefusal('MissingParameter', `${field} is required`, field);
    fields[field] = value;
  }
  return fields as Fields;
}

/** Storage failures become `SmsUnavailable`; refusals and other errors pass unchanged (GetMessageStatus too). */
export async function toUnavailable<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StorageError) throw new SmsUnavailable(error);
    throw error;
  }
}
