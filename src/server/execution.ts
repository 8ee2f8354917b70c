/**
 * The state of one agent execution in this process, what its agent sees of it (the execution
 * context, whose abort signal is made when the agent first reads it), and its writes, one after
 * another through the task log.
 */
import { A2AError } from '../core/errors.js';
import { isPromise, type MaybePromise } from '../core/maybe-async.js';
import type { Message, StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { isSettled, isTerminal } from '../core/task-state.js';
import type { MessageIndexing, Scope, StorageError } from '../stores/types.js';
import type { ExecutionContext } from './agent.js';
import type { CallContext } from '../core/call-context.js';
import type { TaskBytes } from './event-size.js';
import type { TaskHandle } from './task-handle.js';
import type { StartOptions } from './task-runner.js';
import type { TaskLog } from './task-log.js';

/** One execution: the task's writer in this process. */
export interface Execution {
  readonly scope: Scope;
  readonly handle: TaskHandle;
  /** The agent's signal, created when the agent first reads it. */
  abort: AbortController | undefined;
  /** Why the execution was aborted (cancel or halt), once it was. */
  abortReason: A2AError | undefined;
  seq: number;
  state: TaskState;
  /** The task's generation (A2A 1.1 draft), when it has one (see LogPosition). */
  generation: number | undefined;
  /** The task's bytes as recorded: the log keeps them within `maxTaskBytes`. */
  bytes: TaskBytes | undefined;
  /** The last write; writes of one task run one after another. */
  writes: Promise<void>;
  /** Writes queued or running. */
  pendingWrites: number;
  /** The execution's drive (core/maybe-async.ts: nothing to wait for once it ended at once). */
  done: MaybePromise<void>;
  /** Another instance finished the task or holds its lease: write nothing more. */
  stopped: boolean;
  /** The execution ended (drive returned). */
  ended: boolean;
  /** Resolves waiters of `StartResult.settled`; created by the first of them. */
  onSettled: (() => void) | undefined;
  settled: Promise<void> | undefined;
  /** The store failed while the execution wrote (it stopped on it). */
  fault: StorageError | undefined;
}

/** One settled promise to share (awaiting it takes one microtask turn). */
export const RESOLVED: Promise<void> = Promise.resolve();

/** What `execute` receives; the abort signal is made when the agent first reads it. */
export class RunContext implements ExecutionContext {
  readonly task: TaskHandle;
  readonly recovered: boolean;
  readonly call: CallContext;
  readonly configuration: ExecutionContext['configuration'];
  readonly metadata: ExecutionContext['metadata'];

  constructor(
    private readonly exec: Execution,
    readonly message: Message,
    readonly current: Task | undefined,
    start: StartOptions,
  ) {
    this.task = exec.handle;
    this.recovered = start.recovered ?? false;
    this.call = start.call;
    this.configuration = start.configuration;
    this.metadata = start.metadata;
  }

  get signal(): AbortSignal {
    return signalOf(this.exec);
  }
}

/** The agent's abort signal, made on first use (already aborted if the execution was). */
function signalOf(exec: Execution): AbortSignal {
  if (exec.abort === undefined) {
    exec.abort = new AbortController();
    if (exec.abortReason !== undefined) exec.abort.abort(exec.abortReason);
  }
  return exec.abort.signal;
}

export function abortExecution(exec: Execution, reason: A2AError): void {
  if (exec.abortReason !== undefined) return;
  exec.abortReason = reason;
  exec.abort?.abort(reason);
}

/**
 * Resolves once the execution recorded a settled state or ended (nothing to wait for when it
 * has); rejects (INTERNAL, naming the storage fault) when it ended on a failing store before the
 * task settled.
 */
export function whenSettled(exec: Execution): MaybePromise<void> {
  if (isSettled(exec.state)) return;
  if (exec.ended) return exec.fault ? Promise.reject(storageFailure(exec)) : undefined;
  return (exec.settled ??= new Promise<void>((resolve, reject) => {
    exec.onSettled = () => {
      if (exec.fault && !isSettled(exec.state)) reject(storageFailure(exec));
      else resolve();
    };
  }));
}

/** What a blocking call answers when the store failed before its task settled. */
function storageFailure(exec: Execution): A2AError {
  const { id } = exec.handle;
  return new A2AError(
    'INTERNAL',
    `The task store failed while recording task ${id} (a storage fault, not an agent failure) and the task did not finish here. Send the same message again (same messageId) to follow the task, or read it with GetTask.`,
    { metadata: { taskId: id } },
  );
}

/**
 * Serializes appends of one task: store first (durable), then the bus (live), through the task
 * log. A write with none pending runs at once (synchronously when the log does); others wait for
 * the one before them.
 */
export function writeEvents(
  log: TaskLog,
  exec: Execution,
  events: StreamResponse[],
  message?: MessageIndexing,
): MaybePromise<void> {
  if (exec.pendingWrites++ > 0) {
    const next = () => commit(log, exec, events, message);
    return (exec.writes = exec.writes.then(next, next));
  }
  const written = commit(log, exec, events, message);
  if (isPromise(written)) exec.writes = written;
  return written;
}

// Not a flow: the log's answer is mapped in place (no promise when it answered at once).
function commit(
  log: TaskLog,
  exec: Execution,
  events: StreamResponse[],
  message?: MessageIndexing,
): MaybePromise<void> {
  // Terminal tasks never change (cancel may have won); a halted execution writes nothing;
  // a batch that no longer fits the task's state (cancel won) is dropped by the log.
  if (isTerminal(exec.state) || exec.stopped) {
    exec.pendingWrites--;
    return;
  }
  let appending: MaybePromise<boolean>;
  try {
    appending = log.append(exec.scope, exec.handle.id, events, exec, message);
  } catch (error) {
    exec.pendingWrites--;
    throw error;
  }
  if (!isPromise(appending)) return committed(exec, appending);
  return appending.then(
    (written) => committed(exec, written),
    (error: unknown) => {
      exec.pendingWrites--;
      throw error;
    },
  );
}

/** A write of the execution ended: a settled state wakes the blocking send. */
function committed(exec: Execution, written: boolean): void {
  try {
    if (written && isSettled(exec.state)) exec.onSettled?.();
  } finally {
    exec.pendingWrites--;
  }
}
