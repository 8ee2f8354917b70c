/**
 * The SQL of the PostgreSQL task store for one schema. Values are always parameters; only the
 * schema name (validated by `quoteSchema`) is interpolated. Hot statements are named, so each
 * connection parses and plans them once.
 */

/** A statement pg can prepare: `name` is unique per schema. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/**
 * The name of a prepared statement of one schema. Short (PostgreSQL truncates names at 63 bytes,
 * which could make two long ones collide) and distinct per schema (a pool may serve several).
 */
export function statementName(schema: string, name: string): string {
  let hash = 0x811c9dc5; // FNV-1a, 32 bits
  for (let i = 0; i < schema.length; i++) {
    hash = Math.imul(hash ^ schema.charCodeAt(i), 0x01000193);
  }
  return `a2a_${name}_${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** The statements of one schema `s` (already quoted); `schema` is the raw name. */
export function statements(schema: string, s: string) {
  const named = (name: string, text: string): Statement => ({
    name: statementName(schema, name),
    text,
  });
  return {
    /**
     * The writes of one batch (append-batch.ts) in one statement, so in one transaction and one
     * round trip: appends to existing tasks and creations of new ones, at most one per task.
     *
     * Appends: $1 is a JSON array of rows (see `AppendRow`); $2 their task ids (so the planner
     * looks the rows up by primary key instead of scanning). The UPDATE checks scope, sequence
     * number and state per row (row lock: a concurrent writer waits, then finds the seq moved and
     * updates nothing), so a row that does not match leaves the others alone and simply returns
     * nothing; only the rows that matched insert their events, their message index entry and
     * their push deliveries (one per push config of the task, for the events at `pushed`,
     * 1-based), all in the same transaction as the events; `hashes` are the events' audit chain
     * hashes (null when audit is off).
     *
     * Creations: $3 is a JSON array of rows (see `CreateRow`): the task row at its state after
     * its first events (none for a bare creation), its log (the snapshot at seq 1, then the
     * events), its message index entry and, when `lease_owner` is set and the task is unfinished,
     * its ownership lease. An id that exists already inserts nothing and returns nothing.
     */
    append: named(
      'write_batch',
      `WITH x AS (
         SELECT * FROM json_to_recordset($1::json) AS x(
           i integer, id text, tenant text, owner text, expected integer, events json,
           count integer, allowed text[], state text, ts text, terminal boolean,
           message_id text, fingerprint text, pushed integer[], trace text, hashes text[])
       ), upd AS (
         UPDATE ${s}.tasks t SET
           seq = t.seq + x.count,
           updated_at = now(),
           state = coalesce(x.state, t.state),
           status_ts = coalesce(x.ts, t.status_ts),
           finished_at = CASE WHEN x.terminal THEN now() ELSE t.finished_at END
         FROM x
         WHERE t.id = ANY($2::text[]) AND t.id = x.id AND t.tenant = x.tenant AND t.owner = x.owner
           AND t.seq = x.expected AND t.state = ANY(x.allowed)
         RETURNING x.i, t.id, t.tenant, t.owner, t.rid, x.expected, x.events, x.message_id,
                   x.fingerprint, x.pushed, x.trace, x.hashes
       ), ev AS (
         INSERT INTO ${s}.events (task_id, seq, body, hash)
         SELECT upd.id, upd.expected + e.ord, e.body, upd.hashes[e.ord]
         FROM upd, json_array_elements(upd.events) WITH ORDINALITY AS e(body, ord)
       ), n AS (
         SELECT * FROM json_to_recordset($3::json) AS n(
           i integer, id text, tenant text, owner text, context text, state text, ts text,
           task json, events json, count integer, terminal boolean, message_id text,
           fingerprint text, hashes text[], lease_owner text, lease_ms integer)
       ), ins AS (
         INSERT INTO ${s}.tasks (id, tenant, owner, context_id, state, status_ts, seq, base,
                                 base_seq, finished_at, lease_owner, lease_expires_at)
         SELECT id, tenant, owner, context, state, ts, 1 + count, task, 1,
                CASE WHEN terminal THEN now() END,
                CASE WHEN NOT terminal THEN lease_owner END,
                CASE WHEN NOT terminal AND lease_owner IS NOT NULL
                  THEN now() + lease_ms * interval '1 millisecond' END
         FROM n
         ON CONFLICT (id) DO NOTHING
         RETURNING id, rid
       ), cev AS (
         INSERT INTO ${s}.events (task_id, seq, body, hash)
         SELECT n.id, 1, json_build_object('task', n.task), n.hashes[1]
         FROM ins JOIN n ON n.id = ins.id
         UNION ALL
         SELECT n.id, 1 + e.ord, e.body, n.hashes[1 + e.ord]
         FROM ins JOIN n ON n.id = ins.id
         CROSS JOIN json_array_elements(n.events) WITH ORDINALITY AS e(body, ord)
       ), msg AS (
         INSERT INTO ${s}.messages (tenant, owner, message_id, task_id, fingerprint)
         SELECT tenant, owner, message_id, id, fingerprint FROM upd WHERE message_id IS NOT NULL
         UNION ALL
         SELECT n.tenant, n.owner, n.message_id, n.id, n.fingerprint FROM ins JOIN n ON n.id = ins.id
         WHERE n.message_id IS NOT NULL
         ON CONFLICT (tenant, owner, message_id) DO UPDATE SET task_id = EXCLUDED.task_id,
           fingerprint = EXCLUDED.fingerprint, indexed_at = now()
       ), push AS (
         INSERT INTO ${s}.push_outbox (id, task_id, config_id, tenant, owner, seq, body, trace)
         SELECT gen_random_uuid()::text, upd.id, c.id, c.tenant, c.owner,
                upd.expected + e.ord, e.body::text, upd.trace
         FROM upd
         JOIN ${s}.push_configs c ON c.task_id = upd.id
         CROSS JOIN json_array_elements(upd.events) WITH ORDINALITY AS e(body, ord)
         WHERE e.ord = ANY(upd.pushed)
         ON CONFLICT DO NOTHING
         RETURNING task_id
       )
       SELECT upd.i, upd.rid::text AS rid,
              (SELECT count(*)::integer FROM push WHERE push.task_id = upd.id) AS pushed
       FROM upd
       UNION ALL
       SELECT n.i, ins.rid::text, 0 FROM ins JOIN n ON n.id = ins.id`,
    ),
    /** Why an append matched nothing. $1 id. */
    inspect: named('inspect', `SELECT tenant, owner, seq, state FROM ${s}.tasks WHERE id = $1`),
    /**
     * Snapshots of some tasks of a scope: for each id, the events after the cached seq when the
     * cached row id (`rid`, new for a re-created id) still matches, else the base and all events.
     * $1 tenant, $2 owner, $3 ids, $4 cached rids, $5 cached seqs.
     */
    load: named(
      'load',
      `SELECT t.id, t.rid::text AS rid, t.seq, f.fresh,
              CASE WHEN f.fresh THEN t.base END AS base,
              CASE WHEN f.fresh THEN t.base_seq ELSE c.seq END AS from_seq,
              (SELECT json_agg(e.body ORDER BY e.seq) FROM ${s}.events e
                WHERE e.task_id = t.id AND e.seq <= t.seq
                  AND e.seq > CASE WHEN f.fresh THEN t.base_seq ELSE c.seq END) AS events
       FROM unnest($3::text[], $4::text[], $5::integer[]) AS c(id, rid, seq)
       JOIN ${s}.tasks t ON t.id = c.id COLLATE "C"
       CROSS JOIN LATERAL (SELECT c.rid IS DISTINCT FROM t.rid::text AS fresh) f
       WHERE t.tenant = $1 AND t.owner = $2`,
    ),
    /**
     * $1 id, $2 tenant, $3 owner, $4 after seq, $5 limit, $6 max bytes (NULL: no bound). The
     * running total of the bodies' lengths (characters, as JavaScript counts them at most) ends
     * the page with the entry that reaches $6.
     */
    events: named(
      'events',
      `SELECT seq, body, hash FROM (
         SELECT e.seq, e.body, e.hash,
                sum(char_length(e.body::text)) OVER (ORDER BY e.seq)
                  - char_length(e.body::text) AS before
         FROM ${s}.events e
         WHERE e.task_id = $1 AND e.seq > $4::integer
           AND EXISTS (SELECT 1 FROM ${s}.tasks t WHERE t.id = $1 AND t.tenant = $2 AND t.owner = $3)
         ORDER BY e.seq LIMIT $5::integer
       ) page
       WHERE $6::bigint IS NULL OR before < $6::bigint
       ORDER BY seq`,
    ),
    /** Unscoped read for the event bus. $1 id, $2 seq. */
    entryAt: named(
      'entry_at',
      `SELECT seq, body FROM ${s}.events WHERE task_id = $1 AND seq = $2::integer`,
    ),
    /** Unscoped read for the event bus: the last entry of a log. $1 id. */
    lastEntry: named(
      'last_entry',
      `SELECT seq, body FROM ${s}.events WHERE task_id = $1 ORDER BY seq DESC LIMIT 1`,
    ),
    /**
     * The message index entries of a batch of lookups (read-batch.ts): $1 tenants, $2 owners,
     * $3 messageIds; a row per lookup found, `i` its 1-based position.
     */
    findByMessageId: named(
      'find_messages',
      `SELECT q.i::integer AS i, m.task_id, m.fingerprint,
         greatest(0, extract(epoch FROM now() - m.indexed_at) * 1000)::float8 AS age_ms
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS q(tenant, owner, id, i)
       JOIN ${s}.messages m
         ON m.tenant = q.tenant AND m.owner = q.owner AND m.message_id = q.id`,
    ),
    /** $1 id, $2 tenant, $3 owner. Events and message index rows go by ON DELETE CASCADE. */
    delete: named('delete', `DELETE FROM ${s}.tasks WHERE id = $1 AND tenant = $2 AND owner = $3`),
    /** One batch of retention. $1 finished before, $2 batch size. */
    purge: named(
      'purge',
      `DELETE FROM ${s}.tasks WHERE id IN (
         SELECT id FROM ${s}.tasks WHERE finished_at < $1::timestamptz
         ORDER BY finished_at LIMIT $2::integer FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
    ),
  };
}

/** The statements of one schema. */
export type Statements = ReturnType<typeof statements>;
