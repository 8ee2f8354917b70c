/**
 * The push outbox in PostgreSQL, shared by every instance of an agent: claims take rows with
 * `FOR UPDATE SKIP LOCKED` and hold them under a lease (database clock), so instances split the
 * work, a dead instance's claims expire and are taken over, and only the oldest pending delivery
 * of a (task, config) pair is ever claimable, so order holds through retries.
 */
import type { Pool, QueryResultRow } from 'pg';
import type {
  ClaimRef,
  ClaimedDelivery,
  NewDelivery,
  PushOutbox,
  StoredDelivery,
} from '../types.js';
import type { PushStatements } from './push-statements.js';
import type { Statement } from './statements.js';
import { carrier } from '../carrier.js';

interface Row {
  id: string;
  task_id: string;
  config_id: string;
  tenant: string;
  owner: string;
  seq: number;
  body: string;
  trace: string | null;
  attempt: number;
}

/** A PushOutbox in a2a-kit's PostgreSQL schema; `PostgresTaskStore#pushOutbox()` returns one. */
export class PostgresPushOutbox implements PushOutbox {
  constructor(
    private readonly pool: Pool,
    private readonly sql: PushStatements,
  ) {}

  /** Deliveries whose config was deleted meanwhile are skipped (spec §3.1.10). */
  async enqueue(deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.run(this.sql.enqueue, [
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.taskId),
      deliveries.map((d) => d.configId),
      deliveries.map((d) => d.seq),
      deliveries.map((d) => d.body),
      deliveries.map((d) => (d.trace ? JSON.stringify(d.trace) : null)),
    ]);
  }

  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const { rows } = await this.run<Row & { claim: string }>(this.sql.claim, [
      Math.max(0, Math.floor(limit)),
      Math.max(0, Math.round(leaseMs)),
    ]);
    return rows.map((row) => ({ ...delivery(row), attempt: row.attempt, claim: row.claim }));
  }

  async complete(ref: ClaimRef): Promise<void> {
    await this.run(this.sql.complete, [ref.id, ref.claim]);
  }

  async retry(ref: ClaimRef, delayMs: number, error: string): Promise<void> {
    await this.run(this.sql.retry, [ref.id, ref.claim, error, Math.max(0, Math.round(delayMs))]);
  }

  async fail(ref: ClaimRef, error: string): Promise<void> {
    await this.run(this.sql.fail, [ref.id, ref.claim, error]);
  }

  async release(ref: ClaimRef): Promise<void> {
    await this.run(this.sql.release, [ref.id, ref.claim]);
  }

  async list(taskId: string): Promise<StoredDelivery[]> {
    const { rows } = await this.run<
      Row & { state: string; last_error: string | null; next_attempt_at: number }
    >(this.sql.list, [taskId]);
    return rows.map((row) => ({
      ...delivery(row),
      attempt: row.attempt,
      state: row.state === 'failed' ? 'failed' : 'pending',
      nextAttemptAt: Math.round(row.next_attempt_at),
      ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    }));
  }

  private run<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
    return this.pool.query<R>({ name: statement.name, text: statement.text, values });
  }
}

function delivery(row: Row): NewDelivery {
  return {
    id: row.id,
    scope: { tenant: row.tenant, owner: row.owner },
    taskId: row.task_id,
    configId: row.config_id,
    seq: row.seq,
    body: row.body,
    ...carrier(row.trace),
  };
}
