/**
 * The service layer's errors. Two kinds, kept apart on purpose:
 *
 * - `SmsRefusal`: the request is wrong (bad credentials, bad field, limits). The client can fix it;
 *   the wire layer maps it to a SOAP Client/Sender fault or a GET/POST 500 text/plain.
 * - `SmsUnavailable`: the service could not do its part (storage full, read-only, locked,
 *   corrupt, closed). Nothing was acknowledged; the wire layer maps it to a Server/Receiver fault.
 *
 * Messages are one line, never contain the password, and never echo raw input (so a hostile value
 * cannot forge log lines or faults).
 */
import type { SMSSend, SMSSendToPort } from '../generated/service-api/types.js';
import type { GetMessageStatus } from '../generated/status-api/types.js';

/** Stable refusal codes; documented in docs/service.md. Never rename one. */
export type RefusalCode =
  | 'MissingParameter'
  | 'AuthenticationFailed'
  | 'TooManyAttempts'
  | 'AccountDisabled'
  | 'InvalidKeyword'
  | 'KeywordNotAllowed'
  | 'InvalidRecipient'
  | 'UnknownCarrier'
  | 'EmptyMessage'
  | 'InvalidMessage'
  | 'MessageTooLong'
  | 'InvalidPort'
  /** GetMessageStatus: the messageId cannot be an id the outbox gave. */
  | 'InvalidMessageId'
  /** GetMessageStatus: no message with this id was sent by this account (or it was deleted). */
  | 'UnknownMessage';

/** The request field a refusal is about: a wire parameter of an operation, as its WSDL names it. */
export type SmsField = keyof SMSSend | keyof SMSSendToPort | keyof GetMessageStatus;

export class SmsRefusal extends Error {
  override readonly name = 'SmsRefusal';
  readonly code: RefusalCode;
  readonly field: SmsField | undefined;

  constructor(code: RefusalCode, message: string, field?: SmsField) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

/** Why storage failed; `StorageError` is anything not classified more precisely. */
export type StorageCode =
  | 'StorageFull'
  | 'StorageReadOnly'
  | 'StorageLocked'
  | 'StorageCorrupt'
  | 'StorageClosed'
  /** A database server that cannot be reached (down, restarting, network); retried by itself. */
  | 'StorageUnreachable'
  | 'StorageError';

/** A storage failure: nothing in the failed batch was committed. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: StorageCode;
  /** The driver's own code (e.g. SQLITE_FULL), for the log line. */
  readonly driverCode: string | undefined;

  constructor(code: StorageCode, message: string, driverCode?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.driverCode = driverCode;
  }
}

/** The service could not accept the message; the client may retry later. */
export class SmsUnavailable extends Error {
  override readonly name = 'SmsUnavailable';
  readonly code = 'ServiceUnavailable' as const;
  /** The storage condition behind it (StorageFull, StorageLocked, ...). */
  readonly reason: StorageCode;

  constructor(cause: StorageError) {
    const driver = cause.driverCode === undefined ? '' : `, ${cause.driverCode}`;
    super(`the message could not be stored (${cause.code}${driver}); nothing was sent, try again later`, { cause });
    this.reason = cause.code;
  }
}
