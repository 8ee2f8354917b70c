/**
 * The state machine checks of an append, done without reading the task: the states from which a
 * batch of events is valid go into the UPDATE's WHERE clause, so one statement checks the
 * sequence number and the transition together (`batchProblem` of core/task-state.ts, spec §3.1).
 */
import { TASK_STATES, type StreamResponse, type TaskState } from '../../core/schemas/index.js';
import { TaskTransitionError, batchProblem } from '../../core/task-state.js';

/** The states from which the whole batch is valid (possibly none). */
export function allowedFrom(events: readonly StreamResponse[]): TaskState[] {
  return TASK_STATES.filter((state) => batchProblem(state, events) === undefined);
}

/** The error an append from `state` gets (the same class TaskProjection throws). */
export function transitionError(
  taskId: string,
  state: TaskState,
  events: readonly StreamResponse[],
): TaskTransitionError {
  const problem = batchProblem(state, events) ?? 'the events do not fit its state';
  return new TaskTransitionError(`task ${taskId}: ${problem}`);
}
