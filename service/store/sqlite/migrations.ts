/**
 * The SQLite schema, as migrations: entry i migrates from user_version i to i + 1. Append only;
 * never edit one that has shipped (a database in the field is at some version of this list).
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     email         TEXT PRIMARY KEY,
     password_hash TEXT NOT NULL,
     keywords      TEXT NOT NULL,            -- canonical keywords, space separated
     disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
     created_at    INTEGER NOT NULL          -- ms since the epoch
   ) STRICT;
   CREATE TABLE outbox (
     id         TEXT PRIMARY KEY,            -- SMS-<ULID>, sorts by creation time
     created_at INTEGER NOT NULL,            -- ms since the epoch
     account    TEXT NOT NULL,               -- account email
     keyword    TEXT NOT NULL,
     recipient  TEXT NOT NULL,               -- E.164
     carrier    TEXT NOT NULL,
     encoding   TEXT NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
     segments   INTEGER NOT NULL CHECK (segments >= 1),
     port       INTEGER CHECK (port BETWEEN 0 AND 65535),
     message    TEXT NOT NULL,
     state      TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued'))
   ) STRICT, WITHOUT ROWID;`,

  // Delivery: a state per message with its attempts, route, peer id and last error; the lease a
  // delivery worker holds while sending; each part's peer id (receipts name parts); the history.
  // SQLite cannot change a CHECK constraint in place, so the outbox is copied into its new shape.
  `CREATE TABLE outbox_v2 (
     id                 TEXT PRIMARY KEY,
     created_at         INTEGER NOT NULL,
     account            TEXT NOT NULL,
     keyword            TEXT NOT NULL,
     recipient          TEXT NOT NULL,
     carrier            TEXT NOT NULL,
     encoding           TEXT NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
     segments           INTEGER NOT NULL CHECK (segments >= 1),
     port               INTEGER CHECK (port BETWEEN 0 AND 65535),
     message            TEXT NOT NULL,
     state              TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'accepted',
                          'delivered', 'undeliverable', 'expired', 'rejected', 'failed', 'test')),
     updated_at         INTEGER NOT NULL,
     attempts           INTEGER NOT NULL DEFAULT 0,
     next_attempt_at    INTEGER NOT NULL DEFAULT 0,   -- a queued message is due from then on
     route              TEXT,
     smsc_id            TEXT,
     error_code         TEXT,
     error_text         TEXT,
     possible_duplicate INTEGER NOT NULL DEFAULT 0 CHECK (possible_duplicate IN (0, 1)),
     lease_owner        TEXT,                         -- the delivery worker sending it
     lease_until        INTEGER                       -- after this, another worker may take it back
   ) STRICT, WITHOUT ROWID;
   INSERT INTO outbox_v2 (id, created_at, account, keyword, recipient, carrier, encoding, segments, port,
                          message, state, updated_at)
     SELECT id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message, state,
            created_at FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_v2 RENAME TO outbox;
   CREATE INDEX outbox_queued ON outbox (id) WHERE state = 'queued';
   CREATE INDEX outbox_sending ON outbox (lease_until) WHERE state = 'sending';
   CREATE INDEX outbox_state ON outbox (state, id);
   CREATE TABLE outbox_parts (
     route      TEXT NOT NULL,
     peer_id    TEXT NOT NULL,
     message_id TEXT NOT NULL,
     part       INTEGER NOT NULL,                     -- 1-based
     attempt    INTEGER NOT NULL,                     -- the delivery attempt that sent it
     state      TEXT,                                 -- a final receipt state, or NULL before one
     PRIMARY KEY (route, peer_id)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX outbox_parts_message ON outbox_parts (message_id);
   CREATE TABLE outbox_events (
     seq        INTEGER PRIMARY KEY,
     message_id TEXT NOT NULL,
     at         INTEGER NOT NULL,
     state      TEXT NOT NULL,
     attempt    INTEGER NOT NULL,
     route      TEXT,
     smsc_id    TEXT,
     code       TEXT,
     text       TEXT
   ) STRICT;
   CREATE INDEX outbox_events_message ON outbox_events (message_id, seq);`,

  // Operating the service: test accounts (their messages are stored in state `test`, never
  // delivered); the lockout a server imposed after repeated wrong passwords, so that
  // `smskit account list` can show it; and when an administrator last lifted a lockout, which every
  // running server reads with the account row and honours (its failure counts are in memory).
  `ALTER TABLE accounts ADD COLUMN test INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1));
   ALTER TABLE accounts ADD COLUMN locked_until INTEGER;   -- ms since the epoch; NULL when not locked
   ALTER TABLE accounts ADD COLUMN unlocked_at INTEGER;    -- ms since the epoch of the last unlock`,

  // The contract's names down to the column: SMSSend's smsto, smsmsg and carrierCode, so one name
  // leads from the WSDL through the record (../records.ts) to the database. A rename keeps the
  // rows, their history (outbox_events refers to the id) and the indexes (none names these).
  `ALTER TABLE outbox RENAME COLUMN recipient TO smsto;
   ALTER TABLE outbox RENAME COLUMN message TO smsmsg;
   ALTER TABLE outbox RENAME COLUMN carrier TO carrier_code;`,
  // A final state `unknown`: accepted, and no delivery receipt came within the route's receipt
  // timeout. SQLite cannot change a CHECK constraint in place, so the outbox is copied into its
  // new shape (rows, ids and every column unchanged). The partial index lets the periodic sweep
  // find accepted messages by age without reading the rest of the outbox.
  `CREATE TABLE outbox_v5 (
     id                 TEXT PRIMARY KEY,
     created_at         INTEGER NOT NULL,
     account            TEXT NOT NULL,
     keyword            TEXT NOT NULL,
     smsto              TEXT NOT NULL,
     carrier_code       TEXT NOT NULL,
     encoding           TEXT NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
     segments           INTEGER NOT NULL CHECK (segments >= 1),
     port               INTEGER CHECK (port BETWEEN 0 AND 65535),
     smsmsg             TEXT NOT NULL,
     state              TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'accepted',
                          'delivered', 'undeliverable', 'expired', 'rejected', 'failed', 'unknown', 'test')),
     updated_at         INTEGER NOT NULL,
     attempts           INTEGER NOT NULL DEFAULT 0,
     next_attempt_at    INTEGER NOT NULL DEFAULT 0,
     route              TEXT,
     smsc_id            TEXT,
     error_code         TEXT,
     error_text         TEXT,
     possible_duplicate INTEGER NOT NULL DEFAULT 0 CHECK (possible_duplicate IN (0, 1)),
     lease_owner        TEXT,
     lease_until        INTEGER
   ) STRICT, WITHOUT ROWID;
   INSERT INTO outbox_v5 SELECT id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port,
     smsmsg, state, updated_at, attempts, next_attempt_at, route, smsc_id, error_code, error_text,
     possible_duplicate, lease_owner, lease_until FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_v5 RENAME TO outbox;
   CREATE INDEX outbox_queued ON outbox (id) WHERE state = 'queued';
   CREATE INDEX outbox_sending ON outbox (lease_until) WHERE state = 'sending';
   CREATE INDEX outbox_state ON outbox (state, id);
   CREATE INDEX outbox_accepted ON outbox (route, updated_at) WHERE state = 'accepted';`,

  // The count per state, kept as the states change: /metrics and /healthz read it at every scrape,
  // and counting a million-message outbox took a third of a second of the event loop each time.
  // Triggers keep it exact whoever writes (the service, the retention sweep, an administrator).
  `CREATE TABLE outbox_counts (
     state TEXT PRIMARY KEY,
     n     INTEGER NOT NULL
   ) STRICT, WITHOUT ROWID;
   INSERT INTO outbox_counts (state, n) SELECT state, count(*) FROM outbox GROUP BY state;
   CREATE TRIGGER outbox_counts_insert AFTER INSERT ON outbox BEGIN
     INSERT INTO outbox_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
   END;
   CREATE TRIGGER outbox_counts_delete AFTER DELETE ON outbox BEGIN
     UPDATE outbox_counts SET n = n - 1 WHERE state = OLD.state;
   END;
   CREATE TRIGGER outbox_counts_update AFTER UPDATE OF state ON outbox WHEN OLD.state != NEW.state BEGIN
     UPDATE outbox_counts SET n = n - 1 WHERE state = OLD.state;
     INSERT INTO outbox_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
   END;`,

  // Callbacks: an account may name a receiver (and the secret its callbacks are signed with), and
  // every state change of its messages is queued for it by a trigger on the history table, so the
  // change and its event are one commit whoever writes the change. Sent events are deleted; events
  // given up on stay `dead` until an operator re-queues them. `due_at` NULL: the event waits for an
  // earlier pending event of its message (only a message's earliest pending event is ever due, so a
  // claim walks due events only, never a backlog held behind a failing receiver). A handed-out
  // event's `due_at` is its lease's end: it comes back by itself if its sender dies. The trigger's
  // WHEN reads the partial index of accounts with callbacks: empty, it costs one probe per change.
  `ALTER TABLE accounts ADD COLUMN callback_url TEXT;
   ALTER TABLE accounts ADD COLUMN callback_secret TEXT;
   ALTER TABLE accounts ADD COLUMN callbacks_disabled_at INTEGER;   -- ms; set when the receiver answered 410
   CREATE INDEX accounts_callbacks ON accounts (email) WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL;
   CREATE TABLE callback_queue (
     seq         INTEGER PRIMARY KEY,              -- outbox_events.seq of the change
     message_id  TEXT NOT NULL,
     account     TEXT NOT NULL,
     queued_at   INTEGER NOT NULL,                 -- ms; the change's time, or when an operator re-queued it
     due_at      INTEGER,                          -- ms; NULL while an earlier event of the message is pending
     tries       INTEGER NOT NULL DEFAULT 0,       -- sends started (a claim counts one)
     state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'dead')),
     lease_owner TEXT,
     lease_until INTEGER,
     last_error  TEXT
   ) STRICT;
   CREATE INDEX callback_queue_due ON callback_queue (due_at, seq) WHERE state = 'pending' AND due_at IS NOT NULL;
   CREATE INDEX callback_queue_message ON callback_queue (message_id, seq);
   CREATE INDEX callback_queue_state ON callback_queue (state, queued_at);
   CREATE TRIGGER callback_queue_event AFTER INSERT ON outbox_events
   WHEN EXISTS (SELECT 1 FROM accounts INDEXED BY accounts_callbacks
                WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL)
   BEGIN
     INSERT INTO callback_queue (seq, message_id, account, queued_at, due_at)
     SELECT NEW.seq, NEW.message_id, o.account, NEW.at,
            CASE WHEN EXISTS (SELECT 1 FROM callback_queue AS p INDEXED BY callback_queue_message
                              WHERE p.message_id = NEW.message_id AND p.state = 'pending')
                 THEN NULL ELSE NEW.at END
     FROM outbox o JOIN accounts a ON a.email = o.account
     WHERE o.id = NEW.message_id AND a.callback_url IS NOT NULL AND a.callbacks_disabled_at IS NULL;
   END;
   CREATE TRIGGER callback_queue_stopped AFTER UPDATE OF callback_url, callbacks_disabled_at ON accounts
   WHEN NEW.callback_url IS NULL OR NEW.callbacks_disabled_at IS NOT NULL
   BEGIN
     UPDATE callback_queue SET state = 'dead', due_at = NULL, lease_owner = NULL, lease_until = NULL,
       last_error = 'the account''s callbacks were switched off'
     WHERE account = NEW.email AND state = 'pending';
   END;`,

  // Callbacks without a queue row per state change: the sender reads the history itself, from a
  // cursor (./callback-cursor.ts), and a row is written only for an event that must wait (a retry,
  // one held behind an earlier event of its message) or died. The row per change cost delivery a
  // sixth of its rate. So the cursor can trust the history's order, a seq is never used twice:
  // AUTOINCREMENT, where a plain rowid reuses the highest seq once retention deleted it (which
  // would also give a new event an old webhook-id). `callbacks_since`: the history seq from which
  // an account's changes are told (set when its receiver is switched on), as the old trigger
  // queued only changes made while it was on. `smskit callbacks --state` lists rows by state in
  // seq order (now that rows are few, an index more costs little). The switch-off trigger also
  // makes dead rows of the account's events the sender has not read yet, as it did of their queue
  // rows. With no other receiver on, switching one on moves the cursor to the end of the history:
  // nothing before it is wanted, and the sender need not read through it.
  `CREATE TABLE outbox_events_v8 (
     seq        INTEGER PRIMARY KEY AUTOINCREMENT,
     message_id TEXT NOT NULL,
     at         INTEGER NOT NULL,
     state      TEXT NOT NULL,
     attempt    INTEGER NOT NULL,
     route      TEXT,
     smsc_id    TEXT,
     code       TEXT,
     text       TEXT
   ) STRICT;
   INSERT INTO outbox_events_v8 (seq, message_id, at, state, attempt, route, smsc_id, code, text)
     SELECT seq, message_id, at, state, attempt, route, smsc_id, code, text FROM outbox_events;
   DROP TABLE outbox_events;
   ALTER TABLE outbox_events_v8 RENAME TO outbox_events;
   CREATE INDEX outbox_events_message ON outbox_events (message_id, seq);
   CREATE INDEX callback_queue_listing ON callback_queue (state, seq);
   ALTER TABLE accounts ADD COLUMN callbacks_since INTEGER NOT NULL DEFAULT 0;
   UPDATE accounts SET callbacks_since = (SELECT coalesce(max(seq), 0) FROM outbox_events);
   CREATE TABLE callback_cursor (
     id      INTEGER PRIMARY KEY CHECK (id = 1),
     scanned INTEGER NOT NULL,   -- every event up to here was handed out, queued as a row, or not wanted
     settled INTEGER NOT NULL,   -- every event up to here was sent or queued as a row (≤ scanned)
     turn    INTEGER NOT NULL    -- bumped by each sender call: tells the sender which of its calls committed
   ) STRICT;
   INSERT INTO callback_cursor (id, scanned, settled, turn)
     SELECT 1, coalesce(max(seq), 0), coalesce(max(seq), 0), 0 FROM outbox_events;
   CREATE TRIGGER callbacks_switched_on AFTER UPDATE OF callback_url, callbacks_disabled_at ON accounts
   WHEN NEW.callback_url IS NOT NULL AND NEW.callbacks_disabled_at IS NULL
    AND (OLD.callback_url IS NULL OR OLD.callbacks_disabled_at IS NOT NULL)
   BEGIN
     UPDATE accounts SET callbacks_since = (SELECT coalesce(max(seq), 0) FROM outbox_events) WHERE email = NEW.email;
     UPDATE callback_cursor SET scanned = max(scanned, (SELECT coalesce(max(seq), 0) FROM outbox_events)),
                                settled = max(settled, (SELECT coalesce(max(seq), 0) FROM outbox_events))
     WHERE NOT EXISTS (SELECT 1 FROM accounts INDEXED BY accounts_callbacks
                       WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL AND email != NEW.email);
   END;
   CREATE TRIGGER callbacks_added AFTER INSERT ON accounts
   WHEN NEW.callback_url IS NOT NULL AND NEW.callbacks_disabled_at IS NULL
   BEGIN
     UPDATE accounts SET callbacks_since = (SELECT coalesce(max(seq), 0) FROM outbox_events) WHERE email = NEW.email;
     UPDATE callback_cursor SET scanned = max(scanned, (SELECT coalesce(max(seq), 0) FROM outbox_events)),
                                settled = max(settled, (SELECT coalesce(max(seq), 0) FROM outbox_events))
     WHERE NOT EXISTS (SELECT 1 FROM accounts INDEXED BY accounts_callbacks
                       WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL AND email != NEW.email);
   END;
   DROP TRIGGER callback_queue_stopped;
   CREATE TRIGGER callback_queue_stopped AFTER UPDATE OF callback_url, callbacks_disabled_at ON accounts
   WHEN (NEW.callback_url IS NULL OR NEW.callbacks_disabled_at IS NOT NULL)
    AND OLD.callback_url IS NOT NULL AND OLD.callbacks_disabled_at IS NULL
   BEGIN
     UPDATE callback_queue SET state = 'dead', due_at = NULL, lease_owner = NULL, lease_until = NULL,
       last_error = 'the account''s callbacks were switched off'
     WHERE account = NEW.email AND state = 'pending';
     INSERT INTO callback_queue (seq, message_id, account, queued_at, state, last_error)
     SELECT e.seq, e.message_id, o.account, e.at, 'dead', 'the account''s callbacks were switched off'
     FROM outbox_events AS e JOIN outbox AS o ON o.id = e.message_id
     WHERE e.seq > (SELECT scanned FROM callback_cursor) AND e.seq > OLD.callbacks_since AND o.account = NEW.email
     ON CONFLICT (seq) DO NOTHING;
   END;`,

  // Account rows kept by a running server between changes (./account-cache.ts): every change to
  // one, whoever makes it (the server, its writer thread, `smskit account` in another process),
  // bumps this version, which the server reads every few milliseconds instead of reading the
  // account of every request.
  `CREATE TABLE accounts_version (
     id      INTEGER PRIMARY KEY CHECK (id = 1),
     version INTEGER NOT NULL
   ) STRICT;
   INSERT INTO accounts_version (id, version) VALUES (1, 0);
   CREATE TRIGGER accounts_version_insert AFTER INSERT ON accounts
   BEGIN UPDATE accounts_version SET version = version + 1; END;
   CREATE TRIGGER accounts_version_update AFTER UPDATE ON accounts
   BEGIN UPDATE accounts_version SET version = version + 1; END;
   CREATE TRIGGER accounts_version_delete AFTER DELETE ON accounts
   BEGIN UPDATE accounts_version SET version = version + 1; END;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
