/**
 * Listing statements (docs/extensions/accounting.md §6): the statements are on the tasks' final
 * status messages, durable in the agent's task store, so ListTasks — scoped to the caller by the
 * server, filtered by context — lists them per caller and per context.
 */
import type { A2AClient } from './client.js';
import type { CallOptions } from '../transport/transport.js';
import type { ListTasksRequest, TaskState } from '../core/schemas/index.js';
import { statementOf } from '../accounting/record.js';
import type { Statement } from '../accounting/schemas.js';
import { withAccountingExtension } from './accounting.js';

/** One task's statement. */
export interface StatementRow {
  taskId: string;
  contextId: string | undefined;
  state: TaskState;
  statement: Statement;
}

/** Every statement the caller may see (optionally in one context), walking all pages. */
export async function listStatements(
  client: A2AClient,
  filter: Pick<ListTasksRequest, 'contextId' | 'status'> = {},
  options: CallOptions = {},
): Promise<StatementRow[]> {
  const rows: StatementRow[] = [];
  let pageToken: string | undefined;
  do {
    const page = await client.listTasks(
      { ...filter, pageSize: 100, historyLength: 0, ...(pageToken ? { pageToken } : {}) },
      withAccountingExtension(options),
    );
    for (const task of page.tasks) {
      const statement = statementOf(task);
      if (statement) {
        rows.push({
          taskId: task.id,
          contextId: task.contextId,
          state: task.status.state,
          statement,
        });
      }
    }
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return rows;
}
