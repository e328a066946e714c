/**
 * The SQL function that records a batch of delivery state changes in one call (one round trip,
 * one transaction, a handful of set-based statements whatever the batch size), installed by a
 * migration (./migrations.ts). ./delivery.ts passes the batch as column arrays and reads back the
 * positions of the changes that applied. The meaning is ../sqlite/delivery.ts's, change by change:
 *
 * 1. Owned changes (accepted, requeue, final, released): their rows are locked in id order (two
 *    instances' batches cannot deadlock on them), then one UPDATE guarded by `state = 'sending'
 *    AND lease_owner = owner` changes them, writes their history events and, for `accepted`, the
 *    parts receipts look for. A change whose message is no longer the owner's changes nothing.
 *    A message named twice in a batch takes its first change (the second would fail the guard).
 * 2. The peer-id advisory locks of the accepted parts and of the receipts, taken in key order:
 *    a receipt and the `accepted` that records its part are serialised across instances, so a
 *    receipt that finds no part is kept (outbox_early_receipts) and the `accepted` finds it.
 * 3. Early receipts for the parts just recorded join the batch's receipts (before them).
 * 4. Receipts: their messages' rows locked in id order; a receipt without a part is kept; every
 *    part takes its last receipt's state; a message still `accepted` settles on its first failed
 *    receipt, or, when every part of an attempt is delivered, on that attempt's last receipt,
 *    whichever came first in the batch. One history event per settled message.
 *
 * Statements inside a plpgsql function each take a fresh snapshot (READ COMMITTED), after the
 * locks before them, like the separate statements they replace; their plans are prepared once
 * per connection.
 */

/**
 * Installed by migration 6; once released, never edited: a new body is a new constant installed by a
 * new migration (`CREATE OR REPLACE` replaces it in place).
 */
export const APPLY_FUNCTION_V1 = `
CREATE OR REPLACE FUNCTION smskit_apply_delivery(
  o_ord integer[], o_kind text[], o_id text[], o_owner text[], o_at bigint[], o_attempt integer[], o_route text[],
  o_state text[], o_next bigint[], o_code text[], o_text text[], o_maybe boolean[], o_smsc text[],
  p_ord integer[], p_peer text[], p_part integer[],
  r_ord integer[], r_route text[], r_peer text[], r_state text[], r_code text[], r_text text[], r_at bigint[]
) RETURNS SETOF integer LANGUAGE plpgsql
-- Every statement touches the batch's rows by key; statistics lag behind a fast-growing outbox
-- (a backlog just inserted has none), and a plan from them scans whole tables. Joins stay free:
-- the batch's arrays join each other by hash (nested loops over them cost the batch squared).
SET enable_seqscan = off SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
  changed_ords integer[];
  e_ord integer[]; e_route text[]; e_peer text[]; e_state text[]; e_code text[]; e_text text[]; e_at bigint[];
BEGIN
  IF cardinality(o_id) > 0 THEN
    PERFORM 1 FROM outbox WHERE id = ANY(o_id) ORDER BY id FOR UPDATE;
    WITH x AS (
      SELECT DISTINCT ON (t.id) t.*
      FROM unnest(o_ord, o_kind, o_id, o_owner, o_at, o_attempt, o_route, o_state, o_next, o_code, o_text, o_maybe, o_smsc)
        AS t(ord, kind, id, owner, at, attempt, route, state, next_at, code, text, maybe, smsc)
      ORDER BY t.id, t.ord),
    changed AS (
      UPDATE outbox o SET
        state = CASE x.kind WHEN 'accepted' THEN 'accepted' WHEN 'final' THEN x.state ELSE 'queued' END,
        attempts = CASE x.kind WHEN 'released' THEN o.attempts - 1 ELSE o.attempts END,
        next_attempt_at = CASE x.kind WHEN 'requeue' THEN x.next_at ELSE o.next_attempt_at END,
        possible_duplicate = o.possible_duplicate OR (x.kind = 'requeue' AND x.maybe),
        smsc_id = CASE x.kind WHEN 'accepted' THEN x.smsc ELSE o.smsc_id END,
        error_code = CASE x.kind WHEN 'accepted' THEN NULL WHEN 'released' THEN o.error_code ELSE x.code END,
        error_text = CASE x.kind WHEN 'accepted' THEN NULL WHEN 'released' THEN o.error_text ELSE x.text END,
        updated_at = x.at, lease_owner = NULL, lease_until = NULL
      FROM x WHERE o.id = x.id AND o.state = 'sending' AND o.lease_owner = x.owner
      RETURNING x.*),
    parts AS (
      INSERT INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
      SELECT DISTINCT ON (c.route, p.peer) c.route, p.peer, c.id, p.part, c.attempt, NULL
      FROM changed c JOIN unnest(p_ord, p_peer, p_part) AS p(ord, peer, part) ON p.ord = c.ord
      WHERE c.kind = 'accepted'
      ORDER BY c.route, p.peer, c.ord DESC
      ON CONFLICT (route, peer_id) DO UPDATE SET message_id = EXCLUDED.message_id, part = EXCLUDED.part,
        attempt = EXCLUDED.attempt, state = NULL),
    logged AS (
      INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
      SELECT c.id, c.at,
        CASE c.kind WHEN 'accepted' THEN 'accepted' WHEN 'final' THEN c.state ELSE 'queued' END,
        CASE c.kind WHEN 'released' THEN c.attempt - 1 ELSE c.attempt END,
        c.route,
        CASE c.kind WHEN 'accepted' THEN c.smsc END,
        CASE WHEN c.kind IN ('requeue', 'final') THEN c.code END,
        CASE c.kind WHEN 'released' THEN 'returned to the queue unsent at shutdown'
          WHEN 'accepted' THEN NULL ELSE c.text END
      FROM changed c ORDER BY c.id)
    SELECT coalesce(array_agg(c.ord), '{}') INTO changed_ords FROM changed c;
  ELSE
    changed_ords := '{}';
  END IF;

  PERFORM pg_advisory_xact_lock(k.key) FROM (
    SELECT DISTINCT hashtextextended(l.route || ' ' || l.peer, 0) AS key FROM (
      SELECT t.route, p.peer
      FROM unnest(o_ord, o_route) AS t(ord, route) JOIN unnest(p_ord, p_peer) AS p(ord, peer) ON p.ord = t.ord
      WHERE t.ord = ANY(changed_ords)
      UNION ALL SELECT * FROM unnest(r_route, r_peer)) AS l(route, peer)
    ORDER BY 1) AS k;

  WITH accepted_parts AS (
    SELECT t.route, p.peer, p.part
    FROM unnest(o_ord, o_route) AS t(ord, route) JOIN unnest(p_ord, p_peer, p_part) AS p(ord, peer, part)
      ON p.ord = t.ord
    WHERE t.ord = ANY(changed_ords)),
  taken AS (
    DELETE FROM outbox_early_receipts e USING accepted_parts a
    WHERE e.route = a.route AND e.peer_id = a.peer
    RETURNING e.route, e.peer_id, e.state, e.code, e.text, e.at, a.part)
  SELECT array_agg(part - 1073741824), array_agg(route), array_agg(peer_id), array_agg(state), array_agg(code),
    array_agg(text), array_agg(at)
  INTO e_ord, e_route, e_peer, e_state, e_code, e_text, e_at FROM taken;
  IF e_ord IS NOT NULL THEN
    r_ord := e_ord || r_ord; r_route := e_route || r_route; r_peer := e_peer || r_peer;
    r_state := e_state || r_state; r_code := e_code || r_code; r_text := e_text || r_text; r_at := e_at || r_at;
  END IF;

  IF cardinality(r_ord) > 0 THEN
    PERFORM 1 FROM outbox o WHERE o.id IN (
      SELECT p.message_id FROM outbox_parts p JOIN unnest(r_route, r_peer) AS r(route, peer)
        ON p.route = r.route AND p.peer_id = r.peer)
    ORDER BY o.id FOR UPDATE;

    INSERT INTO outbox_early_receipts (route, peer_id, state, code, text, at)
    SELECT DISTINCT ON (r.route, r.peer) r.route, r.peer, r.state, r.code, r.text, r.at
    FROM unnest(r_ord, r_route, r_peer, r_state, r_code, r_text, r_at) AS r(ord, route, peer, state, code, text, at)
    WHERE NOT EXISTS (SELECT 1 FROM outbox_parts p WHERE p.route = r.route AND p.peer_id = r.peer)
    ORDER BY r.route, r.peer, r.ord DESC
    ON CONFLICT (route, peer_id) DO UPDATE SET state = EXCLUDED.state, code = EXCLUDED.code, text = EXCLUDED.text,
      at = EXCLUDED.at;

    UPDATE outbox_parts p SET state = r.state
    FROM (SELECT DISTINCT ON (t.route, t.peer) t.route, t.peer, t.state
          FROM unnest(r_ord, r_route, r_peer, r_state) AS t(ord, route, peer, state)
          ORDER BY t.route, t.peer, t.ord DESC) AS r
    WHERE p.route = r.route AND p.peer_id = r.peer;

    WITH r AS (
      SELECT t.*, p.message_id, p.attempt
      FROM unnest(r_ord, r_route, r_peer, r_state, r_code, r_text, r_at) AS t(ord, route, peer, state, code, text, at)
      JOIN outbox_parts p ON p.route = t.route AND p.peer_id = t.peer),
    complete AS (
      SELECT DISTINCT ON (r.message_id, r.attempt) r.* FROM r
      WHERE r.state = 'delivered' AND NOT EXISTS (
        SELECT 1 FROM outbox_parts q WHERE q.message_id = r.message_id AND q.attempt = r.attempt
          AND q.state IS DISTINCT FROM 'delivered')
      ORDER BY r.message_id, r.attempt, r.ord DESC),
    failed AS (
      SELECT DISTINCT ON (r.message_id) r.* FROM r WHERE r.state <> 'delivered' ORDER BY r.message_id, r.ord),
    decided AS (
      SELECT DISTINCT ON (d.message_id) d.* FROM (SELECT * FROM complete UNION ALL SELECT * FROM failed) AS d
      ORDER BY d.message_id, d.ord),
    settled AS (
      UPDATE outbox o SET state = d.state, updated_at = d.at,
        error_code = CASE WHEN d.state <> 'delivered' THEN d.code END,
        error_text = CASE WHEN d.state <> 'delivered' THEN d.text END
      FROM decided d WHERE o.id = d.message_id AND o.state IN ('accepted', 'unknown')
      RETURNING d.*)
    INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
    SELECT s.message_id, s.at, s.state, s.attempt, s.route, s.peer, s.code, s.text FROM settled s ORDER BY s.message_id;
  END IF;

  RETURN QUERY SELECT unnest(changed_ords)
    UNION ALL
    SELECT t.ord FROM unnest(r_ord, r_route, r_peer) AS t(ord, route, peer)
    WHERE t.ord >= 0 AND EXISTS (SELECT 1 FROM outbox_parts p WHERE p.route = t.route AND p.peer_id = t.peer);
END
$fn$;`;

/**
 * The guards of the two UPDATEs on `outbox` that must not pick the row's index. A plan made when
 * the outbox was nearly empty (the function's plans are made at a connection's first call and
 * kept) found the rows through the state index (`state = 'sending'`, `state IN ('accepted',
 * 'unknown')`), which reads every entry of that state since the last VACUUM, dead ones included:
 * thousands per call after a few thousand messages, and more every second. Tested as
 * `(...) IS TRUE` the guard matches no index (PostgreSQL 15's planner takes no BooleanTest of a
 * comparison as an index condition; test/service/store/postgres-index-reads.test.ts holds it),
 * so the row is found by its id, as the batch names it. The meaning is the same: state is NOT
 * NULL, and WHERE treats NULL as false anyway.
 */
const KEY_LOOKUPS: readonly (readonly [string, string])[] = [
  [
    "FROM x WHERE o.id = x.id AND o.state = 'sending' AND o.lease_owner = x.owner",
    "FROM x WHERE o.id = x.id AND (o.state = 'sending') IS TRUE AND o.lease_owner = x.owner",
  ],
  [
    "FROM decided d WHERE o.id = d.message_id AND o.state IN ('accepted', 'unknown')",
    "FROM decided d WHERE o.id = d.message_id AND (o.state IN ('accepted', 'unknown')) IS TRUE",
  ],
];

function withKeyLookups(body: string): string {
  return KEY_LOOKUPS.reduce((sql, [guard, lookup]) => {
    if (sql.split(guard).length !== 2) throw new Error(`the apply function's guard is not there once: ${guard}`);
    return sql.replace(guard, lookup);
  }, body);
}

/** Installed by migration 9: V1 with its rows found by id (KEY_LOOKUPS). Never edited once released. */
export const APPLY_FUNCTION_V2 = withKeyLookups(APPLY_FUNCTION_V1);
