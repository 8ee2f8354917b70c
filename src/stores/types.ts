/**
 * Every storage plug-in point of a2a-kit, in one place: the task store (event log + projected
 * snapshot, optimistic concurrency on a sequence number), the event bus (live fan-out of appended
 * events), push configs, the push outbox, ownership leases and the log reader of distributed
 * buses (the Request-When store of delegation: ./request-when-types.ts). What a task store offers beyond TaskStore is declared in its `facets`, never guessed.
 * Every implementation runs the exported suites in `a2a-kit/testing`. Types only (runtime-neutral),
 * plus the errors stores throw.
 */
import type { MaybePromise } from '../core/maybe-async.js';
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

/**
 * W3C Trace Context fields (`traceparent`, `tracestate`, `baggage`, lower-case) carried with bus
 * entries and push deliveries; stores and buses pass it on as is (docs/observability.md).
 */
export type TraceCarrier = Readonly<Record<string, string>>;

/** One entry of a task's event log. `seq` starts at 1 (the creation snapshot) and grows by 1. */
export interface LogEntry {
  readonly seq: number;
  readonly event: StreamResponse;
  /**
   * The trace context of the write that appended it, when tracing put one there: distributed
   * buses carry it to the other instances (not kept in the log).
   */
  readonly trace?: TraceCarrier | undefined;
  /** When it was published (ms since the epoch, publisher's clock), for bus lag; with `trace`. */
  readonly publishedAt?: number | undefined;
  /**
   * Its link in the task's audit chain (src/security/audit-chain.ts), as the write gave it
   * (`AppendOptions.chain`): stores keep it with the event and return it from `events`.
   */
  readonly hash?: string | undefined;
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
> & {
  pageSize: number;
  /**
   * The bytes of stored tasks (their JSON as the store keeps it, artifacts included) one page
   * may read: the page ends before the task that would take it past `maxBytes`, measured in
   * the database before any task is read, and holds at least one task. A store that hands out
   * tasks it keeps in memory anyway may ignore it.
   */
  maxBytes?: number | undefined;
};

/** One page of tasks, newest status first. */
export interface TaskPage {
  tasks: Task[];
  /** `''` on the last page. */
  nextPageToken: string;
  totalSize: number;
}

/**
 * A write's user message, indexed for retries: its messageId and an opaque content token
 * (server/fingerprint.ts) that may point into the history: `get` returns history as appended.
 */
export interface MessageIndexing {
  messageId?: string;
  fingerprint?: string;
}

/** What a store keeps of an indexed user message (see {@link TaskStore.findByMessageId}). */
export interface IndexedMessage {
  /** The task the message created or continued. */
  readonly taskId: string;
  /** The fingerprint (token) given when it was indexed (`''` when none was). */
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

/**
 * Durable task state: an append-only event log per task and its projected snapshot.
 *
 * `create`, `append`, `get` and `findByMessageId` may answer synchronously (a value, not a
 * promise; a failure thrown): a store that holds its tasks in memory does, and the server's
 * request path then runs without waiting (core/maybe-async.ts). Others return promises.
 */
export interface TaskStore {
  /**
   * Creates a task; its log starts with `{ task }` at seq 1. `messageId` (the user message that
   * created it) is indexed with its fingerprint and the time, for recognizing retried sends; a
   * messageId indexed before points to this task from now on. Throws if the id exists.
   */
  create(scope: Scope, task: Task, options?: CreateOptions): MaybePromise<void>;
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
    options?: AppendOptions,
  ): MaybePromise<number>;
  /** The snapshot, or `undefined` when the task does not exist in this scope. */
  get(scope: Scope, taskId: string, options?: GetOptions): MaybePromise<TaskRecord | undefined>;
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
  ): MaybePromise<LogEntry[]>;
  /** Tasks of the scope matching the query, newest status timestamp first, one page. */
  list(scope: Scope, query: TaskQuery): Promise<TaskPage>;
  /** The last write that indexed this messageId in the scope, for recognizing retried sends. */
  findByMessageId(scope: Scope, messageId: string): MaybePromise<IndexedMessage | undefined>;
  /**
   * Optional: `create` and then `append(events, 1)` in one write, both or neither (a store that
   * batches writes can commit a task's creation with its agent's first events at once). Returns
   * the new seq (1 + events.length). `options.chain` holds the hashes of seq 1 and of each event.
   * With `options.lease`, a store that keeps ownership leases (facets.leases) gives the task's
   * lease to that instance in the same write when the task is unfinished after it.
   */
  createWith?(
    scope: Scope,
    task: Task,
    events: readonly StreamResponse[],
    options?: CreateWithOptions,
  ): Promise<number>;
  /** Deletes a task, its log and its index entries. */
  delete(scope: Scope, taskId: string): Promise<void>;
  /** Releases resources (timers, connections). */
  close(): Promise<void>;
  /** What this store offers besides tasks (absent: nothing more). */
  readonly facets?: StoreFacets | undefined;
}

/** Options of {@link TaskStore.create}. */
export interface CreateOptions extends MessageIndexing {
  /** The audit chain hash of the creation snapshot (seq 1), kept as its `LogEntry.hash`. */
  readonly chain?: readonly string[] | undefined;
  /**
   * With `chain`: the JSON text of each event it links (on create, seq 1's `{ "task": … }`
   * first), as the chain wrote it to hash it: its RFC 8785 form, which parses to the same value
   * as `JSON.stringify` of the event. A store that keeps events as JSON text may write it instead
   * of stringifying the event again; undefined where the link was hashed from another text.
   */
  readonly texts?: readonly (string | undefined)[] | undefined;
}

/** Options of {@link TaskStore.get}. */
export interface GetOptions {
  /**
   * The caller itself just wrote the task, in this scope, up to this seq, and asks for the
   * snapshot as of that write (a blocking send's answer): a store that holds exactly that
   * snapshot may answer from it without reading. Without it, or at another seq, the store reads.
   */
  readonly written?: number | undefined;
}

/** Options of {@link TaskStore.createWith}. */
export interface CreateWithOptions extends CreateOptions {
  /** The ownership lease to take in the same write (LeaseStore.claim's instance and TTL). */
  readonly lease?: { readonly instanceId: string; readonly ttlMs: number } | undefined;
}

/** Options of {@link TaskStore.append}. */
export interface AppendOptions extends CreateOptions {
  /**
   * Push fan-out in the append's own transaction (stores whose facets include a `pushOutbox`):
   * for each event `push.select` picks, one delivery per push config the task has is enqueued,
   * with the event's seq and its StreamResponse JSON as body. Either the events and their
   * deliveries are both durable, or neither is.
   */
  readonly push?: AppendPush | undefined;
  /** The trace context the push deliveries this append enqueues carry (NewDelivery.trace). */
  readonly trace?: TraceCarrier | undefined;
  /*
   * `chain` (from CreateOptions): the audit chain hash of each event, in order; kept as the
   * events' `LogEntry.hash`, in the same write.
   */
}

/** Which appended events get push deliveries, and who hears that some were enqueued. */
export interface AppendPush {
  readonly select: (event: StreamResponse) => boolean;
  /** Called before `append` resolves when it enqueued at least one delivery. */
  readonly enqueued: () => void;
}

/**
 * The optional capabilities of a task store, declared instead of detected. Each is kept in the
 * same database as the tasks (deleted with them).
 */
export interface StoreFacets {
  /** Push notification configs of the tasks. */
  readonly pushConfigs?: PushConfigStore | undefined;
  /** The durable push outbox; the store's `append` can enqueue into it (AppendOptions.push). */
  readonly pushOutbox?: PushOutbox | undefined;
  /** Ownership leases on running tasks (stores several instances share). */
  readonly leases?: LeaseStore | undefined;
  /**
   * False for a store only servers of one process can share (memory): its leases are used when
   * ownership is asked for, not by default. Default true.
   */
  readonly leasesByDefault?: boolean | undefined;
  /**
   * True for a store whose log lives in the server's own heap (memory): nothing but this
   * process can change an entry, so a link hashed when the event is written commits to nothing
   * a link hashed when it is read does not. The audit chain is then derived from the log when it
   * is read (server/audit.ts), the write path hashes nothing and `CreateOptions.chain` is not
   * given. Default false: the store keeps each link's hash with its event, written with it.
   */
  readonly linksOnRead?: boolean | undefined;
  /** Finds interrupted tasks nobody answered, across scopes (expiry of abandoned tasks). */
  readonly interrupted?: InterruptedTaskIndex | undefined;
}

/** A task waiting for its client (INPUT_REQUIRED or AUTH_REQUIRED), as the expiry finds it. */
export interface IdleInterruptedTask {
  readonly scope: Scope;
  readonly taskId: string;
}

/**
 * Interrupted tasks by the time of their last change, on the store's clock (shared by every
 * instance, kept across restarts): what the server's expiry of abandoned tasks scans.
 */
export interface InterruptedTaskIndex {
  /**
   * Tasks in INPUT_REQUIRED or AUTH_REQUIRED, whatever their scope, not changed for `idleMs`
   * or more; at most `limit` of them, those unchanged longest first.
   */
  idle(idleMs: number, limit: number): Promise<IdleInterruptedTask[]>;
  /**
   * How many tasks of the scope are in INPUT_REQUIRED or AUTH_REQUIRED now, in one read (the
   * per-caller cap, `A2AServerOptions.interrupted.maxPerCaller`). Optional: without it the server
   * counts with two ListTasks.
   */
  held?(scope: Scope): Promise<number>;
  /**
   * A value that stays the same for as long as every change to the store's tasks came through
   * this store object (SQLite: `PRAGMA data_version`, which moves when another connection
   * commits). Optional: with it, the server counts a caller's interrupted tasks with `held` at
   * most once a second while the caller is far from the cap and the value has not moved (the
   * tasks it started since are taken as interrupted), instead of on every new task.
   */
  version?: (() => number) | undefined;
}

/**
 * Thrown by a2a-kit when the task store (or its database) failed, as opposed to the agent or the
 * caller: the operation it names may or may not have been recorded.
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    /** What was being done, e.g. `append to task abc`. */
    readonly operation: string,
    cause: unknown,
  ) {
    super(
      `the task store failed to ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** Receives the entries appended to one task, in order. */
export type LogListener = (entry: LogEntry) => void;

/**
 * Live fan-out of appended log entries (across instances for the distributed buses). Every call
 * names the task's tenant (`Scope.tenant`, `''` when none) beside its id, as TaskStore calls
 * name the scope: a listener hears only the entries published for the same tenant and task, and
 * a distributed bus may route by tenant (NATS subjects per tenant, docs/bindings/nats.md).
 */
export interface EventBus {
  /**
   * Publishes an entry that is already durable in the store. An in-process bus may deliver
   * synchronously and return nothing; callers await only a returned promise.
   */
  publish(tenant: string, taskId: string, entry: LogEntry): Promise<void> | void;
  /**
   * Listens to the entries of one task of one tenant; resolves once listening, to a function
   * that stops it.
   */
  subscribe(tenant: string, taskId: string, listener: LogListener): Promise<() => void>;
  close(): Promise<void>;
}

/**
 * A stored push notification config: the spec object with its task and config ids resolved, and
 * the A2A version it was registered over when not 1.0 (`'0.3'`): its deliveries take that
 * version's form. Stores keep the whole object, so the version lasts as long as the config.
 */
export type StoredPushConfig = TaskPushNotificationConfig & {
  taskId: string;
  id: string;
  protocolVersion?: string | undefined;
};

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

/**
 * The log readers a distributed event bus uses to fetch entries too large for its transport and
 * the tail of a task after a reconnection (PostgresTaskStore implements it).
 */
export interface LogSource {
  /** The entry `seq` of a task's log, whatever its scope (the bus is trusted server code). */
  entryAt(taskId: string, seq: number): Promise<LogEntry | undefined>;
  /** The last entry of a task's log, whatever its scope. */
  lastEntry(taskId: string): Promise<LogEntry | undefined>;
}

// Ownership leases (scale-out): a running task is owned by one server instance through a lease
// that the instance renews with heartbeats. When an instance dies its leases expire and another
// instance takes the task over (resumes or fails it). Lease times come from the store's own clock
// (the database server's for PostgreSQL), never from the caller: instances whose clocks disagree
// must still agree on when a lease expired.

/** A running task whose owner stopped renewing its lease (or that was never claimed). */
export interface OrphanedTask {
  readonly scope: Scope;
  readonly taskId: string;
  /** The instance that held the lease, if any. */
  readonly previousOwner: string | undefined;
}

/** Leases on running tasks, kept beside the tasks (stores that several instances share). */
export interface LeaseStore {
  /**
   * Takes the lease of an unfinished task for `ttlMs` when nobody holds it, `instanceId` already
   * does, or the holder's lease expired. Atomic: of two instances claiming, one gets `true`.
   */
  claim(taskId: string, instanceId: string, ttlMs: number): Promise<boolean>;
  /** Extends the leases `instanceId` holds among `taskIds`; returns the ids it still holds. */
  renew(instanceId: string, taskIds: readonly string[], ttlMs: number): Promise<string[]>;
  /** Gives the lease up (a no-op unless `instanceId` holds it). */
  release(taskId: string, instanceId: string): Promise<void>;
  /**
   * Unfinished tasks that are not waiting for input (SUBMITTED, WORKING) whose lease expired, or
   * that nobody claimed and that have not changed for `unclaimedMs`; at most `limit` of them.
   */
  expired(limit: number, unclaimedMs: number): Promise<OrphanedTask[]>;
  /**
   * Expires at once the leases of unfinished tasks not held by `instanceId`, for a store no other
   * live instance uses (one process on a SQLite file, just restarted); returns how many.
   */
  expireOthers(instanceId: string): Promise<number>;
}

// The durable push outbox: every notification is written here before anything is sent, so a
// restart loses nothing pending. Deliveries of one (task, config) pair go out strictly in log
// order: only the oldest pending delivery of a pair can be claimed, so a retried delivery holds
// back the ones after it. Claims carry a lease; a worker that dies leaves its claims to expire and
// another worker (or the restarted process) takes them over.

/** A delivery to write: one log entry of one task for one push config. */
export interface NewDelivery {
  /** Unique id of the delivery (stable across its attempts). */
  readonly id: string;
  readonly scope: Scope;
  readonly taskId: string;
  readonly configId: string;
  /** The log sequence number of the event; orders the deliveries of a (task, config) pair. */
  readonly seq: number;
  /** The exact request body: StreamResponse JSON (UTF-8 text). */
  readonly body: string;
  /** The trace context of the write that enqueued it; the delivery continues that trace. */
  readonly trace?: TraceCarrier | undefined;
}

/** Where a delivery is in its life: waiting (or in flight under a lease), or given up. */
export type DeliveryState = 'pending' | 'failed';

/** A delivery claimed by one worker under a lease. */
export interface ClaimedDelivery extends NewDelivery {
  /** Attempts already made before this one. */
  readonly attempt: number;
  /** The claim token; complete/retry/fail/release only act while it is still current. */
  readonly claim: string;
}

/** A delivery as stored, for inspection and tests. */
export interface StoredDelivery extends NewDelivery {
  readonly attempt: number;
  readonly state: DeliveryState;
  /** Milliseconds since the epoch (store clock) when it may next be attempted. */
  readonly nextAttemptAt: number;
  readonly lastError?: string | undefined;
}

/** The claim a worker holds on a delivery. */
export type ClaimRef = Pick<ClaimedDelivery, 'id' | 'claim'>;

/** Durable queue of push deliveries with per-(task, config) ordering and leased claims. */
export interface PushOutbox {
  /** Writes deliveries durably; a repeated (taskId, configId, seq) is ignored. */
  enqueue(deliveries: readonly NewDelivery[]): Promise<void>;
  /**
   * Claims up to `limit` due deliveries for `leaseMs`: pending, due, not under a live lease, and
   * the oldest pending one of their (task, config) pair.
   */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Delivered (or no longer deliverable because its config is gone): the delivery is removed. */
  complete(ref: ClaimRef): Promise<void>;
  /** The attempt failed and may be retried after `delayMs`; counts the attempt. */
  retry(ref: ClaimRef, delayMs: number, error: string): Promise<void>;
  /** Gives up: counts the attempt and keeps the delivery as `failed` (deleted with its task). */
  fail(ref: ClaimRef, error: string): Promise<void>;
  /** Gives a claim back without counting an attempt (a worker shutting down). */
  release(ref: ClaimRef): Promise<void>;
  /** The deliveries of one task, by config then seq (inspection, tests). */
  list(taskId: string): Promise<StoredDelivery[]>;
}
