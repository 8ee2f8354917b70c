/**
 * The one write path of a task. Every write (the runner's events, its start, CancelTask, the
 * recovery of an orphaned task) goes store → bus → push, in that order:
 *
 * 1. the store: the events become durable (optimistic concurrency on the sequence number). When
 *    the store keeps the push notifier's own outbox and configs, the push deliveries of these
 *    events are enqueued by the same append, in the same transaction (`AppendOptions.push`), so
 *    a crash after the append loses no notification;
 * 2. the bus: live subscribers get the entries. The store is the truth: a publish that fails is
 *    retried in the background and never fails the write (subscribers that see a gap in the
 *    sequence numbers read the log);
 * 3. push: the notifier is woken (deliveries already enqueued) or handed the entries.
 *
 * A failure of the store itself is thrown as a StorageError, so it never reads as the agent's.
 *
 * It also keeps every task within one byte budget (`maxTaskBytes`, history and artifacts as
 * event-size.ts counts them), whatever the store: a write that would take a task past it is
 * refused whole with a {@link TaskBudgetError} before anything is stored. A batch that ends the
 * task with one small status (a failure, a cancel) always fits, so a task can always be finished.
 */
import { isPromise, run, type Flow, type MaybePromise } from '../core/maybe-async.js';
import { A2AError } from '../core/errors.js';
import type { StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { TaskTransitionError, batchProblem, isTerminal, stateAfter } from '../core/task-state.js';
import {
  ConcurrencyError,
  StorageError,
  type AppendOptions,
  type AppendPush,
  type CreateWithOptions,
  type EventBus,
  type LogEntry,
  type MessageIndexing,
  type PushConfigStore,
  type Scope,
  type TaskStore,
} from '../stores/types.js';
import type { Logger } from '../core/logger.js';
import type { AuditChain } from './audit.js';
import { eventSize, taskSize, type TaskBytes } from './event-size.js';
import type { PushFanout, PushNotifier } from './push-configs.js';
import { withFields } from '../core/with-fields.js';

/** Where a writer last saw a task; a successful append advances it in place. */
export interface LogPosition {
  seq: number;
  state: TaskState;
  /** The task's bytes as recorded; given, the log enforces `maxTaskBytes` on the write. */
  bytes?: TaskBytes | undefined;
  /**
   * The task's A2A 1.1 draft `generation` (spec dev-1.1 §3.2.7), when it has one: the log then
   * stamps each status and artifact update with the generation after it, +1 each.
   */
  generation?: number | undefined;
}

/** Where a stored task stands, as a writer's starting position. */
export function positionOf(record: { seq: number; task: Task }): LogPosition {
  return {
    seq: record.seq,
    state: record.task.status.state,
    generation: record.task.generation || undefined,
  };
}

/**
 * `events` with each status and artifact update stamped with the generation after it, counting
 * on from `generation` (undefined: the task has none, nothing is stamped); and the last one.
 */
export function stampGenerations(
  events: readonly StreamResponse[],
  generation: number | undefined,
): { events: readonly StreamResponse[]; generation: number | undefined } {
  if (generation === undefined) return { events, generation };
  let g = generation;
  const stamped = events.map((event): StreamResponse => {
    if ('statusUpdate' in event)
      return { statusUpdate: withFields(event.statusUpdate, { generation: ++g }) };
    if ('artifactUpdate' in event) {
      return { artifactUpdate: withFields(event.artifactUpdate, { generation: ++g }) };
    }
    return event;
  });
  return { events: stamped, generation: g };
}

/** Bytes of the one closing status that fits a task at its budget (a failure's message). */
const CLOSING_ALLOWANCE = 4096;

/** A write refused because the task would hold more than `maxTaskBytes` (nothing was stored). */
export class TaskBudgetError extends A2AError {
  constructor(
    readonly taskId: string,
    readonly bytes: number,
    readonly maxTaskBytes: number,
  ) {
    super(
      'INVALID_PARAMS',
      `Task ${taskId} would hold about ${bytes} bytes of history and artifacts, past the limit of ${maxTaskBytes} bytes (A2AServer option memory.maxTaskBytes): send smaller content, or start a new task in the same context`,
      {
        fieldViolations: [
          { field: 'message', description: `would take the task past ${maxTaskBytes} bytes` },
        ],
        metadata: { taskId, maxTaskBytes: String(maxTaskBytes) },
      },
    );
  }
}

/** Options of {@link TaskLog}. */
export interface TaskLogOptions {
  readonly store: TaskStore;
  readonly bus: EventBus;
  /** Push notifications of appended entries. */
  readonly notifier?: PushNotifier | undefined;
  /** Where the server keeps push configs (the in-transaction fan-out needs the store's own). */
  readonly pushConfigs?: PushConfigStore | undefined;
  readonly logger?: Pick<Console, 'warn' | 'error'> | undefined;
  /** One `info` line per state a task enters (A2AServerOptions.log). */
  readonly transitions?: Logger | undefined;
  /** The byte budget of one task (history and artifacts); default: unbounded. */
  readonly maxTaskBytes?: number | undefined;
  /** Links every event into its task's audit chain (A2AServerOptions.audit). */
  readonly audit?: AuditChain | undefined;
}

/** Delays of the background retries of a publish the bus refused. */
const REPUBLISH_MS = [100, 1_000, 5_000];

/** Writes tasks: store, then bus, then push. */
export class TaskLog {
  readonly store: TaskStore;
  readonly bus: EventBus;
  private readonly notifier: PushNotifier | undefined;
  /** Set when the store enqueues push deliveries in its appends. */
  private readonly fanout: PushFanout | undefined;
  private readonly pushOnly: AppendOptions | undefined;
  private readonly appendPush: AppendPush | undefined;
  /** The store enqueued deliveries the notifier has not been woken for yet. */
  private enqueued = false;
  private readonly logger: Pick<Console, 'warn' | 'error'> | undefined;
  private readonly transitions: Logger | undefined;
  /** The byte budget of one task (Infinity: none). */
  readonly maxTaskBytes: number;
  private readonly audit: AuditChain | undefined;

  constructor(options: TaskLogOptions) {
    this.audit = options.audit;
    this.transitions = options.transitions;
    this.maxTaskBytes = options.maxTaskBytes ?? Infinity;
    this.store = options.store;
    this.bus = options.bus;
    this.notifier = options.notifier;
    this.logger = options.logger;
    const fanout = options.notifier?.fanout;
    const facets = options.store.facets;
    const configs = options.pushConfigs ?? facets?.pushConfigs;
    if (
      fanout &&
      facets?.pushOutbox !== undefined &&
      facets.pushOutbox === fanout.outbox &&
      configs === facets.pushConfigs &&
      configs === fanout.configs
    ) {
      this.fanout = fanout;
      this.appendPush = { select: fanout.pushes, enqueued: () => (this.enqueued = true) };
      this.pushOnly = { push: this.appendPush };
    }
  }

  /** True when push deliveries are enqueued in the store's own append transaction. */
  get fansOutInStore(): boolean {
    return this.fanout !== undefined;
  }

  /**
   * Creates a task; its log starts with the snapshot at seq 1. Writes the store only: the caller
   * announces the entry once the task is ready (lease held, inline push config stored).
   * Synchronous when the store is (core/maybe-async.ts); may then throw.
   */
  create(scope: Scope, task: Task, message?: MessageIndexing): MaybePromise<LogEntry> {
    // Not a flow: one wait, for the store, mapped in place (no promise when it answered at once).
    const bytes = taskSize(task);
    if (bytes > this.maxTaskBytes) throw new TaskBudgetError(task.id, bytes, this.maxTaskBytes);
    const texts: (string | undefined)[] | undefined = this.audit && [];
    const chain = this.audit?.created(task, texts);
    let creating: MaybePromise<void>;
    try {
      creating = this.store.create(
        scope,
        task,
        chain ? withFields(message, { chain, texts }) : message,
      );
    } catch (error) {
      throw storageFault(`create task ${task.id}`, error);
    }
    if (!isPromise(creating)) return this.created(scope, task);
    return creating.then(
      () => this.created(scope, task),
      (error: unknown) => {
        throw storageFault(`create task ${task.id}`, error);
      },
    );
  }

  /** A created task's entry, its transition logged. */
  private created(scope: Scope, task: Task): LogEntry {
    this.transitions?.info(
      transition(scope, task.id, task.contextId ?? '', task.status.state, 1),
      `task ${task.id} ${task.status.state}`,
    );
    return { seq: 1, event: { task } };
  }

  /**
   * Creates a task and records its agent's first events in the same write, when the store can
   * (`TaskStore.createWith`) and the events fit the task (its state machine and byte budget, as
   * {@link append} checks them); `at` is the writer's position, moved past the events. Returns
   * the entries to announce (the snapshot at seq 1, then the events), or undefined when nothing
   * was written: then the task is created and the events appended one after the other.
   */
  async createWith(
    scope: Scope,
    task: Task,
    given: readonly StreamResponse[],
    at: LogPosition,
    message?: MessageIndexing,
    lease?: CreateWithOptions['lease'],
  ): Promise<LogEntry[] | undefined> {
    const { store } = this;
    if (!store.createWith || given.length === 0) return undefined;
    if (batchProblem(at.state, given) !== undefined) return undefined;
    const bytes = taskSize(task);
    if (bytes > this.maxTaskBytes) throw new TaskBudgetError(task.id, bytes, this.maxTaskBytes);
    const { events, generation } = stampGenerations(given, at.generation);
    const measured = at.bytes?.measure(events);
    if (measured && measured.total > this.maxTaskBytes) return undefined;
    const texts: (string | undefined)[] | undefined = this.audit && [];
    const chain = texts && this.audit?.createdWith(task, events, texts);
    let seq: number;
    try {
      seq = await store.createWith(
        scope,
        task,
        events,
        withFields(message, { chain, texts, lease }),
      );
    } catch (error) {
      throw storageFault(`create task ${task.id}`, error);
    }
    at.seq = seq;
    at.state = stateAfter(at.state, events);
    at.generation = generation;
    // A task finished in its first write has no head to remember (none was: createdWith).
    if (chain !== undefined && !isTerminal(at.state))
      this.audit?.appended(task.id, 0, chain, false);
    if (measured) at.bytes?.commit(measured);
    const entries: LogEntry[] = [{ seq: 1, event: { task } }];
    for (let i = 0; i < events.length; i++) {
      entries.push({ seq: i + 2, event: events[i] as StreamResponse });
    }
    for (const entry of entries) this.logTransition(scope, task.id, entry);
    return entries;
  }

  /**
   * Appends events after `at` (the seq and state the writer last saw), then publishes and
   * pushes them. Returns false, writing nothing, when the batch does not fit `at.state`
   * (`batchProblem`: a terminal task, a forbidden transition); otherwise advances `at`.
   * Throws ConcurrencyError when another writer moved the task on, StorageError when the
   * store failed (the events may or may not be durable). Synchronous when the store, the bus and
   * the audit chain are (core/maybe-async.ts); may then throw.
   */
  append(
    scope: Scope,
    taskId: string,
    given: readonly StreamResponse[],
    at: LogPosition,
    message?: MessageIndexing,
  ): MaybePromise<boolean> {
    return run(this.appending(scope, taskId, given, at, message));
  }

  private *appending(
    scope: Scope,
    taskId: string,
    given: readonly StreamResponse[],
    at: LogPosition,
    message?: MessageIndexing,
  ): Flow<boolean> {
    if (batchProblem(at.state, given) !== undefined) return false;
    // Most tasks have no generation: nothing to stamp, no copy.
    const stamped =
      at.generation === undefined ? undefined : stampGenerations(given, at.generation);
    const events = stamped === undefined ? given : stamped.events;
    const measured = at.bytes?.measure(events);
    if (measured && measured.total > this.maxTaskBytes && !closesSmall(events)) {
      throw new TaskBudgetError(taskId, measured.total, this.maxTaskBytes);
    }
    const from = at.seq;
    let chain: string[] | undefined;
    let seq: number;
    try {
      const texts: (string | undefined)[] | undefined = this.audit && [];
      const linking = this.audit?.appending(scope, taskId, from, events, texts);
      chain = (isPromise(linking) ? yield linking : linking) as Awaited<typeof linking>;
      const options =
        chain !== undefined
          ? withFields(message, { push: this.appendPush, chain, texts })
          : message
            ? withFields(message, { push: this.appendPush })
            : this.pushOnly;
      const appended = this.store.append(scope, taskId, events, from, options);
      seq = (isPromise(appended) ? yield appended : appended) as Awaited<typeof appended>;
    } catch (error) {
      throw storageFault(`append to task ${taskId}`, error);
    }
    at.seq = seq;
    at.state = stateAfter(at.state, events);
    if (stamped !== undefined) at.generation = stamped.generation;
    if (chain !== undefined) this.audit?.appended(taskId, from, chain, isTerminal(at.state));
    if (measured) at.bytes?.commit(measured);
    const entries: LogEntry[] = [];
    for (let i = 0; i < events.length; i++) {
      const entry = { seq: from + i + 1, event: events[i] as StreamResponse };
      entries.push(entry);
      this.logTransition(scope, taskId, entry);
      yield this.publish(scope.tenant, taskId, entry);
    }
    this.push(scope, taskId, entries, this.fanout !== undefined);
    return true;
  }

  /**
   * Publishes entries already durable (a task just created, with the events {@link createWith}
   * recorded with it), then hands them to push. Never throws: a publish the bus refuses is
   * retried in the background. Events recorded with the creation need no in-store fan-out: the
   * task had no push config when they were committed.
   */
  announce(scope: Scope, taskId: string, entries: readonly LogEntry[]): Promise<void> | undefined {
    for (let i = 0; i < entries.length; i++) {
      const published = this.publish(scope.tenant, taskId, entries[i] as LogEntry);
      // An in-process bus publishes synchronously: nothing to wait for.
      if (published) return this.announceFrom(scope, taskId, entries, i, published);
    }
    this.push(scope, taskId, entries, false);
    return undefined;
  }

  /** The rest of {@link announce} once a publish returned a promise. */
  private async announceFrom(
    scope: Scope,
    taskId: string,
    entries: readonly LogEntry[],
    index: number,
    published: Promise<void>,
  ): Promise<void> {
    await published;
    for (let i = index + 1; i < entries.length; i++) {
      const next = this.publish(scope.tenant, taskId, entries[i] as LogEntry);
      if (next) await next;
    }
    if (this.fanout === undefined || entries.length === 1) this.push(scope, taskId, entries, false);
    else this.push(scope, taskId, entries.slice(0, 1), false);
  }

  /** The `info` line of a status a task enters (A2AServerOptions.log), creation included. */
  private logTransition(scope: Scope, taskId: string, entry: LogEntry): void {
    if (!this.transitions) return;
    const { event } = entry;
    let contextId: string;
    let state: TaskState;
    if ('statusUpdate' in event)
      ({
        contextId,
        status: { state },
      } = event.statusUpdate);
    else if ('task' in event)
      ({
        contextId = '',
        status: { state },
      } = event.task);
    else return;
    this.transitions.info(
      transition(scope, taskId, contextId, state, entry.seq),
      `task ${taskId} ${state}`,
    );
  }

  /** Publishes one entry; an in-process bus delivers synchronously and returns nothing. */
  private publish(tenant: string, taskId: string, entry: LogEntry): Promise<void> | undefined {
    let published: Promise<void> | void;
    try {
      published = this.bus.publish(tenant, taskId, entry);
    } catch (error) {
      this.republish(tenant, taskId, entry, error, 0);
      return undefined;
    }
    return published?.catch((error: unknown) => this.republish(tenant, taskId, entry, error, 0));
  }

  /** Retries a refused publish later (receivers drop repeated or older seqs, so order holds). */
  private republish(
    tenant: string,
    taskId: string,
    entry: LogEntry,
    error: unknown,
    attempt: number,
  ): void {
    const delay = REPUBLISH_MS[attempt];
    if (delay === undefined) {
      this.logger?.error(
        `a2a-kit: could not publish entry ${entry.seq} of task ${taskId} on the event bus; live subscribers catch up at its next entry:`,
        error,
      );
      return;
    }
    if (attempt === 0) {
      this.logger?.warn(
        `a2a-kit: publishing entry ${entry.seq} of task ${taskId} failed (it is stored); retrying:`,
        error,
      );
    }
    const timer = setTimeout(() => {
      Promise.resolve()
        .then(() => this.bus.publish(tenant, taskId, entry))
        .catch((e: unknown) => this.republish(tenant, taskId, entry, e, attempt + 1));
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  }

  /** Hands entries to push: wakes the notifier when the store enqueued them, else notifies. */
  private push(
    scope: Scope,
    taskId: string,
    entries: readonly LogEntry[],
    enqueued: boolean,
  ): void {
    if (enqueued) {
      if (this.enqueued) {
        this.enqueued = false;
        this.fanout?.wake();
      }
      return;
    }
    this.notifier?.notify(scope, taskId, entries).catch((error: unknown) => {
      this.logger?.error(`a2a-kit: push notification of task ${taskId} failed:`, error);
    });
  }
}

/** The fields of a task transition line: ids, state and seq, never content. */
function transition(
  scope: Scope,
  taskId: string,
  contextId: string,
  state: TaskState,
  seq: number,
): Record<string, unknown> {
  const tenant = scope.tenant === '' ? {} : { tenant: scope.tenant };
  return { event: 'a2a.task', taskId, contextId, state, seq, ...tenant };
}

/** True for a batch of one small status update that ends the task (always within budget). */
function closesSmall(events: readonly StreamResponse[]): boolean {
  const [only] = events;
  return (
    events.length === 1 &&
    only !== undefined &&
    'statusUpdate' in only &&
    isTerminal(only.statusUpdate.status.state) &&
    eventSize(only) <= CLOSING_ALLOWANCE
  );
}

/**
 * The error to throw for a failed store call: the store's own refusals (a lost race, an unknown
 * task, a forbidden transition, an A2A error) as they are, anything else as a StorageError.
 */
export function storageFault(operation: string, error: unknown): unknown {
  if (
    error instanceof ConcurrencyError ||
    error instanceof StorageError ||
    error instanceof TaskTransitionError ||
    error instanceof A2AError
  ) {
    return error;
  }
  return new StorageError(operation, error);
}
