/**
 * Ownership leases in the SQLite file (columns `lease_owner`, `lease_expires_at` of `tasks`,
 * schema version 3). Times are milliseconds of this machine's clock, which every process sharing
 * the file also uses. Writes go through the store's group commit (write-batch.ts).
 */
import type Database from 'better-sqlite3';
import type {
  IdleInterruptedTask,
  InterruptedTaskIndex,
  LeaseStore,
  OrphanedTask,
  Scope,
} from '../types.js';
import type { WriteBatch } from './write-batch.js';

type Stmt<P extends unknown[], R = unknown> = Database.Statement<P, R>;

// The interrupted states: waiting for the client (spec §3.1: INPUT_/AUTH_REQUIRED).
const INTERRUPTED = `('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED')`;
// Running = unfinished and not waiting for the client.
const RUNNING = `finished = 0 AND state NOT IN ${INTERRUPTED}`;

interface ClaimParams {
  id: string;
  me: string;
  now: number;
  until: number;
}

interface OrphanRow {
  id: string;
  tenant: string;
  owner: string;
  lease_owner: string | null;
}

/** The statements behind `SqliteTaskStore`'s LeaseStore methods and idle interrupted tasks. */
export class SqliteLeases implements LeaseStore, InterruptedTaskIndex {
  private readonly claimStmt: Stmt<[ClaimParams]>;
  private readonly renewStmt: Stmt<[until: number, id: string, me: string]>;
  private readonly releaseStmt: Stmt<[id: string, me: string]>;
  private readonly expiredStmt: Stmt<[{ now: number; before: number; limit: number }], OrphanRow>;
  private readonly expireStmt: Stmt<[me: string]>;
  private readonly heldStmt: Stmt<[tenant: string, owner: string], { n: number }>;
  /**
   * `PRAGMA data_version` (InterruptedTaskIndex.version): the same while no other connection
   * committed, read once per event-loop turn (the sends of a turn share the read). Only on a
   * connection the store opened itself: through one it was given, other stores of this process
   * may write too, unseen by it.
   */
  readonly version: (() => number) | undefined;
  private readonly idleStmt: Stmt<
    [{ before: number; limit: number }],
    { id: string; tenant: string; owner: string }
  >;

  constructor(
    db: Database.Database,
    /** The store's group commit: lease writes share its transactions. */
    private readonly batch: WriteBatch,
    private readonly clock: () => number = Date.now,
    /** True when the store opened the connection (no other store writes through it). */
    ownConnection = false,
  ) {
    this.claimStmt = db.prepare(
      `UPDATE tasks SET lease_owner = @me, lease_expires_at = @until
       WHERE id = @id AND finished = 0
         AND (lease_owner IS NULL OR lease_owner = @me OR lease_expires_at < @now)`,
    );
    this.renewStmt = db.prepare(
      'UPDATE tasks SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?',
    );
    this.releaseStmt = db.prepare(
      `UPDATE tasks SET lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ? AND lease_owner = ?`,
    );
    // A claimed task expires with its lease; an unclaimed one (its creator died before claiming
    // it) once it has not changed for the grace period.
    this.expiredStmt = db.prepare(
      `SELECT id, tenant, owner, lease_owner FROM tasks
       WHERE ${RUNNING}
         AND (lease_expires_at < @now OR (lease_expires_at IS NULL AND updated_at < @before))
       LIMIT @limit`,
    );
    this.expireStmt = db.prepare(
      `UPDATE tasks SET lease_expires_at = 0
       WHERE finished = 0 AND (lease_owner IS NULL OR lease_owner <> ?)`,
    );
    // Two seeks of the covering index tasks_by_state (tenant, owner, state, …): no table row read.
    this.heldStmt = db.prepare(
      `SELECT COUNT(*) AS n FROM tasks WHERE tenant = ? AND owner = ? AND state IN ${INTERRUPTED}`,
    );
    // Moves when another connection (another process, another store on the file) commits.
    const versionStmt = db.prepare<[], number>('PRAGMA data_version').pluck();
    let turn: number | undefined;
    const forget = () => {
      turn = undefined;
    };
    this.version = ownConnection
      ? () => {
          if (turn === undefined) {
            turn = versionStmt.get() ?? 0;
            setImmediate(forget);
          }
          return turn;
        }
      : undefined;
    this.idleStmt = db.prepare(
      `SELECT id, tenant, owner FROM tasks
       WHERE finished = 0 AND state IN ${INTERRUPTED} AND updated_at <= @before
       ORDER BY updated_at LIMIT @limit`,
    );
  }

  claim(taskId: string, instanceId: string, ttlMs: number): Promise<boolean> {
    return this.batch.run(() => {
      const now = this.clock();
      const params = { id: taskId, me: instanceId, now, until: now + ttlMs };
      return this.claimStmt.run(params).changes === 1;
    });
  }

  async renew(instanceId: string, taskIds: readonly string[], ttlMs: number): Promise<string[]> {
    if (taskIds.length === 0) return [];
    return this.batch.run(() => {
      const until = this.clock() + ttlMs;
      return taskIds.filter((id) => this.renewStmt.run(until, id, instanceId).changes === 1);
    });
  }

  async release(taskId: string, instanceId: string): Promise<void> {
    await this.batch.run(() => this.releaseStmt.run(taskId, instanceId));
  }

  async expired(limit: number, unclaimedMs: number): Promise<OrphanedTask[]> {
    const now = this.clock();
    const params = { now, before: now - unclaimedMs, limit: Math.max(0, limit) };
    return this.expiredStmt.all(params).map((row) => ({
      scope: { tenant: row.tenant, owner: row.owner },
      taskId: row.id,
      previousOwner: row.lease_owner ?? undefined,
    }));
  }

  async idle(idleMs: number, limit: number): Promise<IdleInterruptedTask[]> {
    const params = { before: this.clock() - idleMs, limit: Math.max(0, limit) };
    return this.idleStmt.all(params).map((row) => ({
      scope: { tenant: row.tenant, owner: row.owner },
      taskId: row.id,
    }));
  }

  /** The interrupted tasks of a scope, in one statement (the per-caller cap's count). */
  async held(scope: Scope): Promise<number> {
    return this.heldStmt.get(scope.tenant, scope.owner)?.n ?? 0;
  }

  expireOthers(instanceId: string): Promise<number> {
    return this.batch.run(() => this.expireStmt.run(instanceId).changes);
  }
}
