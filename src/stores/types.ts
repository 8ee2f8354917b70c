/**
 * Plug-in points for state: the task store (event log + projected snapshot, optimistic
 * concurrency on a sequence number) and the event bus (live fan-out of appended events).
 * Every implementation runs the exported suites in `a2a-kit/testing`.
 */
import type {
  ListTasksRequest,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from '../core/schemas/index.js';

/** Who a task belongs to: its tenant and owning principal (`''` when none). */
export interface Scope {
  readonly tenant: string;
  readonly owner: string;
}

/** One entry of a task's event log. `seq` starts at 1 (the creation snapshot) and grows by 1. */
export interface LogEntry {
  readonly seq: number;
  readonly event: StreamResponse;
}

/** A task snapshot with the sequence number of the last event applied to it. */
export interface TaskRecord {
  /** Read-only: stores may hand out their live projection. */
  readonly task: Task;
  readonly seq: number;
}

/** The filters and paging of ListTasks, already validated (pageSize resolved to 1..100). */
export type TaskQuery = Pick<
  ListTasksRequest,
  'contextId' | 'status' | 'statusTimestampAfter' | 'pageToken'
> & { pageSize: number };

/** One page of tasks, newest status first. */
export interface TaskPage {
  tasks: Task[];
  /** `''` on the last page. */
  nextPageToken: string;
  totalSize: number;
}

/**
 * The user message of a write, indexed so a retry of it can be recognized: its messageId and a
 * fingerprint of its content (the server hashes the canonical message; the store keeps it as is).
 */
export interface MessageIndexing {
  messageId?: string;
  fingerprint?: string;
}

/** What a store keeps of an indexed user message (see {@link TaskStore.findByMessageId}). */
export interface IndexedMessage {
  /** The task the message created or continued. */
  readonly taskId: string;
  /** The fingerprint given when it was indexed (`''` when none was). */
  readonly fingerprint: string;
  /** Milliseconds since it was indexed, on the store's clock (shared by every instance). */
  readonly ageMs: number;
}

/** Thrown by {@link TaskStore.append} when `expectedSeq` is not the current sequence number. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly taskId: string,
    readonly expectedSeq: number,
    readonly actualSeq: number,
  ) {
    super(
      `task ${taskId} is at seq ${actualSeq}, not ${expectedSeq}: another writer got there first`,
    );
  }
}

/** Thrown when a page token cannot be decoded. */
export class InvalidPageTokenError extends Error {
  override readonly name = 'InvalidPageTokenError';
}

/** Durable task state: an append-only event log per task and its projected snapshot. */
export interface TaskStore {
  /**
   * Creates a task; its log starts with `{ task }` at seq 1. `messageId` (the user message that
   * created it) is indexed with its fingerprint and the time, for recognizing retried sends; a
   * messageId indexed before points to this task from now on. Throws if the id exists.
   */
  create(scope: Scope, task: Task, options?: MessageIndexing): Promise<void>;
  /**
   * Appends events after `expectedSeq` and applies them to the snapshot; returns the new seq.
   * Throws {@link ConcurrencyError} when the log is not at `expectedSeq`. `messageId` indexes a
   * user message as `create` does. Cost is O(size of the events), not of the task.
   */
  append(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
    options?: MessageIndexing,
  ): Promise<number>;
  /** The snapshot, or `undefined` when the task does not exist in this scope. */
  get(scope: Scope, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Log entries with `seq > afterSeq`, in order, at most `limit` of them; with `maxBytes`, the
   * page ends with the entry whose JSON (its length in characters) brings the page to
   * `maxBytes` or more, so a page cut short by bytes always holds at least `maxBytes`. A store
   * that hands out entries it keeps in memory anyway may ignore `maxBytes`.
   */
  events(
    scope: Scope,
    taskId: string,
    afterSeq: number,
    limit?: number,
    maxBytes?: number,
  ): Promise<LogEntry[]>;
  /** Tasks of the scope matching the query, newest status timestamp first, one page. */
  list(scope: Scope, query: TaskQuery): Promise<TaskPage>;
  /** The last write that indexed this messageId in the scope, for recognizing retried sends. */
  findByMessageId(scope: Scope, messageId: string): Promise<IndexedMessage | undefined>;
  /** Deletes a task, its log and its index entries. */
  delete(scope: Scope, taskId: string): Promise<void>;
  /** Releases resources (timers, connections). */
  close(): Promise<void>;
}

/** Receives the entries appended to one task, in order. */
export type LogListener = (entry: LogEntry) => void;

/** Live fan-out of appended log entries (across instances for the distributed buses). */
export interface EventBus {
  /**
   * Publishes an entry that is already durable in the store. An in-process bus may deliver
   * synchronously and return nothing; callers await only a returned promise.
   */
  publish(taskId: string, entry: LogEntry): Promise<void> | void;
  /** Listens to one task's entries; resolves once listening, to a function that stops it. */
  subscribe(taskId: string, listener: LogListener): Promise<() => void>;
  close(): Promise<void>;
}

/** A stored push notification config: the spec object with its task and config ids resolved. */
export type StoredPushConfig = TaskPushNotificationConfig & { taskId: string; id: string };

/** Push notification configs, kept in the same store as their tasks (deleted with them). */
export interface PushConfigStore {
  /** Creates or replaces the config with this (taskId, id). */
  putPushConfig(scope: Scope, config: StoredPushConfig): Promise<void>;
  getPushConfig(scope: Scope, taskId: string, id: string): Promise<StoredPushConfig | undefined>;
  /** The task's configs ordered by id, after `afterId` when given, at most `limit`. */
  listPushConfigs(
    scope: Scope,
    taskId: string,
    options?: { afterId?: string; limit?: number },
  ): Promise<StoredPushConfig[]>;
  /** Deletes one config; deleting a missing one is not an error (spec §3.1.10: idempotent). */
  deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void>;
}

/** True when a task store also keeps push configs. */
export function hasPushConfigs(store: TaskStore): store is TaskStore & PushConfigStore {
  return typeof (store as Partial<PushConfigStore>).putPushConfig === 'function';
}
