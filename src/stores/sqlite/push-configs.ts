/**
 * Push notification configs in the SQLite store: one row per (task, config id) carrying the task's
 * scope, written only for a task that exists in the caller's scope and dropped with the task.
 */
import type Database from 'better-sqlite3';
import { A2AError } from '../../core/errors.js';
import type { Scope, StoredPushConfig } from '../types.js';

type Stmt<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** The statements behind `SqliteTaskStore`'s PushConfigStore methods. */
export class SqlitePushConfigs {
  private readonly put: Stmt<[string, string, string, string, string]>;
  private readonly one: Stmt<[string, string, string, string], { config: string }>;
  private readonly page: Stmt<[string, string, string, string, number], { config: string }>;
  private readonly remove: Stmt<[string, string, string, string]>;
  private readonly drop: Stmt<[string]>;
  private readonly dropDeliveries: Stmt<[string]>;

  constructor(db: Database.Database) {
    this.put = db.prepare(
      `INSERT INTO push_configs (task_id, id, tenant, owner, config)
       SELECT id, ?, tenant, owner, ? FROM tasks WHERE id = ? AND tenant = ? AND owner = ?
       ON CONFLICT (task_id, id) DO UPDATE SET config = excluded.config`,
    );
    this.one = db.prepare(
      `SELECT config FROM push_configs WHERE task_id = ? AND id = ? AND tenant = ? AND owner = ?`,
    );
    this.page = db.prepare(
      `SELECT config FROM push_configs WHERE task_id = ? AND tenant = ? AND owner = ? AND id > ?
       ORDER BY id LIMIT ?`,
    );
    this.remove = db.prepare(
      'DELETE FROM push_configs WHERE task_id = ? AND id = ? AND tenant = ? AND owner = ?',
    );
    this.drop = db.prepare('DELETE FROM push_configs WHERE task_id = ?');
    this.dropDeliveries = db.prepare('DELETE FROM push_outbox WHERE task_id = ?');
  }

  /** Creates or replaces a config; TASK_NOT_FOUND when the task is not in the scope. */
  save(scope: Scope, config: StoredPushConfig): void {
    const json = JSON.stringify(config);
    const changed = this.put.run(config.id, json, config.taskId, scope.tenant, scope.owner);
    if (changed.changes === 0) {
      throw new A2AError('TASK_NOT_FOUND', `Task ${config.taskId} not found`, {
        metadata: { taskId: config.taskId },
      });
    }
  }

  /** One config of a task in the scope. */
  get(scope: Scope, taskId: string, id: string): StoredPushConfig | undefined {
    const row = this.one.get(taskId, id, scope.tenant, scope.owner);
    return row && (JSON.parse(row.config) as StoredPushConfig);
  }

  /** The task's configs ordered by id, after `afterId`, at most `limit`. */
  list(scope: Scope, taskId: string, options: { afterId?: string; limit?: number }) {
    return this.page
      .all(taskId, scope.tenant, scope.owner, options.afterId ?? '', options.limit ?? -1)
      .map((row) => JSON.parse(row.config) as StoredPushConfig);
  }

  /** Deletes one config; a missing one is not an error. */
  delete(scope: Scope, taskId: string, id: string): void {
    this.remove.run(taskId, id, scope.tenant, scope.owner);
  }

  /** Deletes a task's configs and deliveries (inside the task's delete or purge transaction). */
  dropTask(taskId: string): void {
    this.drop.run(taskId);
    this.dropDeliveries.run(taskId);
  }
}
