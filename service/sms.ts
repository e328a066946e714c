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
import type { Accounts } from './accounts.js';
import { resolveCarrier, type CarrierTable } from './carriers.js';
import { SmsRefusal, SmsUnavailable, StorageError, type SmsField } from './errors.js';
import { checkKeyword } from './keyword.js';
import { normalizePhone, type PhoneOptions } from './phone.js';
import { parsePort } from './port.js';
import { checkMessage, DEFAULT_MAX_SEGMENTS } from './segments.js';
import type { Store } from './store.js';

export interface SendRequest {
  readonly keyword?: string | null;
  readonly emailAddress?: string | null;
  readonly password?: string | null;
  readonly smsto?: string | null;
  readonly carrierCode?: string | null;
  readonly smsmsg?: string | null;
  /** SMSSendToPort passes its port (`null` when absent → MissingParameter); `undefined` means SMSSend. */
  readonly port?: string | null;
}

export interface SendContext {
  readonly remoteAddress?: string;
}

export interface SmsLimits extends PhoneOptions {
  readonly maxSegments: number;
}

export const DEFAULT_SMS_LIMITS: SmsLimits = { maxSegments: DEFAULT_MAX_SEGMENTS };

export interface SmsServiceOptions {
  readonly store: Pick<Store, 'enqueue'>;
  readonly accounts: Pick<Accounts, 'authenticate'>;
  readonly carriers: CarrierTable;
  readonly limits?: Partial<SmsLimits>;
}

export interface SmsService {
  /** Resolves with the message id once the message is committed to the outbox. */
  send(request: SendRequest, context?: SendContext): Promise<string>;
}

const REQUIRED: readonly SmsField[] = ['keyword', 'emailAddress', 'password', 'smsto', 'carrierCode', 'smsmsg'];

export function createSmsService(options: SmsServiceOptions): SmsService {
  const limits: SmsLimits = { ...DEFAULT_SMS_LIMITS, ...options.limits };
  return {
    async send(request, context = {}) {
      const fields = requireFields(request);
      const account = await toUnavailable(() =>
        options.accounts.authenticate(fields.emailAddress, fields.password, context.remoteAddress),
      );
      const keyword = checkKeyword(fields.keyword, account.keywords);
      const recipient = normalizePhone(fields.smsto, limits);
      const carrier = resolveCarrier(options.carriers, fields.carrierCode);
      const port = fields.port === undefined ? null : parsePort(fields.port);
      const { encoding, segments } = checkMessage(fields.smsmsg, port !== null, limits);
      const message = {
        account: account.email,
        keyword,
        recipient,
        carrier,
        encoding,
        segments,
        port,
        text: fields.smsmsg,
      };
      const { id } = await toUnavailable(() => options.store.enqueue(message));
      return id;
    },
  };
}

type Fields = Record<Exclude<SmsField, 'port'>, string> & { port?: string };

function requireFields(request: SendRequest): Fields {
  const wanted = request.port === undefined ? REQUIRED : [...REQUIRED, 'port' as const];
  const fields: Partial<Record<SmsField, string>> = {};
  for (const field of wanted) {
    const value = request[field];
    const missing = value === undefined || value === null || (value === '' && field !== 'smsmsg');
    if (missing) throw new SmsRefusal('MissingParameter', `${field} is required`, field);
    fields[field] = value;
  }
  return fields as Fields;
}

/** Storage failures become `SmsUnavailable`; refusals and other errors pass unchanged. */
async function toUnavailable<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StorageError) throw new SmsUnavailable(error);
    throw error;
  }
}
