/**
 * Runs the agent for a task: one writer per task in this process. Every event the agent yields
 * is checked against the state machine, appended to the store's log (optimistic concurrency on
 * the sequence number), then published to the bus. Cancellation aborts the agent's signal and
 * records CANCELED; an agent that throws fails the task with a status message. With ownership
 * (ownership.ts) each execution holds its task's lease and halts, writing nothing more, when
 * another instance finished the task or took it over.
 */
import { A2AError } from '../core/errors.js';
import { now } from '../core/ids.js';
import { agentMessage } from '../core/parts.js';
import type { Message, StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { canTransition, isInterrupted, isTerminal } from '../core/task-state.js';
import type { EventBus, LogEntry, Scope, TaskStore } from '../stores/types.js';
import { ConcurrencyError } from '../stores/types.js';
import type { Agent, AgentEvent, ExecutionContext } from './agent.js';
import type { CallContext } from './context.js';
import { busyElsewhere, reportConflict, type TaskOwnership } from './ownership.js';
import { TaskHandle } from './task-handle.js';

/** What starting an execution produced: a stateless reply, or a task that now exists. */
export type StartResult =
  | { message: Message }
  | {
      taskId: string;
      seq: number;
      /** true when this call created the task */
      created: boolean;
      /** For a resumed task: the task as of `seq`, right after the answer was recorded. */
      resumed?: Task;
    };

/** Everything needed to start or resume an execution. */
export interface StartOptions {
  scope: Scope;
  call: CallContext;
  message: Message;
  taskId: string;
  contextId: string;
  /** The paused task being resumed (undefined for a new task). */
  current?: { task: Task; seq: number } | undefined;
  configuration: ExecutionContext['configuration'];
  metadata: ExecutionContext['metadata'];
  /** Runs once a new task exists, before any agent event is recorded (inline push configs). */
  onCreated?: ((taskId: string) => Promise<void>) | undefined;
  /** Taken over from a stopped instance: `current` is the task as recorded, `message` its last. */
  recovered?: boolean | undefined;
}

/** Options of the runner. */
export interface TaskRunnerOptions {
  store: TaskStore;
  bus: EventBus;
  agent: Agent;
  /** Put the agent's own error messages in FAILED statuses (default false: internals stay hidden). */
  exposeErrors?: boolean;
  logger?: Pick<Console, 'warn' | 'error'> | undefined;
  /** Called with every batch of entries once durable and published (push notifications). */
  onAppend?: ((scope: Scope, taskId: string, entries: LogEntry[]) => void) | undefined;
  /** Leases and cross-instance halts, when several instances share the store. */
  ownership?: TaskOwnership | undefined;
}

interface Execution {
  readonly scope: Scope;
  readonly handle: TaskHandle;
  readonly abort: AbortController;
  seq: number;
  state: TaskState;
  writes: Promise<unknown>;
  done: Promise<void>;
  /** Another instance finished the task or holds its lease: write nothing more. */
  stopped: boolean;
}

/** Starts, resumes and cancels agent executions in this process. */
export class TaskRunner {
  private readonly running = new Map<string, Execution>();

  constructor(private readonly options: TaskRunnerOptions) {}

  /** True while this process runs the agent for the task. */
  isRunning(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /** Starts the agent for a new task or resumes a paused one; resolves once the outcome is known. */
  async start(start: StartOptions): Promise<StartResult> {
    const { scope, message, taskId, contextId, current } = start;
    const handle = new TaskHandle(taskId, contextId);
    const abort = new AbortController();
    const userMessage: Message = { ...message, taskId, contextId };
    // The agent sees the task as it was before this message (stores may hand out live objects).
    const before = current && snapshot(current.task);
    const context: ExecutionContext = {
      message: userMessage,
      task: handle,
      current: before,
      signal: abort.signal,
      recovered: start.recovered ?? false,
      call: start.call,
      configuration: start.configuration,
      metadata: start.metadata,
    };
    const exec: Execution = {
      scope,
      handle,
      abort,
      seq: 0,
      state: 'TASK_STATE_SUBMITTED',
      writes: Promise.resolve(),
      done: Promise.resolve(),
      stopped: false,
    };

    let iterator: AsyncIterator<AgentEvent>;
    let first: IteratorResult<AgentEvent> | { error: unknown };
    let resumed: Task | undefined;
    if (current && before) {
      // Resume: record the user's answer and leave the interrupted state before the agent runs.
      exec.seq = current.seq;
      exec.state = current.task.status.state;
      this.running.set(taskId, exec);
      const submitted = handle.submitted();
      try {
        if (!(await this.own(exec))) throw busyElsewhere(taskId);
        if (!start.recovered) {
          await this.write(exec, [{ message: userMessage }, submitted], message.messageId);
          resumed = {
            ...before,
            status: submitted.statusUpdate.status,
            history: [...(before.history ?? []), userMessage],
          };
        }
      } catch (error) {
        this.running.delete(taskId);
        await this.options.ownership?.release(taskId, exec.state);
        throw error;
      }
      iterator = this.options.agent.execute(context)[Symbol.asyncIterator]();
      first = await next(iterator);
    } else {
      iterator = this.options.agent.execute(context)[Symbol.asyncIterator]();
      first = await next(iterator);
      if (!('error' in first) && !first.done && isMessage(first.value)) {
        void iterator.return?.().catch(() => undefined);
        return { message: { ...first.value, contextId: first.value.contextId || contextId } };
      }
      const task: Task = {
        id: taskId,
        contextId,
        status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
        history: [userMessage],
      };
      await this.options.store.create(scope, task, { messageId: message.messageId });
      exec.seq = 1;
      this.running.set(taskId, exec);
      try {
        await this.own(exec); // a new task has no other owner
        await start.onCreated?.(taskId);
      } catch (error) {
        first = { error };
      }
      await this.options.bus.publish(taskId, { seq: 1, event: { task } });
      this.options.onAppend?.(scope, taskId, [{ seq: 1, event: { task } }]);
    }
    const seq = exec.seq;
    exec.done = this.drive(exec, iterator, first);
    return resumed
      ? { taskId, seq, created: false, resumed }
      : { taskId, seq, created: current === undefined };
  }

  /**
   * Cancels a task this process runs: aborts the agent's signal and records CANCELED (cancel
   * wins over anything the agent yields afterwards). Returns false when it does not run here.
   */
  async cancel(taskId: string, reason?: string): Promise<boolean> {
    const exec = this.running.get(taskId);
    if (!exec) return false;
    if (!isTerminal(exec.state) && !exec.stopped) {
      exec.abort.abort(new A2AError('TASK_NOT_CANCELABLE', 'canceled'));
      try {
        await this.write(exec, [exec.handle.canceled(reason)]);
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        this.halt(exec);
        return false; // another writer moved the task on: the caller looks at it again
      }
    }
    return true;
  }

  /** Waits for every execution in this process to end (for graceful shutdown and tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()].map((e) => e.done));
  }

  private async drive(
    exec: Execution,
    iterator: AsyncIterator<AgentEvent>,
    first: IteratorResult<AgentEvent> | { error: unknown },
  ): Promise<void> {
    const taskId = exec.handle.id;
    let result = first;
    try {
      while (!('error' in result) && !result.done && !isTerminal(exec.state)) {
        await this.accept(exec, result.value);
        if (isTerminal(exec.state) || exec.abort.signal.aborted) break;
        result = await next(iterator);
      }
      if ('error' in result) throw result.error;
      if (!result.done) void iterator.return?.().catch(() => undefined);
      if (!isTerminal(exec.state) && !isInterrupted(exec.state) && !exec.stopped) {
        await this.fail(exec, 'The agent stopped without finishing the task.');
      }
    } catch (error) {
      if (error instanceof ConcurrencyError) {
        this.halt(exec);
        await reportConflict(this.options.store, exec.scope, taskId, this.options.logger);
      } else if (!isTerminal(exec.state) && !exec.stopped) {
        this.options.logger?.error(`a2a-kit: agent failed on task ${taskId}:`, error);
        const detail =
          this.options.exposeErrors && error instanceof Error ? `: ${error.message}` : '.';
        await this.fail(exec, `The agent failed while working on the task${detail}`).catch((e) =>
          this.options.logger?.error(`a2a-kit: could not record the failure of task ${taskId}:`, e),
        );
      }
    } finally {
      await exec.writes.catch(() => undefined);
      this.running.delete(taskId);
      await this.options.ownership?.release(taskId, exec.state);
    }
  }

  /** Holds the task's lease; false when another instance does. */
  private own(exec: Execution): Promise<boolean> {
    const ownership = this.options.ownership;
    if (!ownership) return Promise.resolve(true);
    return ownership.acquire({
      scope: exec.scope,
      taskId: exec.handle.id,
      seq: () => exec.seq,
      halt: () => this.halt(exec),
    });
  }

  /** Stops an execution without writing: its agent's signal is aborted. */
  private halt(exec: Execution): void {
    exec.stopped = true;
    exec.abort.abort(new A2AError('TASK_NOT_CANCELABLE', 'finished by another instance'));
  }

  /** Checks one agent event and appends it; an invalid event fails the task. */
  private async accept(exec: Execution, event: AgentEvent): Promise<void> {
    const { id, contextId } = exec.handle;
    let entry: StreamResponse;
    if (isMessage(event)) {
      entry = { message: { ...event, taskId: id, contextId } };
    } else if ('statusUpdate' in event && event.statusUpdate?.status?.state) {
      const status = event.statusUpdate.status;
      if (!canTransition(exec.state, status.state)) {
        throw new A2AError(
          'INVALID_AGENT_RESPONSE',
          `agent moved the task from ${exec.state} to ${status.state}`,
        );
      }
      entry = {
        statusUpdate: {
          ...event.statusUpdate,
          taskId: id,
          contextId,
          status: { ...status, timestamp: status.timestamp ?? now() },
        },
      };
    } else if ('artifactUpdate' in event && event.artifactUpdate?.artifact?.parts?.length) {
      entry = { artifactUpdate: { ...event.artifactUpdate, taskId: id, contextId } };
    } else {
      throw new A2AError(
        'INVALID_AGENT_RESPONSE',
        'agent yielded something that is not a message, status or artifact event',
      );
    }
    await this.write(exec, [entry]);
  }

  private fail(exec: Execution, text: string): Promise<void> {
    return this.write(exec, [exec.handle.failed(agentMessage(text))]);
  }

  /** Serializes appends of one task: store first (durable), then the bus (live). */
  private write(exec: Execution, events: StreamResponse[], messageId?: string): Promise<void> {
    const run = async () => {
      let state = exec.state;
      // Terminal tasks never change (cancel may have won); a halted execution writes nothing.
      if (isTerminal(state) || exec.stopped) return;
      for (const e of events) {
        if (!('statusUpdate' in e)) continue;
        if (!canTransition(state, e.statusUpdate.status.state)) return;
        state = e.statusUpdate.status.state;
      }
      const from = exec.seq;
      exec.seq = await this.options.store.append(
        exec.scope,
        exec.handle.id,
        events,
        from,
        messageId ? { messageId } : {},
      );
      exec.state = state;
      const entries = events.map((event, i) => ({ seq: from + i + 1, event }));
      for (const entry of entries) await this.options.bus.publish(exec.handle.id, entry);
      this.options.onAppend?.(exec.scope, exec.handle.id, entries);
    };
    const p = exec.writes.then(run, run);
    exec.writes = p.catch(() => undefined);
    return p;
  }
}

/** A copy of a task that later appends to the store cannot change. */
function snapshot(task: Task): Task {
  const copy: Task = { ...task };
  if (task.history) copy.history = [...task.history];
  if (task.artifacts) copy.artifacts = task.artifacts.map((a) => ({ ...a, parts: [...a.parts] }));
  return copy;
}

function isMessage(event: AgentEvent): event is Message {
  return (
    typeof (event as Message).messageId === 'string' && Array.isArray((event as Message).parts)
  );
}

async function next(
  iterator: AsyncIterator<AgentEvent>,
): Promise<IteratorResult<AgentEvent> | { error: unknown }> {
  try {
    return await iterator.next();
  } catch (error) {
    return { error };
  }
}
