/**
 * The state machine checks of an append, done without reading the task: the states from which a
 * batch of events is valid go into the UPDATE's WHERE clause, so one statement checks the
 * sequence number and the transition together (TaskProjection's rules, spec §3.1).
 */
import { TASK_STATES, type StreamResponse, type TaskState } from '../../core/schemas/index.js';
import { TaskTransitionError, canTransition, isTerminal } from '../../core/task-state.js';

/** Why `events` cannot follow a task in `from`, or undefined when they can. */
export function transitionProblem(
  from: TaskState,
  events: readonly StreamResponse[],
): string | undefined {
  let state = from;
  for (const event of events) {
    if ('task' in event) return 'a task snapshot can only start a log';
    if (isTerminal(state)) return `the task is ${state}: it can no longer change`;
    if ('statusUpdate' in event) {
      const next = event.statusUpdate.status.state;
      if (!canTransition(state, next)) return `task cannot move from ${state} to ${next}`;
      state = next;
    }
  }
  return undefined;
}

/** The states from which the whole batch is valid (possibly none). */
export function allowedFrom(events: readonly StreamResponse[]): TaskState[] {
  return TASK_STATES.filter((state) => transitionProblem(state, events) === undefined);
}

/** The error an append from `state` gets (the same class TaskProjection throws). */
export function transitionError(
  taskId: string,
  state: TaskState,
  events: readonly StreamResponse[],
): TaskTransitionError {
  const problem = transitionProblem(state, events) ?? 'the events do not fit its state';
  return new TaskTransitionError(`task ${taskId}: ${problem}`);
}
