/**
 * The PostgreSQL schema, as migrations: entry i takes a database from version i to i + 1 and is
 * recorded in `schema_migrations`. Append only; never edit one that has shipped. The tables mean
 * what the SQLite ones mean (../sqlite/migrations.ts): same columns, times in ms since the epoch,
 * keywords space separated; flags are booleans here.
 *
 * Migrating takes an advisory lock, so several instances starting together on an empty database
 * migrate it once; a database at a newer version than this smskit knows is refused, never
 * written to.
 */
import { StorageError } from '../../errors.js';
import { APPLY_FUNCTION_V1, APPLY_FUNCTION_V2 } from './apply-function.js';
import { CALLBACK_SCHEMA_V1 } from './callback-schema.js';
import type { Queryable } from './connect.js';

export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     email         text PRIMARY KEY,
     password_hash text NOT NULL,
     keywords      text NOT NULL,
     disabled      boolean NOT NULL DEFAULT false,
     created_at    bigint NOT NULL
   );
   CREATE TABLE outbox (
     id                 text COLLATE "C" PRIMARY KEY,   -- byte order, as SQLite sorts: acceptance order
     created_at         bigint NOT NULL,
     account            text NOT NULL,
     keyword            text NOT NULL,
     recipient          text NOT NULL,
     carrier            text NOT NULL,
     encoding           text NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
     segments           integer NOT NULL CHECK (segments >= 1),
     port               integer CHECK (port BETWEEN 0 AND 65535),
     message            text NOT NULL,
     state              text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'accepted',
                          'delivered', 'undeliverable', 'expired', 'rejected', 'failed', 'test')),
     updated_at         bigint NOT NULL,
     attempts           integer NOT NULL DEFAULT 0,
     next_attempt_at    bigint NOT NULL DEFAULT 0,
     route              text,
     smsc_id            text,
     error_code         text,
     error_text         text,
     possible_duplicate boolean NOT NULL DEFAULT false,
     lease_owner        text,
     lease_until        bigint
   );
   CREATE INDEX outbox_queued ON outbox (id) WHERE state = 'queued';
   CREATE INDEX outbox_sending ON outbox (lease_until) WHERE state = 'sending';
   CREATE INDEX outbox_state ON outbox (state, id);
   CREATE TABLE outbox_parts (
     route      text NOT NULL,
     peer_id    text NOT NULL,
     message_id text NOT NULL,
     part       integer NOT NULL,
     attempt    integer NOT NULL,
     state      text,
     PRIMARY KEY (route, peer_id)
   );
   CREATE INDEX outbox_parts_message ON outbox_parts (message_id);
   CREATE TABLE outbox_events (
     seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     message_id text NOT NULL,
     at         bigint NOT NULL,
     state      text NOT NULL,
     attempt    integer NOT NULL,
     route      text,
     smsc_id    text,
     code       text,
     text       text
   );
   CREATE INDEX outbox_events_message ON outbox_events (message_id, seq);`,

  // Receipts that arrive before the submit they answer is recorded. With several instances the
  // SMSC sends a receipt on whichever receiver bind it likes, possibly another instance's, and
  // possibly before the submitting instance has committed `accepted`: it waits here and is
  // applied when the parts are recorded (see ./delivery.ts). Kept for an hour at most.
  `CREATE TABLE outbox_early_receipts (
     route   text NOT NULL,
     peer_id text NOT NULL,
     state   text NOT NULL,
     code    text NOT NULL,
     text    text NOT NULL,
     at      bigint NOT NULL,
     PRIMARY KEY (route, peer_id)
   );
   CREATE INDEX outbox_early_receipts_at ON outbox_early_receipts (at);`,

  // Operating the service (as SQLite's third migration): test accounts, the lockout a server
  // imposed (shown by `smskit account list`), and when an administrator last lifted one.
  `ALTER TABLE accounts ADD COLUMN test boolean NOT NULL DEFAULT false;
   ALTER TABLE accounts ADD COLUMN locked_until bigint;
   ALTER TABLE accounts ADD COLUMN unlocked_at bigint;`,

  // The contract's names down to the column (as SQLite's fourth migration): smsto, smsmsg,
  // carrier_code. A rename keeps the rows, their history and the indexes.
  `ALTER TABLE outbox RENAME COLUMN recipient TO smsto;
   ALTER TABLE outbox RENAME COLUMN message TO smsmsg;
   ALTER TABLE outbox RENAME COLUMN carrier TO carrier_code;`,

  // A final state `unknown` (as SQLite's fifth migration): accepted, and no delivery receipt came
  // within the route's receipt timeout; and the index the periodic sweep finds them by.
  `ALTER TABLE outbox DROP CONSTRAINT outbox_state_check;
   ALTER TABLE outbox ADD CONSTRAINT outbox_state_check CHECK (state IN ('queued', 'sending', 'accepted',
     'delivered', 'undeliverable', 'expired', 'rejected', 'failed', 'unknown', 'test'));
   CREATE INDEX outbox_accepted ON outbox (route, updated_at) WHERE state = 'accepted';`,

  // A batch of delivery state changes recorded by one function call (./apply-function.ts): one
  // round trip and a few set-based statements per batch instead of several statements per change.
  APPLY_FUNCTION_V1,

  // Every change to an account is announced to the instances, which keep account rows between
  // announcements (./account-cache.ts): the address as the payload, '' for "all of them".
  `CREATE FUNCTION smskit_account_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
   BEGIN
     IF TG_OP = 'TRUNCATE' THEN
       PERFORM pg_notify('smskit_accounts', '');
       RETURN NULL;
     END IF;
     IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('smskit_accounts', OLD.email); END IF;
     IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.email <> OLD.email) THEN
       PERFORM pg_notify('smskit_accounts', NEW.email);
     END IF;
     RETURN NULL;
   END
   $fn$;
   CREATE TRIGGER accounts_changed AFTER INSERT OR UPDATE OR DELETE ON accounts
     FOR EACH ROW EXECUTE FUNCTION smskit_account_changed();
   CREATE TRIGGER accounts_truncated AFTER TRUNCATE ON accounts
     FOR EACH STATEMENT EXECUTE FUNCTION smskit_account_changed();`,

  // Callbacks (as SQLite's seventh migration): each account's receiver and signing secret, the
  // queue of state changes to tell it about, filled by a trigger on the history table in the
  // change's own transaction, and the function that records a batch of send outcomes.
  CALLBACK_SCHEMA_V1,

  // The batch function finds the rows it updates by id, whatever the plan it was given when the
  // outbox was small (./apply-function.ts, KEY_LOOKUPS).
  APPLY_FUNCTION_V2,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Any constant shared by every smskit: the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 0x736d736b; // "smsk"

const CREATE_VERSIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  applied_at bigint NOT NULL
)`;

/** The schema version recorded in the database (0 for an empty one). */
export async function schemaVersion(db: Queryable): Promise<number> {
  const exists = await db.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  if (exists.rows[0]?.present !== true) return 0;
  const result = await db.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return Number(result.rows[0]?.version ?? 0);
}

export function newerSchemaError(version: number): StorageError {
  return new StorageError(
    'StorageError',
    `database schema version ${version} is newer than this smskit (${PG_SCHEMA_VERSION}); upgrade smskit`,
  );
}

/**
 * Brings the schema to PG_SCHEMA_VERSION in one transaction (PostgreSQL's DDL is transactional:
 * a failed step leaves the database as it was) under the migration lock. `db` must be one
 * connection, not a pool. Returns the versions before and after.
 */
export async function migrate(db: Queryable, clock: () => number = Date.now): Promise<{ from: number; to: number }> {
  await db.query('BEGIN');
  try {
    await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await db.query(CREATE_VERSIONS);
    const from = await schemaVersion(db);
    if (from > PG_SCHEMA_VERSION) throw newerSchemaError(from);
    for (let version = from; version < PG_SCHEMA_VERSION; version++) {
      await db.query(PG_MIGRATIONS[version] ?? '');
      await db.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version + 1, clock()]);
    }
    await db.query('COMMIT');
    return { from, to: PG_SCHEMA_VERSION };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
