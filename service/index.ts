/**
 * The SMS service's public surface, for bin/ (serve, account, outbox, send) and tests.
 * See docs/service.md for the contract.
 */
export { openSmsApp, checkSmsAppOptions, type SmsApp, type SmsAppOptions } from './app.js';
export { startSmsServer, type SmsServer, type SmsServerOptions } from './server.js';
export { createSmsService, type SmsService, type SendRequest, type SendContext, type SmsLimits } from './send/sms.js';
export { createSmsHandlers, toWireError, type SmsHandlers } from './handlers.js';
export {
  createAccounts,
  AccountError,
  DEFAULT_AUTH_LIMITS,
  type Accounts,
  type AccountSummary,
  type AuthLimits,
} from './accounts/accounts.js';
export {
  createCarrierTable,
  loadCarrierTable,
  DEFAULT_CARRIERS,
  AUTO_CARRIER,
  type CarrierTable,
} from './delivery/carriers.js';
export { openStore, type Store, type StoredMessage, type NewMessage } from './store/index.js';
export { outboxEntries, formatOutboxTable, formatOutboxJson, type OutboxEntry } from './outbox/report.js';
export {
  SmsRefusal,
  SmsUnavailable,
  StorageError,
  type RefusalCode,
  type StorageCode,
  type SmsField,
} from './errors.js';
export { MESSAGE_ID_PATTERN } from './store/ids.js';
export { DEFAULT_SCRYPT, type ScryptParams } from './accounts/passwords.js';
export { DEFAULT_MAX_SEGMENTS, segmentCapacity, splitIntoSegments } from './sms/segments.js';
