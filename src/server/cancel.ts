/**
 * CancelTask (spec §3.1.5) on the write path: a task this process runs is canceled through its
 * runner (cancel wins over what the agent yields next); any other unfinished task gets its
 * CANCELED status appended by the task log, looking again when another writer moved it on. A
 * repeated cancel returns the canceled task; another terminal state is TASK_NOT_CANCELABLE.
 */
import { A2AError } from '../core/errors.js';
import type { Task, TaskState } from '../core/schemas/index.js';
import { isTerminal } from '../core/task-state.js';
import { ConcurrencyError, type Scope } from '../stores/types.js';
import { positionOf, type TaskLog } from './task-log.js';
import type { TaskRunner } from './task-runner.js';
import { taskRecord, viewTask } from './task-views.js';

/** Cancels `taskId` in `scope`; the task as it is then. */
export async function cancelTask(
  log: TaskLog,
  runner: TaskRunner,
  scope: Scope,
  taskId: string,
): Promise<Task> {
  const { store } = log;
  for (;;) {
    const record = await taskRecord(store, scope, taskId);
    const state = record.task.status.state;
    if (state === 'TASK_STATE_CANCELED') return record.task;
    if (isTerminal(state)) {
      throw new A2AError(
        'TASK_NOT_CANCELABLE',
        `Task ${taskId} is ${state} and can no longer be canceled`,
        { metadata: { taskId, state } },
      );
    }
    if (await runner.cancel(taskId)) return viewTask(store, scope, taskId, {});
    const { task } = record;
    const canceled = {
      statusUpdate: {
        taskId: task.id,
        contextId: task.contextId ?? '',
        status: { state: 'TASK_STATE_CANCELED' as TaskState, timestamp: new Date().toISOString() },
      },
    };
    try {
      await log.append(scope, task.id, [canceled], positionOf(record));
      return await viewTask(store, scope, taskId, {});
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      // Another writer moved the task on: look again.
    }
  }
}
