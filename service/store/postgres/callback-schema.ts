/**
 * The callback queue on PostgreSQL, installed by a migration (./migrations.ts): the account
 * columns, the queue, the trigger that queues every state change of an account with a receiver,
 * and the function that records a batch of send outcomes. The meaning is SQLite's
 * (../sqlite/migrations.ts, its seventh migration: read that first).
 *
 * - The trigger runs once per statement over the statement's new history rows (a transition
 *   table): the delivery engine writes a batch of changes in a few set-based statements, and its
 *   events are queued by one INSERT each. Its first query reads the partial index of accounts
 *   with callbacks: while no account has one, that probe is all a change costs.
 * - Only a message's earliest pending event is due (`due_at` set); the later ones wait with
 *   `due_at` NULL and are released when it is sent or given up on. The trigger and a settlement
 *   touching the same message are serialised on its outbox row: the state change holds it locked
 *   (FOR NO KEY UPDATE) from its UPDATE to its commit, and the settlement locks it FOR SHARE before
 *   it looks for the next event to release. Each statement of the function takes a fresh snapshot
 *   (READ COMMITTED) after the lock, so neither side misses the other's event.
 *
 * Installed once; never edited: a new body is a new constant installed by a new migration.
 */
export const CALLBACK_SCHEMA_V1 = `
ALTER TABLE accounts ADD COLUMN callback_url text, ADD COLUMN callback_secret text,
  ADD COLUMN callbacks_disabled_at bigint;
CREATE INDEX accounts_callbacks ON accounts (email) WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL;
CREATE TABLE callback_queue (
  seq         bigint PRIMARY KEY,
  message_id  text COLLATE "C" NOT NULL,
  account     text NOT NULL,
  queued_at   bigint NOT NULL,
  due_at      bigint,
  tries       integer NOT NULL DEFAULT 0,
  state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'dead')),
  lease_owner text,
  lease_until bigint,
  last_error  text
);
CREATE INDEX callback_queue_due ON callback_queue (due_at, seq) WHERE state = 'pending' AND due_at IS NOT NULL;
CREATE INDEX callback_queue_message ON callback_queue (message_id, seq);
CREATE INDEX callback_queue_state ON callback_queue (state, queued_at);

-- A transition table has no statistics: a plan guessed from none could hash-join it against the
-- whole outbox. Every lookup here is by key, as in the delivery function.
CREATE FUNCTION smskit_queue_callbacks() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $fn$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM accounts WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO callback_queue (seq, message_id, account, queued_at, due_at)
  SELECT e.seq, e.message_id, o.account, e.at,
         CASE WHEN row_number() OVER (PARTITION BY e.message_id ORDER BY e.seq) > 1
                OR EXISTS (SELECT 1 FROM callback_queue p WHERE p.message_id = e.message_id AND p.state = 'pending')
              THEN NULL ELSE e.at END
  FROM added e JOIN outbox o ON o.id = e.message_id JOIN accounts a ON a.email = o.account
  WHERE a.callback_url IS NOT NULL AND a.callbacks_disabled_at IS NULL;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER callback_queue_event AFTER INSERT ON outbox_events REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION smskit_queue_callbacks();

CREATE FUNCTION smskit_callbacks_stopped() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE callback_queue SET state = 'dead', due_at = NULL, lease_owner = NULL, lease_until = NULL,
    last_error = 'the account''s callbacks were switched off'
  WHERE account = NEW.email AND state = 'pending';
  RETURN NULL;
END
$fn$;
CREATE TRIGGER callback_queue_stopped AFTER UPDATE OF callback_url, callbacks_disabled_at ON accounts
  FOR EACH ROW WHEN (NEW.callback_url IS NULL OR NEW.callbacks_disabled_at IS NOT NULL)
  EXECUTE FUNCTION smskit_callbacks_stopped();

CREATE FUNCTION smskit_settle_callbacks(p_owner text, s_seq bigint[], s_kind text[], s_next bigint[], s_error text[])
RETURNS void LANGUAGE plpgsql SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  finished text[];
BEGIN
  -- The messages whose event leaves the head of their line, their outbox rows locked in id order
  -- (as the delivery engine locks them) until the commit.
  SELECT array_agg(id ORDER BY id) INTO finished FROM (
    SELECT o.id FROM outbox o
    WHERE o.id IN (SELECT q.message_id FROM callback_queue q JOIN unnest(s_seq, s_kind) AS t(seq, kind)
                   ON q.seq = t.seq WHERE t.kind <> 'retry' AND q.lease_owner = p_owner)
    ORDER BY o.id FOR SHARE) AS locked;
  DELETE FROM callback_queue q USING unnest(s_seq, s_kind) AS t(seq, kind)
  WHERE q.seq = t.seq AND t.kind = 'sent' AND q.lease_owner = p_owner;
  UPDATE callback_queue q
  SET state = CASE WHEN t.kind = 'dead' THEN 'dead' ELSE 'pending' END,
      due_at = CASE WHEN t.kind = 'dead' THEN NULL ELSE t.next END,
      lease_owner = NULL, lease_until = NULL, last_error = t.error
  FROM unnest(s_seq, s_kind, s_next, s_error) AS t(seq, kind, next, error)
  WHERE q.seq = t.seq AND t.kind <> 'sent' AND q.lease_owner = p_owner AND q.state = 'pending';
  -- The next event of each of those messages becomes due, since it was queued.
  UPDATE callback_queue q SET due_at = q.queued_at
  FROM (SELECT DISTINCT ON (message_id) seq FROM callback_queue
        WHERE message_id = ANY(finished) AND state = 'pending' ORDER BY message_id, seq) AS head
  WHERE q.seq = head.seq AND q.due_at IS NULL;
END
$fn$;`;
