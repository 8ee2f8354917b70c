/**
 * The push outbox in the SQLite file: deliveries survive a restart or crash of the process. One
 * process claims at a time (IMMEDIATE transactions); only the oldest pending delivery of a
 * (task, config) pair is claimable, so a pair's order holds through retries.
 */
import type Database from 'better-sqlite3';
import type {
  ClaimRef,
  ClaimedDelivery,
  NewDelivery,
  PushOutbox,
  StoredDelivery,
  TraceCarrier,
} from '../types.js';
import { carrier } from '../carrier.js';

type Stmt<P extends unknown[], R = unknown> = Database.Statement<P, R>;

interface Row {
  id: string;
  task_id: string;
  config_id: string;
  tenant: string;
  owner: string;
  seq: number;
  body: string;
  attempt: number;
  state: string;
  next_attempt_at: number;
  last_error: string | null;
  trace: string | null;
}

const COLUMNS = `id, task_id, config_id, tenant, owner, seq, body, attempt, state, next_attempt_at,
  last_error, trace`;

/** A PushOutbox in a2a-kit's SQLite schema; `SqliteTaskStore#pushOutbox()` returns one. */
export class SqlitePushOutbox implements PushOutbox {
  private readonly insert: Stmt<[NewRow]>;
  private readonly due: Stmt<[{ now: number; limit: number }], Row>;
  private readonly lease: Stmt<[until: number, claim: string, id: string]>;
  private readonly done: Stmt<[id: string, claim: string]>;
  private readonly again: Stmt<[error: string, at: number, id: string, claim: string]>;
  private readonly giveUp: Stmt<[error: string, id: string, claim: string]>;
  private readonly free: Stmt<[id: string, claim: string]>;
  private readonly byTask: Stmt<[taskId: string], Row>;
  private readonly fanout: Stmt<
    [{ taskId: string; seq: number; body: string; now: number; trace: string | null }]
  >;
  private readonly enqueueTx;
  private readonly claimTx;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number = Date.now,
  ) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO push_outbox
         (id, task_id, config_id, tenant, owner, seq, body, next_attempt_at, trace)
       VALUES (@id, @taskId, @configId, @tenant, @owner, @seq, @body, @now, @trace)`,
    );
    this.due = db.prepare(
      `SELECT ${COLUMNS} FROM push_outbox o
       WHERE o.state = 'pending' AND o.next_attempt_at <= @now AND o.lease_until <= @now
         AND NOT EXISTS (SELECT 1 FROM push_outbox p WHERE p.task_id = o.task_id
           AND p.config_id = o.config_id AND p.state = 'pending' AND p.seq < o.seq)
       ORDER BY o.next_attempt_at LIMIT @limit`,
    );
    this.lease = db.prepare('UPDATE push_outbox SET lease_until = ?, claim = ? WHERE id = ?');
    this.done = db.prepare('DELETE FROM push_outbox WHERE id = ? AND claim = ?');
    this.again = db.prepare(
      `UPDATE push_outbox SET attempt = attempt + 1, last_error = ?, next_attempt_at = ?,
         lease_until = 0, claim = NULL WHERE id = ? AND claim = ?`,
    );
    this.giveUp = db.prepare(
      `UPDATE push_outbox SET attempt = attempt + 1, last_error = ?, state = 'failed',
         lease_until = 0, claim = NULL WHERE id = ? AND claim = ?`,
    );
    this.free = db.prepare(
      'UPDATE push_outbox SET lease_until = 0, claim = NULL WHERE id = ? AND claim = ?',
    );
    this.byTask = db.prepare(
      `SELECT ${COLUMNS} FROM push_outbox WHERE task_id = ? ORDER BY config_id, seq`,
    );
    // One delivery per config of the task; the config row carries the task's scope.
    this.fanout = db.prepare(
      `INSERT OR IGNORE INTO push_outbox
         (id, task_id, config_id, tenant, owner, seq, body, next_attempt_at, trace)
       SELECT lower(hex(randomblob(16))), task_id, id, tenant, owner, @seq, @body, @now, @trace
       FROM push_configs WHERE task_id = @taskId`,
    );
    this.enqueueTx = db.transaction((rows: readonly NewRow[]) => {
      for (const row of rows) this.insert.run(row);
    });
    this.claimTx = db.transaction((limit: number, leaseMs: number): ClaimedDelivery[] => {
      const now = this.clock();
      return this.due.all({ now, limit: Math.max(0, limit) }).map((row) => {
        const claim = globalThis.crypto.randomUUID();
        this.lease.run(now + leaseMs, claim, row.id);
        return { ...delivery(row), attempt: row.attempt, claim };
      });
    });
  }

  async enqueue(deliveries: readonly NewDelivery[]): Promise<void> {
    const now = this.clock();
    this.enqueueTx.immediate(
      deliveries.map((d) => ({
        id: d.id,
        taskId: d.taskId,
        configId: d.configId,
        tenant: d.scope.tenant,
        owner: d.scope.owner,
        seq: d.seq,
        body: d.body,
        now,
        trace: d.trace ? JSON.stringify(d.trace) : null,
      })),
    );
  }

  /**
   * Enqueues one delivery of a log entry per push config of its task, inside the caller's
   * transaction (the append that writes the entry): both are committed, or neither. Returns
   * how many it enqueued.
   */
  fanOut(taskId: string, seq: number, body: string, trace?: TraceCarrier): number {
    const carried = trace ? JSON.stringify(trace) : null;
    return this.fanout.run({ taskId, seq, body, now: this.clock(), trace: carried }).changes;
  }

  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.claimTx.immediate(limit, leaseMs);
  }

  async complete(ref: ClaimRef): Promise<void> {
    this.done.run(ref.id, ref.claim);
  }

  async retry(ref: ClaimRef, delayMs: number, error: string): Promise<void> {
    this.again.run(error, this.clock() + Math.max(0, delayMs), ref.id, ref.claim);
  }

  async fail(ref: ClaimRef, error: string): Promise<void> {
    this.giveUp.run(error, ref.id, ref.claim);
  }

  async release(ref: ClaimRef): Promise<void> {
    this.free.run(ref.id, ref.claim);
  }

  async list(taskId: string): Promise<StoredDelivery[]> {
    if (!this.db.open) return [];
    return this.byTask.all(taskId).map((row) => ({
      ...delivery(row),
      attempt: row.attempt,
      state: row.state === 'failed' ? 'failed' : 'pending',
      nextAttemptAt: row.next_attempt_at,
      ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    }));
  }
}

interface NewRow {
  id: string;
  taskId: string;
  configId: string;
  tenant: string;
  owner: string;
  seq: number;
  body: string;
  now: number;
  trace: string | null;
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

