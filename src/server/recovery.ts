/**
 * Taking over a task whose instance stopped while running it (ownership.ts found it and claimed
 * its lease): run the agent again when it declared `recovery: 'resume'`, otherwise record FAILED
 * with a status message that says why, so no client waits forever on a task nobody runs.
 */
import type { Message, StreamResponse, Task } from '../core/schemas/index.js';
import { isSettled } from '../core/task-state.js';
import { ConcurrencyError, type OrphanedTask, type Scope } from '../stores/types.js';
import type { Agent } from './agent.js';
import type { CallContext } from '../core/call-context.js';
import { TaskHandle } from './task-handle.js';
import { positionOf, type TaskLog } from './task-log.js';
import type { TaskRunner } from './task-runner.js';

/** The status message of a task failed by recovery. */
export const NOT_RESUMED_TEXT =
  'The server running this task stopped before it finished; the task was not resumed.';

/** What recovery works with. */
export interface RecoveryDeps {
  /** The one write path of tasks. */
  readonly log: TaskLog;
  readonly runner: TaskRunner;
  readonly agent: Agent;
  readonly logger?: Pick<Console, 'warn' | 'error'> | undefined;
}

/** Resumes or fails one orphaned task this instance has just claimed. */
export async function recoverTask(orphan: OrphanedTask, deps: RecoveryDeps): Promise<void> {
  const { scope, taskId } = orphan;
  // A few rounds at most: each lost race means another writer moved the task on.
  for (let attempt = 0; attempt < 3; attempt++) {
    const record = await deps.log.store.get(scope, taskId);
    if (!record || isSettled(record.task.status.state)) return; // finished or paused meanwhile
    const { task } = record;
    const message = deps.agent.recovery === 'resume' ? lastUserMessage(task) : undefined;
    const from = orphan.previousOwner ? ` from instance ${orphan.previousOwner}` : '';
    deps.logger?.warn(
      `a2a-kit: taking over task ${taskId}${from}, which stopped while ${task.status.state}: ${message ? 'resuming it' : 'marking it failed'}`,
    );
    if (message) {
      await deps.runner.start({
        scope,
        call: callOf(scope),
        message,
        taskId,
        contextId: task.contextId ?? '',
        current: record,
        configuration: undefined,
        metadata: undefined,
        recovered: true,
      });
      return;
    }
    const handle = new TaskHandle(taskId, task.contextId ?? '');
    const failed: StreamResponse = handle.failed(NOT_RESUMED_TEXT);
    try {
      await deps.log.append(scope, taskId, [failed], positionOf(record));
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}

/** The message that started the task's last execution: its last user message. */
function lastUserMessage(task: Task): Message | undefined {
  const history = task.history ?? [];
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role === 'ROLE_USER') return message;
  }
  return undefined;
}

/** The call context of a recovered execution: the task's scope, nothing else is known. */
function callOf(scope: Scope): CallContext {
  return {
    tenant: scope.tenant,
    principal: scope.owner ? { id: scope.owner } : undefined,
  };
}
