/**
 * Runs the agent for a task: one writer per task in this process. Every event the agent yields
 * is checked against the state machine and written through the task log (task-log.ts: store,
 * then bus, then push). Cancellation aborts the agent's signal and records CANCELED; an agent
 * that throws fails the task with a status message; a store that fails fails it with a message
 * that says so (never "the agent failed"). With ownership (ownership.ts) each execution holds its
 * task's lease and halts, writing nothing more, when another instance finished the task or took
 * it over. However an execution ends, it leaves the running set and its lease is given up, so a
 * task it could not finish is taken over by recovery instead of being held forever.
 */
import { isPromise, rejected, run, type Flow, type MaybePromise } from '../core/maybe-async.js';
import { A2AError } from '../core/errors.js';
import { now } from '../core/ids.js';
import { ShortLivedMap } from '../core/short-lived-map.js';
import { agentMessage } from '../core/parts.js';
import type { Message, StreamResponse, Task } from '../core/schemas/index.js';
import { isInterrupted, isTerminal } from '../core/task-state.js';
import type { LogEntry, MessageIndexing, Scope, TaskStore } from '../stores/types.js';
import { ConcurrencyError, StorageError } from '../stores/types.js';
import type { Agent, AgentEvent, ExecutionContext } from './agent.js';
import type { CallContext } from '../core/call-context.js';
import { AgentSteps, type Step } from './agent-steps.js';
import { gather, isMessage, type Burst } from './event-batch.js';
import { RESOLVED, RunContext, abortExecution, writeEvents, type Execution } from './execution.js';
import { busyElsewhere, reportConflict, type TaskOwnership } from './ownership.js';
import { Started } from './started.js';
import { TaskHandle } from './task-handle.js';
import { TaskBytes } from './event-size.js';
import { TaskBudgetError, storageFault, type TaskLog } from './task-log.js';
import { withFields } from '../core/with-fields.js';

/** The status message of a task failed because the task store failed (not the agent). */
export const STORAGE_FAILED_TEXT =
  'The task store failed while recording this task (a storage fault, not an agent failure), so the task was stopped.';

/** What starting an execution produced: a stateless reply, or a task that now exists. */
export type StartResult =
  | { message: Message }
  | {
      taskId: string;
      seq: number;
      /** true when this call created the task */
      created: boolean;
      /** For a resumed task: the task as of `seq`, right after the answer was recorded. */
      resumed?: Task | undefined;
      /**
       * Resolves once this execution has recorded a settled state (terminal or interrupted) or
       * ended: what a blocking SendMessage waits for, without opening a stream.
       */
      settled?: () => MaybePromise<void>;
      /**
       * The seq this execution last recorded, once `settled` resolved on a settled state
       * (undefined otherwise): the blocking send's answer is the task as of it.
       */
      written?: () => number | undefined;
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
  /** The message's fingerprint (intake.ts): indexed with its messageId; none, not indexed. */
  fingerprint?: string | undefined;
}

/** Options of the runner. */
export interface TaskRunnerOptions {
  /** The one write path of tasks. */
  log: TaskLog;
  agent: Agent;
  /** Put the agent's own error messages in FAILED statuses (default false: internals stay hidden). */
  exposeErrors?: boolean;
  logger?: Pick<Console, 'warn' | 'error'> | undefined;
  /** Leases and cross-instance halts, when several instances share the store. */
  ownership?: TaskOwnership | undefined;
  /** New tasks get the A2A 1.1 draft `generation` (A2AServerOptions.generations). */
  generations?: boolean | undefined;
}

/** Starts, resumes and cancels agent executions in this process. */
export class TaskRunner {
  /** Short-lived entries in a long-lived map: see core/short-lived-map.ts. */
  private readonly running = new ShortLivedMap<string, Execution>();
  private readonly log: TaskLog;
  private readonly store: TaskStore;

  constructor(private readonly options: TaskRunnerOptions) {
    this.log = options.log;
    this.store = options.log.store;
  }

  /**
   * The generation of a task this process runs, as its writer last recorded it; a message being
   * taken in (recorded next) counts one more. Undefined when it does not run here.
   */
  generationOf(taskId: string): number | undefined {
    const exec = this.running.get(taskId);
    if (exec?.generation === undefined) return undefined;
    return exec.generation + (exec.pendingWrites > 0 ? 1 : 0);
  }

  /** True while this process runs the agent for the task. */
  isRunning(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /**
   * Starts the agent for a new task or resumes a paused one; answers once the outcome is known
   * (synchronously when the agent's first step and the store are: core/maybe-async.ts).
   */
  start(start: StartOptions): MaybePromise<StartResult> {
    return run(this.starting(start));
  }

  private *starting(start: StartOptions): Flow<StartResult> {
    const { scope, message, taskId, contextId, current } = start;
    const handle = new TaskHandle(taskId, contextId);
    // Not `{ ...message, taskId, contextId }`: V8 gives each object made so a map of its own, and
    // every later reader of the message (writers, packing) then reads it megamorphically.
    const userMessage: Message = Object.assign({}, message, { taskId, contextId });
    // The agent sees the task as it was before this message (stores may hand out live objects).
    const before = current && snapshot(current.task);
    const exec: Execution = {
      scope,
      handle,
      abort: undefined,
      abortReason: undefined,
      seq: 0,
      state: 'TASK_STATE_SUBMITTED',
      generation: undefined,
      bytes: undefined,
      writes: RESOLVED,
      pendingWrites: 0,
      done: RESOLVED,
      stopped: false,
      ended: false,
      onSettled: undefined,
      settled: undefined,
      fault: undefined,
    };
    const context = new RunContext(exec, userMessage, before, start);

    let steps: AgentSteps;
    let first: IteratorResult<AgentEvent> | { error: unknown };
    let resumed: Task | undefined;
    /** The agent's first burst, gathered for a creation that could not record it. */
    let burst: Burst | undefined;
    if (current && before) {
      // Resume: record the user's answer and leave the interrupted state before the agent runs.
      exec.seq = current.seq;
      exec.state = current.task.status.state;
      exec.generation = current.task.generation || undefined;
      exec.bytes = new TaskBytes(current.task);
      this.running.set(taskId, exec);
      const submitted = handle.submitted();
      try {
        const owning = this.own(exec);
        if (!((isPromise(owning) ? yield owning : owning) as Awaited<typeof owning>))
          throw busyElsewhere(taskId);
        if (!start.recovered) {
          yield this.write(exec, [{ message: userMessage }, submitted], indexing(start));
          const status = submitted.statusUpdate.status;
          const history = [...(before.history ?? []), userMessage];
          resumed = withFields(
            before,
            exec.generation
              ? { status, history, generation: exec.generation }
              : { status, history },
          );
        }
      } catch (error) {
        this.running.delete(taskId);
        yield this.options.ownership?.release(taskId, exec.state);
        throw error;
      }
      steps = new AgentSteps(this.options.agent.execute(context)[Symbol.asyncIterator]());
      first = (yield steps.next()) as Step;
    } else {
      const task: Task = {
        id: taskId,
        contextId,
        status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
        history: [userMessage],
        ...(this.options.generations ? { generation: 1 } : {}),
      };
      // A message the task could not hold is refused before the agent runs.
      exec.bytes = new TaskBytes(task);
      if (exec.bytes.total > this.log.maxTaskBytes) {
        throw new TaskBudgetError(taskId, exec.bytes.total, this.log.maxTaskBytes);
      }
      steps = new AgentSteps(this.options.agent.execute(context)[Symbol.asyncIterator]());
      first = (yield steps.next()) as Step;
      if (!('error' in first) && !first.done && isMessage(first.value)) {
        steps.close();
        return {
          message: withFields(first.value, { contextId: first.value.contextId || contextId }),
        };
      }
      task.status = { state: 'TASK_STATE_SUBMITTED', timestamp: now() };
      exec.generation = task.generation;
      // The agent's first burst is recorded with the creation when the store can (one write);
      // not with an inline push config, which must exist before any event is recorded.
      if (this.store.createWith && !start.onCreated && !('error' in first) && !first.done) {
        burst = yield* gather(exec, steps, first);
        const entries = (yield this.createWith(exec, task, burst.batch, start)) as
          LogEntry[] | undefined;
        if (entries) {
          yield this.log.announce(scope, taskId, entries);
          exec.done = this.drive(exec, steps, first, burst, true);
          return new Started(exec, 1, true, undefined);
        }
      }
      const creating = this.log.create(scope, task, indexing(start));
      const created = (isPromise(creating) ? yield creating : creating) as Awaited<typeof creating>;
      exec.seq = 1;
      this.running.set(taskId, exec);
      if (this.options.ownership || start.onCreated) {
        try {
          yield this.own(exec); // a new task has no other owner
          yield start.onCreated?.(taskId);
        } catch (error) {
          // Recorded by drive: a store that failed fails the task saying so.
          first = { error: storageFault(`prepare task ${taskId}`, error) };
          burst = undefined;
        }
      }
      yield this.log.announce(scope, taskId, [created]);
    }
    const seq = exec.seq;
    exec.done = this.drive(exec, steps, first, burst, false);
    return new Started(exec, seq, !resumed && current === undefined, resumed);
  }

  /**
   * Cancels a task this process runs: aborts the agent's signal and records CANCELED (cancel
   * wins over anything the agent yields afterwards). Returns false when it does not run here.
   */
  async cancel(taskId: string, reason?: string): Promise<boolean> {
    const exec = this.running.get(taskId);
    if (!exec) return false;
    if (!isTerminal(exec.state) && !exec.stopped) {
      abortExecution(exec, new A2AError('TASK_NOT_CANCELABLE', 'canceled'));
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
    await Promise.all([...this.running.values()].map((e) => Promise.resolve(e.done)));
  }

  /**
   * Records the agent's events burst by burst until the task settles or the agent ends.
   * `given`: the first burst, already gathered (`written`: recorded with the creation).
   * Never throws (a failure of its own rejects what it returns).
   */
  private drive(
    exec: Execution,
    steps: AgentSteps,
    first: Step,
    given: Burst | undefined,
    written: boolean,
  ): MaybePromise<void> {
    try {
      return run(this.driving(exec, steps, first, given, written));
    } catch (error) {
      return rejected(error);
    }
  }

  private *driving(
    exec: Execution,
    steps: AgentSteps,
    first: Step,
    given: Burst | undefined,
    written: boolean,
  ): Flow<void> {
    const taskId = exec.handle.id;
    let result = first;
    let burst = given;
    let unwritten = given !== undefined && !written;
    try {
      for (;;) {
        // `result` holds an event not yet recorded. The events the agent yields without
        // waiting for anything go into one append.
        if (burst === undefined) {
          if ('error' in result || result.done || isTerminal(exec.state)) break;
          burst = yield* gather(exec, steps, result);
          yield this.write(exec, burst.batch);
        } else if (unwritten) {
          unwritten = false;
          yield this.write(exec, burst.batch);
        }
        const { invalid, stop, pending, last } = burst;
        burst = undefined;
        if (invalid) throw invalid.error; // the events before it are recorded
        result = last;
        if (stop) break;
        if (pending) result = (yield pending) as Step;
        if (isTerminal(exec.state) || exec.abortReason !== undefined) break;
      }
      if ('error' in result) throw result.error;
      if (!result.done) steps.close();
      if (!isTerminal(exec.state) && !isInterrupted(exec.state) && !exec.stopped) {
        yield this.fail(exec, 'The agent stopped without finishing the task.');
      }
    } catch (error) {
      if (error instanceof ConcurrencyError) {
        this.halt(exec);
        yield reportConflict(this.store, exec.scope, taskId, this.options.logger);
      } else if (error instanceof TaskBudgetError && !isTerminal(exec.state) && !exec.stopped) {
        // The agent's write would take the task past its budget: nothing of it was stored.
        abortExecution(exec, new A2AError('INTERNAL', 'the task reached its size limit'));
        steps.close();
        yield* this.failOrLog(exec, budgetText(error));
      } else if (error instanceof StorageError) {
        exec.fault = error;
        if (!isTerminal(exec.state) && !exec.stopped) yield this.failOnStorage(exec, error);
      } else if (!isTerminal(exec.state) && !exec.stopped) {
        this.options.logger?.error(`a2a-kit: agent failed on task ${taskId}:`, error);
        const detail =
          this.options.exposeErrors && error instanceof Error ? `: ${error.message}` : '.';
        yield* this.failOrLog(exec, `The agent failed while working on the task${detail}`);
      }
    } finally {
      if (exec.pendingWrites > 0) yield exec.writes.catch(() => undefined);
      this.running.delete(taskId);
      exec.ended = true;
      exec.onSettled?.();
      yield this.options.ownership?.release(taskId, exec.state);
    }
  }

  /** Records FAILED with `text`; a failure to record it is logged. */
  private *failOrLog(exec: Execution, text: string): Flow<void> {
    try {
      yield this.fail(exec, text);
    } catch (error) {
      this.options.logger?.error(
        `a2a-kit: could not record the failure of task ${exec.handle.id}:`,
        error,
      );
    }
  }

  /**
   * The store failed while the task ran: stops the agent and records FAILED saying so (a few
   * attempts, the store may be back at once, e.g. after a dropped connection). When even that
   * fails the execution ends anyway and its lease is given up: recovery takes the task over.
   */
  private async failOnStorage(exec: Execution, error: StorageError): Promise<void> {
    const taskId = exec.handle.id;
    this.options.logger?.error(`a2a-kit: the task store failed on task ${taskId}:`, error);
    abortExecution(exec, new A2AError('INTERNAL', 'the task store failed'));
    const detail = this.options.exposeErrors ? ` (${error.message})` : '';
    for (const delay of [0, 50, 250]) {
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      try {
        await this.fail(exec, `${STORAGE_FAILED_TEXT}${detail}`);
        return;
      } catch (again) {
        if (again instanceof ConcurrencyError) {
          // The failed append was committed after all (its acknowledgement was lost): the task
          // is as recorded, and a blocking call answers from it (or follows it) as usual.
          exec.fault = undefined;
          this.halt(exec);
          return;
        }
        if (!(again instanceof StorageError)) throw again;
      }
    }
    this.options.logger?.error(
      `a2a-kit: could not record the failure of task ${taskId}; recovery will take it over`,
    );
  }

  /** Holds the task's lease; false when another instance does. */
  private own(exec: Execution): MaybePromise<boolean> {
    return this.options.ownership ? this.acquire(this.options.ownership, exec) : true;
  }

  private async acquire(ownership: TaskOwnership, exec: Execution): Promise<boolean> {
    try {
      return await ownership.acquire({
        scope: exec.scope,
        taskId: exec.handle.id,
        seq: () => exec.seq,
        halt: () => this.halt(exec),
      });
    } catch (error) {
      throw storageFault(`claim the lease of task ${exec.handle.id}`, error);
    }
  }

  /** Stops an execution without writing: its agent's signal is aborted. */
  private halt(exec: Execution): void {
    exec.stopped = true;
    abortExecution(exec, new A2AError('TASK_NOT_CANCELABLE', 'finished by another instance'));
  }

  /**
   * Creates the task with its first burst in one write (TaskLog.createWith), the lease taken in
   * the same write when the task is unfinished after it; undefined when the log could not.
   */
  private async createWith(
    exec: Execution,
    task: Task,
    batch: StreamResponse[],
    start: StartOptions,
  ): Promise<LogEntry[] | undefined> {
    const { ownership } = this.options;
    const lease = ownership && { instanceId: ownership.instanceId, ttlMs: ownership.ttlMs };
    const entries = await this.log.createWith(
      exec.scope,
      task,
      batch,
      exec,
      indexing(start),
      lease,
    );
    if (!entries) return undefined;
    this.running.set(task.id, exec);
    if (ownership && !isTerminal(exec.state)) {
      ownership.hold({
        scope: exec.scope,
        taskId: task.id,
        seq: () => exec.seq,
        halt: () => this.halt(exec),
      });
    }
    return entries;
  }

  private fail(exec: Execution, text: string): MaybePromise<void> {
    return this.write(exec, [exec.handle.failed(agentMessage(text))]);
  }

  private write(
    exec: Execution,
    events: StreamResponse[],
    message?: MessageIndexing,
  ): MaybePromise<void> {
    return writeEvents(this.log, exec, events, message);
  }
}

/** The status message of a task failed because the agent's output outgrew its byte budget. */
function budgetText(error: TaskBudgetError): string {
  return (
    `The agent's output would take this task past its size limit of ${error.maxTaskBytes} bytes ` +
    `of history and artifacts (about ${error.bytes}); that output was not recorded. Raise the ` +
    `A2AServer option memory.maxTaskBytes to allow larger tasks.`
  );
}

/** What the store indexes of the user message that starts or resumes an execution. */
function indexing(start: StartOptions): MessageIndexing | undefined {
  const { fingerprint } = start;
  return fingerprint === undefined
    ? undefined
    : { messageId: start.message.messageId, fingerprint };
}

/** A copy of a task that later appends to the store cannot change. */
function snapshot(task: Task): Task {
  const copy: Task = { ...task };
  if (task.history) copy.history = [...task.history];
  if (task.artifacts) copy.artifacts = task.artifacts.map((a) => ({ ...a, parts: [...a.parts] }));
  return copy;
}
