/**
 * The events of one burst: what the runner records with one write. Starting from an event the
 * agent yielded, the events it yields without waiting for anything (agent-steps.ts) are checked
 * against the state machine, given the task's ids and collected, up to MAX_BATCH, until one
 * ends the task, is invalid, or the agent waits.
 */
import { A2AError } from '../core/errors.js';
import type { Flow } from '../core/maybe-async.js';
import { now } from '../core/ids.js';
import type { Message, StreamResponse, TaskState } from '../core/schemas/index.js';
import { canTransition, isTerminal } from '../core/task-state.js';
import { withFields } from '../core/with-fields.js';
import type { AgentEvent } from './agent.js';
import { MAX_BATCH, READY_TURNS, type AgentSteps, type Step } from './agent-steps.js';
import { RESOLVED, type Execution } from './execution.js';

/** One burst, ready to be recorded. */
export interface Burst {
  /** The checked events (may be empty when the first one was invalid). */
  readonly batch: StreamResponse[];
  /** The event that could not be recorded (the events before it are still recorded). */
  readonly invalid: { error: unknown } | undefined;
  /** The batch ends the task, or the execution was aborted: nothing more to read. */
  readonly stop: boolean;
  /** The agent's next step, still running. */
  readonly pending: Promise<Step> | undefined;
  /** The last step read when neither `pending` nor `stop`: the agent's end or its error. */
  readonly last: Step;
}

/** Collects the burst that starts with `first` (an event not recorded yet). */
export function* gather(
  exec: Execution,
  steps: AgentSteps,
  first: IteratorYieldResult<AgentEvent>,
): Flow<Burst> {
  const batch: StreamResponse[] = [];
  let state = exec.state;
  let result: Step = first;
  for (;;) {
    try {
      const entry = entryOf(exec, result.value, state);
      batch.push(entry);
      if ('statusUpdate' in entry) state = entry.statusUpdate.status.state;
    } catch (error) {
      return { batch, invalid: { error }, stop: false, pending: undefined, last: result };
    }
    if (isTerminal(state) || exec.abortReason !== undefined) {
      return { batch, invalid: undefined, stop: true, pending: undefined, last: result };
    }
    if (batch.length >= MAX_BATCH) {
      return { batch, invalid: undefined, stop: false, pending: steps.next(), last: result };
    }
    // The agent's next step if it is ready within a few microtask turns (it yields without
    // waiting for I/O), else the promise of it (not waited for here).
    const pending = steps.next();
    for (let turn = 0; turn < READY_TURNS && steps.ready === undefined; turn++) yield RESOLVED;
    const step = steps.ready;
    if (step === undefined) {
      return { batch, invalid: undefined, stop: false, pending, last: result };
    }
    result = step;
    if ('error' in result || result.done) {
      return { batch, invalid: undefined, stop: false, pending: undefined, last: result };
    }
  }
}

/**
 * Checks one agent event (against `state`, the task's state once the events before it are
 * recorded) and gives it the task's ids; an invalid event fails the task.
 */
export function entryOf(exec: Execution, event: AgentEvent, state: TaskState): StreamResponse {
  const { id, contextId } = exec.handle;
  let entry: StreamResponse;
  if (isMessage(event)) {
    entry = { message: withFields(event, { taskId: id, contextId }) };
  } else if ('statusUpdate' in event && event.statusUpdate?.status?.state) {
    const status = event.statusUpdate.status;
    if (!canTransition(state, status.state)) {
      throw new A2AError(
        'INVALID_AGENT_RESPONSE',
        `agent moved the task from ${state} to ${status.state}`,
      );
    }
    entry = {
      statusUpdate: withFields(event.statusUpdate, {
        taskId: id,
        contextId,
        status: withFields(status, { timestamp: status.timestamp ?? now() }),
      }),
    };
  } else if ('artifactUpdate' in event && event.artifactUpdate?.artifact?.parts?.length) {
    entry = { artifactUpdate: withFields(event.artifactUpdate, { taskId: id, contextId }) };
  } else {
    throw new A2AError(
      'INVALID_AGENT_RESPONSE',
      'agent yielded something that is not a message, status or artifact event',
    );
  }
  return entry;
}

export function isMessage(event: AgentEvent): event is Message {
  return (
    typeof (event as Message).messageId === 'string' && Array.isArray((event as Message).parts)
  );
}
