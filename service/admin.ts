/**
 * The service's database and accounts for the administration commands (`smskit account`,
 * `outbox`, `callbacks`), without what only a server needs: no delivery engine, callback sender,
 * metrics or wire handlers. Those bring SMPP, SMTP, HTTP and Prometheus code, megabytes of
 * JavaScript that every administration command would otherwise compile at start and never run.
 */
import { createAccounts, type Accounts } from './accounts/accounts.js';
import { DEFAULT_SCRYPT, type ScryptParams } from './accounts/passwords.js';
import { openStore, type Store } from './store/index.js';

export interface AdministrationOptions {
  /** A SQLite file path, or a postgres:// (postgresql://) connection string. */
  readonly dbPath: string;
  /** The cost of the password hashes `accounts.add` and `setPassword` make. */
  readonly scrypt?: ScryptParams;
}

export interface Administration {
  readonly store: Store;
  readonly accounts: Accounts;
  /** Commits what is queued and closes the database. */
  close(): Promise<void>;
}

export async function openAdministration(options: AdministrationOptions): Promise<Administration> {
  const store = await openStore({ db: options.dbPath });
  const accounts = createAccounts({ store, scrypt: options.scrypt ?? DEFAULT_SCRYPT });
  return { store, accounts, close: () => store.close() };
}
