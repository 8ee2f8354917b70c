/** Push notification configs in PostgreSQL: beside their task, deleted with it (ON DELETE CASCADE). */
import type { Pool, QueryResultRow } from 'pg';
import { A2AError } from '../../core/errors.js';
import type { Scope, StoredPushConfig } from '../types.js';
import type { PushStatements } from './push-statements.js';
import type { Statement } from './statements.js';

/** The queries behind `PostgresTaskStore`'s PushConfigStore methods. */
export class PostgresPushConfigs {
  constructor(
    private readonly pool: Pool,
    private readonly sql: PushStatements,
  ) {}

  /** Creates or replaces a config; TASK_NOT_FOUND when the task is not in the scope. */
  async put(scope: Scope, config: StoredPushConfig): Promise<void> {
    const { rows } = await this.run(this.sql.putConfig, [
      config.taskId,
      scope.tenant,
      scope.owner,
      config.id,
      JSON.stringify(config),
    ]);
    if (rows.length === 0) {
      throw new A2AError('TASK_NOT_FOUND', `Task ${config.taskId} not found`, {
        metadata: { taskId: config.taskId },
      });
    }
  }

  /** One config of a task in the scope. */
  async get(scope: Scope, taskId: string, id: string): Promise<StoredPushConfig | undefined> {
    const { rows } = await this.run<{ config: StoredPushConfig }>(this.sql.getConfig, [
      taskId,
      scope.tenant,
      scope.owner,
      id,
    ]);
    return rows[0]?.config;
  }

  /** The task's configs ordered by id, after `afterId`, at most `limit`. */
  async list(
    scope: Scope,
    taskId: string,
    options: { afterId?: string; limit?: number },
  ): Promise<StoredPushConfig[]> {
    const { rows } = await this.run<{ config: StoredPushConfig }>(this.sql.listConfigs, [
      taskId,
      scope.tenant,
      scope.owner,
      options.afterId ?? '',
      options.limit ?? null,
    ]);
    return rows.map((r) => r.config);
  }

  /** Deletes one config and its pending deliveries; a missing one is not an error. */
  async delete(scope: Scope, taskId: string, id: string): Promise<void> {
    await this.run(this.sql.deleteConfig, [taskId, scope.tenant, scope.owner, id]);
  }

  private run<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
    return this.pool.query<R>({ name: statement.name, text: statement.text, values });
  }
}
