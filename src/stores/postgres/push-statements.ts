/**
 * The SQL of push configs and of the push outbox for one schema `s` (already quoted). Values are
 * always parameters. Claiming uses `FOR UPDATE SKIP LOCKED` plus a lease, so several instances
 * share the deliveries without waiting on each other or delivering one twice while it is leased.
 */
import { statementName, type Statement } from './statements.js';

/** The push statements of one schema; `schema` is the raw name. */
export function pushStatements(schema: string, s: string) {
  const named = (name: string, text: string): Statement => ({
    name: statementName(schema, name),
    text,
  });
  const columns = `id, task_id, config_id, tenant, owner, seq, body, trace, attempt, state, last_error,
    (extract(epoch FROM next_attempt_at) * 1000)::float8 AS next_attempt_at`;
  return {
    /** $1 task id, $2 tenant, $3 owner, $4 config id, $5 config json. Nothing when no such task. */
    putConfig: named(
      'push_put',
      `INSERT INTO ${s}.push_configs (task_id, id, tenant, owner, config)
       SELECT id, $4, tenant, owner, $5::json FROM ${s}.tasks
       WHERE id = $1 AND tenant = $2 AND owner = $3
       ON CONFLICT (task_id, id) DO UPDATE SET config = EXCLUDED.config
       RETURNING id`,
    ),
    /** $1 task id, $2 tenant, $3 owner, $4 config id. */
    getConfig: named(
      'push_get',
      `SELECT config FROM ${s}.push_configs
       WHERE task_id = $1 AND tenant = $2 AND owner = $3 AND id = $4`,
    ),
    /** $1 task id, $2 tenant, $3 owner, $4 after id, $5 limit (null: all). */
    listConfigs: named(
      'push_list',
      `SELECT config FROM ${s}.push_configs
       WHERE task_id = $1 AND tenant = $2 AND owner = $3 AND id > $4
       ORDER BY id LIMIT $5::integer`,
    ),
    /** $1 task id, $2 tenant, $3 owner, $4 config id. Its deliveries go by ON DELETE CASCADE. */
    deleteConfig: named(
      'push_delete',
      `DELETE FROM ${s}.push_configs WHERE task_id = $1 AND tenant = $2 AND owner = $3 AND id = $4`,
    ),
    /**
     * Deliveries for configs that (still) exist, scope taken from the config; a repeated
     * (task, config, seq) is skipped. $1 ids, $2 task ids, $3 config ids, $4 seqs, $5 bodies,
     * $6 trace contexts (JSON or null).
     */
    enqueue: named(
      'push_enqueue',
      `INSERT INTO ${s}.push_outbox (id, task_id, config_id, tenant, owner, seq, body, trace)
       SELECT d.id, d.task_id, d.config_id, c.tenant, c.owner, d.seq, d.body, d.trace
       FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::text[])
         AS d(id, task_id, config_id, seq, body, trace)
       JOIN ${s}.push_configs c ON c.task_id = d.task_id COLLATE "C" AND c.id = d.config_id COLLATE "C"
       ON CONFLICT DO NOTHING`,
    ),
    /**
     * Leases up to $1 due deliveries for $2 ms: pending, due, not leased, and the oldest pending
     * one of their (task, config) pair. Rows another instance is claiming are skipped.
     */
    claim: named(
      'push_claim',
      `WITH due AS (
         SELECT o.id FROM ${s}.push_outbox o
         WHERE o.state = 'pending' AND o.next_attempt_at <= now()
           AND (o.lease_until IS NULL OR o.lease_until <= now())
           AND NOT EXISTS (SELECT 1 FROM ${s}.push_outbox p
             WHERE p.task_id = o.task_id AND p.config_id = o.config_id
               AND p.state = 'pending' AND p.seq < o.seq)
         ORDER BY o.next_attempt_at
         LIMIT $1::integer
         FOR UPDATE SKIP LOCKED
       )
       UPDATE ${s}.push_outbox o
       SET lease_until = now() + $2::integer * interval '1 millisecond',
           claim = gen_random_uuid()::text
       FROM due WHERE o.id = due.id
       RETURNING o.id, o.task_id, o.config_id, o.tenant, o.owner, o.seq, o.body, o.trace,
         o.attempt, o.claim`,
    ),
    /** $1 id, $2 claim. */
    complete: named('push_complete', `DELETE FROM ${s}.push_outbox WHERE id = $1 AND claim = $2`),
    /** $1 id, $2 claim, $3 error, $4 delay ms. */
    retry: named(
      'push_retry',
      `UPDATE ${s}.push_outbox SET attempt = attempt + 1, last_error = $3,
         next_attempt_at = now() + $4::integer * interval '1 millisecond',
         lease_until = NULL, claim = NULL
       WHERE id = $1 AND claim = $2`,
    ),
    /** $1 id, $2 claim, $3 error. */
    fail: named(
      'push_fail',
      `UPDATE ${s}.push_outbox SET attempt = attempt + 1, last_error = $3, state = 'failed',
         lease_until = NULL, claim = NULL
       WHERE id = $1 AND claim = $2`,
    ),
    /** $1 id, $2 claim. */
    release: named(
      'push_release',
      `UPDATE ${s}.push_outbox SET lease_until = NULL, claim = NULL WHERE id = $1 AND claim = $2`,
    ),
    /** $1 task id. */
    list: named(
      'push_deliveries',
      `SELECT ${columns} FROM ${s}.push_outbox WHERE task_id = $1 ORDER BY config_id, seq`,
    ),
  };
}

/** The push statements of one schema. */
export type PushStatements = ReturnType<typeof pushStatements>;
