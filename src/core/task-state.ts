/**
 * The task state machine (spec §3.1, §7.6): terminal and interrupted states, the allowed
 * transitions, and the projection of a task from its event log. Terminal tasks never change.
 */
import type { Artifact, Message, StreamResponse, Task, TaskState } from './schemas/index.js';
import { withFields } from './with-fields.js';

/** COMPLETED, FAILED, CANCELED, REJECTED: no transition ever leaves them. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** INPUT_REQUIRED, AUTH_REQUIRED: the task waits for the client. */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** True for COMPLETED, FAILED, CANCELED and REJECTED. */
export function isTerminal(state: TaskState): boolean {
  return TERMINAL_STATES.has(state);
}

/** True for INPUT_REQUIRED and AUTH_REQUIRED. */
export function isInterrupted(state: TaskState): boolean {
  return INTERRUPTED_STATES.has(state);
}

/** True when a blocking call may return: the task is terminal or interrupted (spec §3.2.2). */
export function isSettled(state: TaskState): boolean {
  return TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state);
}

/**
 * Whether a task may move from `from` to `to`. Terminal states are final; SUBMITTED is only
 * entered at creation or when a paused task receives its next message; everything else is allowed
 * (active ⇄ interrupted, any non-terminal → any terminal).
 */
export function canTransition(from: TaskState, to: TaskState): boolean {
  if (TERMINAL_STATES.has(from)) return false;
  if (to === 'TASK_STATE_SUBMITTED')
    return from === 'TASK_STATE_SUBMITTED' || INTERRUPTED_STATES.has(from);
  return true;
}

/**
 * The one batch rule of every store and of the task log: why `events` cannot follow a task in
 * state `from` (a snapshot after the first entry, any change to a terminal task, a forbidden
 * transition), or undefined when the whole batch may be appended. The same checks and messages
 * as {@link TaskProjection.apply}, on the states alone.
 */
export function batchProblem(
  from: TaskState,
  events: readonly StreamResponse[],
): string | undefined {
  let state = from;
  for (const event of events) {
    if ('task' in event) return 'a task snapshot can only start a log';
    if (TERMINAL_STATES.has(state)) return `the task is ${state}: it can no longer change`;
    if ('statusUpdate' in event) {
      const next = event.statusUpdate.status.state;
      if (!canTransition(state, next)) return `task cannot move from ${state} to ${next}`;
      state = next;
    }
  }
  return undefined;
}

/** The state a task in `from` is in once `events` are applied (assumes no batch problem). */
export function stateAfter(from: TaskState, events: readonly StreamResponse[]): TaskState {
  let state = from;
  for (const event of events) if ('statusUpdate' in event) state = event.statusUpdate.status.state;
  return state;
}

/** Thrown when an event would change a task in a way the state machine forbids. */
export class TaskTransitionError extends Error {
  override readonly name = 'TaskTransitionError';
}

/**
 * A task rebuilt from its event log. `apply` costs O(size of the event), never O(size of the
 * task): artifacts are indexed by id and chunks are appended in place. Events are never aliased
 * into the projection, so the log keeps what was actually sent.
 */
export class TaskProjection {
  readonly task: Task;
  /**
   * Artifacts by id, made once the task holds more than {@link SCANNED_ARTIFACTS} (most hold one
   * or none: a few are looked up in the list, still a bounded cost per event).
   */
  private artifactIndex: Map<string, Artifact> | undefined;

  constructor(task: Task) {
    // Object.assign, not a spread with more members: V8 gives each object made that way a map
    // of its own, and every reader of the task (writers, packing) then reads it megamorphically.
    const copy: Task = Object.assign({}, task, { status: task.status });
    if (task.artifacts) copy.artifacts = task.artifacts.map(copyArtifact);
    if (task.history) copy.history = [...task.history];
    this.task = copy;
    if ((this.task.artifacts?.length ?? 0) > SCANNED_ARTIFACTS) this.indexArtifacts();
  }

  /** Applies one log entry; throws {@link TaskTransitionError} on a forbidden change. */
  apply(event: StreamResponse): void {
    if ('task' in event) throw new TaskTransitionError('a task snapshot can only start a log');
    if (isTerminal(this.task.status.state)) {
      throw new TaskTransitionError(
        `task ${this.task.id} is ${this.task.status.state}: it can no longer change`,
      );
    }
    if ('statusUpdate' in event) {
      const { status } = event.statusUpdate;
      if (!canTransition(this.task.status.state, status.state)) {
        throw new TaskTransitionError(
          `task cannot move from ${this.task.status.state} to ${status.state}`,
        );
      }
      this.task.status = status;
      if (status.message) this.addHistory(status.message);
      if (event.statusUpdate.generation) this.task.generation = event.statusUpdate.generation;
      // The update's own `metadata` belongs to that update (spec §4.2.1), not to the Task.
    } else if ('artifactUpdate' in event) {
      const { artifact, append, generation } = event.artifactUpdate;
      if (generation) this.task.generation = generation;
      const existing = this.artifact(artifact.artifactId);
      if (append && existing) {
        for (const p of artifact.parts) existing.parts.push(p);
        if (artifact.metadata) existing.metadata = withFields(existing.metadata, artifact.metadata);
      } else if (existing) {
        const copy = copyArtifact(artifact);
        const list = this.task.artifacts ?? [];
        list[list.indexOf(existing)] = copy;
        this.artifactIndex?.set(copy.artifactId, copy);
      } else {
        const copy = copyArtifact(artifact);
        const list = (this.task.artifacts ??= []);
        list.push(copy);
        if (this.artifactIndex) this.artifactIndex.set(copy.artifactId, copy);
        else if (list.length > SCANNED_ARTIFACTS) this.indexArtifacts();
      }
    } else {
      this.addHistory(event.message);
    }
  }

  /** The task's artifact with this id. */
  private artifact(artifactId: string): Artifact | undefined {
    if (this.artifactIndex) return this.artifactIndex.get(artifactId);
    // From the end: with repeated ids in the created task, the last one is the one a map keeps.
    const list = this.task.artifacts ?? [];
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]?.artifactId === artifactId) return list[i];
    }
    return undefined;
  }

  private indexArtifacts(): void {
    const index = new Map<string, Artifact>();
    for (const a of this.task.artifacts ?? []) index.set(a.artifactId, a);
    this.artifactIndex = index;
  }

  private addHistory(message: Message): void {
    const history = (this.task.history ??= []);
    if (history[history.length - 1]?.messageId !== message.messageId) history.push(message);
  }
}

/** Artifacts of a projection looked up in its list, not a map (TaskProjection). */
const SCANNED_ARTIFACTS = 8;

function copyArtifact(a: Artifact): Artifact {
  return { ...a, parts: [...a.parts] };
}

/**
 * A view of a task limited to its `historyLength` most recent messages (spec §3.2.4: 0 omits
 * `history`, unset means no limit) and without artifacts when `includeArtifacts` is false.
 */
export function taskView(
  task: Task,
  options: { historyLength?: number | undefined; includeArtifacts?: boolean },
): Task {
  const { historyLength, includeArtifacts = true } = options;
  const limitHistory =
    historyLength !== undefined &&
    task.history !== undefined &&
    task.history.length > historyLength;
  if (!limitHistory && includeArtifacts && !(historyLength === 0 && task.history)) return task;
  // Members left out by destructuring, not `delete`: a deleted member turns the copy into a
  // dictionary (slow to read and to stringify).
  let view: Task = task;
  if (historyLength === 0) {
    const { history: _omitted, ...rest } = view;
    view = rest;
  } else if (limitHistory && task.history) {
    view = { ...view, history: task.history.slice(task.history.length - historyLength) };
  }
  if (!includeArtifacts) {
    const { artifacts: _omitted, ...rest } = view;
    view = rest;
  }
  return view;
}
