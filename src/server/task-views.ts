/**
 * What GetTask and ListTasks (spec §3.1.3, §3.1.4) answer from the store: a task record or
 * TASK_NOT_FOUND, the task as the caller asked to see it (`historyLength`, `includeArtifacts`),
 * and a ListTasks page that ends early by bytes (`memory.listPageBytes`) so a listing of very
 * large tasks is never a 500: the durable stores stop before reading the tasks past the budget
 * (TaskQuery.maxBytes), and the views are cut again by their own size. A task larger than the
 * budget comes alone on its page (spec §3.1.4 lets a page hold fewer than pageSize tasks).
 */
import { A2AError } from '../core/errors.js';
import { after, type MaybePromise } from '../core/maybe-async.js';
import type { ListTasksRequest, ListTasksResponse, Task } from '../core/schemas/index.js';
import { taskView } from '../core/task-state.js';
import { encodePageToken } from '../stores/paging.js';
import {
  InvalidPageTokenError,
  type Scope,
  type TaskRecord,
  type TaskStore,
} from '../stores/types.js';
import { taskSize } from './event-size.js';

/** The task's record, or TASK_NOT_FOUND (also for a task of another owner or tenant). */
export function taskRecord(
  store: TaskStore,
  scope: Scope,
  taskId: string,
): MaybePromise<TaskRecord> {
  return after(store.get(scope, taskId), (record) => record ?? taskNotFound(taskId));
}

/**
 * The task as GetTask shows it (`historyLength` applied); synchronous when the store is. The
 * blocking send reads it on every call, giving `written` (GetOptions) when it wrote the task.
 */
export function viewTask(
  store: TaskStore,
  scope: Scope,
  taskId: string,
  options: { historyLength?: number | undefined },
  written?: number,
): MaybePromise<Task> {
  return after(
    store.get(scope, taskId, written === undefined ? undefined : { written }),
    (record) => taskView((record ?? taskNotFound(taskId)).task, options),
  );
}

function taskNotFound(taskId: string): never {
  throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
}

/** One ListTasks page: the store's page, cut short once its views pass `maxBytes`. */
export async function listTaskViews(
  store: TaskStore,
  scope: Scope,
  params: ListTasksRequest,
  maxBytes: number,
): Promise<ListTasksResponse> {
  const pageSize = params.pageSize ?? 50;
  let page;
  try {
    page = await store.list(scope, {
      pageSize,
      contextId: params.contextId,
      status: params.status,
      statusTimestampAfter: params.statusTimestampAfter,
      pageToken: params.pageToken,
      maxBytes,
    });
  } catch (error) {
    if (error instanceof InvalidPageTokenError) {
      throw new A2AError('INVALID_PARAMS', error.message, {
        fieldViolations: [{ field: 'pageToken', description: error.message }],
      });
    }
    throw error;
  }
  const options = {
    historyLength: params.historyLength,
    includeArtifacts: params.includeArtifacts ?? false,
  };
  // A page of very large tasks ends early, by bytes: the rest is on the next page.
  const tasks: Task[] = [];
  let bytes = 0;
  let nextPageToken = page.nextPageToken;
  for (const task of page.tasks) {
    const view = taskView(task, options);
    bytes += taskSize(view);
    if (tasks.length > 0 && bytes > maxBytes) {
      nextPageToken = encodePageToken(tasks[tasks.length - 1] as Task);
      break;
    }
    tasks.push(view);
  }
  return { tasks, nextPageToken, pageSize, totalSize: page.totalSize };
}
