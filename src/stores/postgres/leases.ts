/**
 * Ownership leases in PostgreSQL (columns `lease_owner`, `lease_expires_at` of `tasks`, schema
 * version 3). Every time is the database server's `now()`, so instances on machines whose clocks
 * disagree still agree on when a lease expired. One statement per call.
 */
import type { Pool, QueryResultRow } from 'pg';
import type {
  IdleInterruptedTask,
  InterruptedTaskIndex,
  LeaseStore,
  OrphanedTask,
  Scope,
} from '../types.js';
import { INTERRUPTED } from './migrations.js';
import { ReadBatch } from './read-batch.js';
import { statementName, type Statement } from './statements.js';
import { readQuery } from './connection.js';

// Running = unfinished and not waiting for the client (spec §3.1: INPUT_/AUTH_REQUIRED).
const RUNNING = `finished_at IS NULL
  AND state NOT IN ('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED')`;

/** The lease statements of one schema `s` (already quoted); `schema` is the raw name. */
function leaseStatements(schema: string, s: string) {
  const named = (name: string, text: string): Statement => ({
    name: statementName(schema, name),
    text,
  });
  const until = `now() + $3::integer * interval '1 millisecond'`;
  return {
    /** $1 id, $2 instance, $3 ttl ms. */
    claim: named(
      'lease_claim',
      `UPDATE ${s}.tasks SET lease_owner = $2, lease_expires_at = ${until}
       WHERE id = $1 AND finished_at IS NULL
         AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at < now())
       RETURNING id`,
    ),
    /** $1 ids, $2 instance, $3 ttl ms. */
    renew: named(
      'lease_renew',
      `UPDATE ${s}.tasks SET lease_expires_at = ${until}
       WHERE id = ANY($1::text[]) AND lease_owner = $2
       RETURNING id`,
    ),
    /** $1 id, $2 instance. */
    release: named(
      'lease_release',
      `UPDATE ${s}.tasks SET lease_owner = NULL, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2`,
    ),
    /** $1 limit, $2 unclaimed ms. A task nobody claimed is orphaned once unchanged that long. */
    expired: named(
      'lease_expired',
      `SELECT id, tenant, owner, lease_owner FROM ${s}.tasks
       WHERE ${RUNNING}
         AND (lease_expires_at < now()
           OR (lease_expires_at IS NULL
             AND updated_at < now() - $2::integer * interval '1 millisecond'))
       LIMIT $1::integer`,
    ),
    /** $1 idle ms, $2 limit. Interrupted tasks unchanged that long, on the database's clock. */
    idle: named(
      'interrupted_idle',
      `SELECT id, tenant, owner FROM ${s}.tasks
       WHERE finished_at IS NULL
         AND state IN ('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED')
         AND updated_at <= now() - $1::bigint * interval '1 millisecond'
       ORDER BY updated_at LIMIT $2::integer`,
    ),
    /**
     * Interrupted tasks per scope, for a batch of scopes (read-batch.ts): $1 tenants, $2 owners;
     * each count read through the partial index tasks_interrupted (version 9).
     */
    held: named(
      'interrupted_held',
      `SELECT q.i::integer AS i, (SELECT count(*)::integer FROM ${s}.tasks t
         WHERE t.tenant = q.tenant AND t.owner = q.owner AND t.${INTERRUPTED}) AS n
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS q(tenant, owner, i)`,
    ),
    /** $1 instance. */
    expireOthers: named(
      'lease_expire_others',
      `UPDATE ${s}.tasks SET lease_expires_at = '-infinity'
       WHERE finished_at IS NULL AND lease_owner IS DISTINCT FROM $1`,
    ),
  };
}

interface OrphanRow {
  id: string;
  tenant: string;
  owner: string;
  lease_owner: string | null;
}

/** The queries behind `PostgresTaskStore`'s lease store and idle interrupted tasks. */
export class PostgresLeases implements LeaseStore, InterruptedTaskIndex {
  private readonly sql: ReturnType<typeof leaseStatements>;
  private readonly counts = new ReadBatch<Scope, number>((scopes) => this.countHeld(scopes));

  constructor(
    private readonly pool: Pool,
    schema: string,
    quoted: string,
  ) {
    this.sql = leaseStatements(schema, quoted);
  }

  async claim(taskId: string, instanceId: string, ttlMs: number): Promise<boolean> {
    const { rowCount } = await this.run(this.sql.claim, [taskId, instanceId, ms(ttlMs)]);
    return rowCount === 1;
  }

  async renew(instanceId: string, taskIds: readonly string[], ttlMs: number): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const { rows } = await this.run<{ id: string }>(this.sql.renew, [
      taskIds,
      instanceId,
      ms(ttlMs),
    ]);
    return rows.map((r) => r.id);
  }

  async release(taskId: string, instanceId: string): Promise<void> {
    await this.run(this.sql.release, [taskId, instanceId]);
  }

  async expired(limit: number, unclaimedMs: number): Promise<OrphanedTask[]> {
    const { rows } = await this.run<OrphanRow>(this.sql.expired, [
      Math.max(0, Math.floor(limit)),
      ms(unclaimedMs),
    ]);
    return rows.map((row) => ({
      scope: { tenant: row.tenant, owner: row.owner },
      taskId: row.id,
      previousOwner: row.lease_owner ?? undefined,
    }));
  }

  async idle(idleMs: number, limit: number): Promise<IdleInterruptedTask[]> {
    const { rows } = await this.read<{ id: string; tenant: string; owner: string }>(this.sql.idle, [
      Math.max(0, Math.round(idleMs)),
      Math.max(0, Math.floor(limit)),
    ]);
    return rows.map((row) => ({ scope: { tenant: row.tenant, owner: row.owner }, taskId: row.id }));
  }

  held(scope: Scope): Promise<number> {
    return this.counts.read(scope);
  }

  /** One batch of counts (see read-batch.ts). */
  private async countHeld(scopes: readonly Scope[]): Promise<number[]> {
    const { rows } = await this.read<{ i: number; n: number }>(this.sql.held, [
      scopes.map((s) => s.tenant),
      scopes.map((s) => s.owner),
    ]);
    const counts = scopes.map(() => 0);
    for (const row of rows) counts[row.i - 1] = row.n;
    return counts;
  }

  async expireOthers(instanceId: string): Promise<number> {
    return (await this.run(this.sql.expireOthers, [instanceId])).rowCount ?? 0;
  }

  private run<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
    return this.pool.query<R>({ name: statement.name, text: statement.text, values });
  }

  /** A read-only statement, run again if the server ended its connection (connection.ts). */
  private read<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
    return readQuery<R>(this.pool, { name: statement.name, text: statement.text, values });
  }
}

/** A millisecond count as a PostgreSQL integer parameter. */
function ms(value: number): number {
  return Math.max(0, Math.min(2_147_483_647, Math.round(value)));
}
