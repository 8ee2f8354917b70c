/**
 * In-memory TaskStore: event log + projected snapshot per task, optimistic concurrency on the
 * sequence number, retention (TTL for finished tasks and a cap) so a long-running server does
 * not grow forever. Per event the work is O(size of the event).
 */
import { A2AError } from '../../core/errors.js';
import type { MaybePromise } from '../../core/maybe-async.js';
import { TaskProjection, isTerminal } from '../../core/task-state.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { decodePageToken, encodePageToken } from '../paging.js';
import { newId } from '../../core/ids.js';
import { ShortLivedMap } from '../../core/short-lived-map.js';
import {
  ConcurrencyError,
  type IndexedMessage,
  type LogEntry,
  type CreateOptions,
  type MessageIndexing,
  type AppendOptions,
  type AppendPush,
  type NewDelivery,
  type PushConfigStore,
  type Scope,
  type StoredPushConfig,
  type TaskPage,
  type TaskQuery,
  type TaskRecord,
  type StoreFacets,
  type TaskStore,
} from '../types.js';
import { FinishedQueue } from './finished-queue.js';
import { MemoryLeases } from './leases.js';
import { ScopeIndex } from './list-index.js';
import { packTask } from './packed-task.js';
import { MemoryPushOutbox } from './push-outbox.js';
import { LiveTask, TaskEntry, checkTransitions } from './task-entry.js';

/** Retention of the memory store. */
export interface MemoryTaskStoreOptions {
  /** How long a finished (terminal) task is kept after its last change; default 1 hour. */
  ttlMs?: number;
  /** Finished tasks beyond this many are evicted oldest first; default 10,000. */
  maxTasks?: number;
  /** How often expired tasks are swept; default min(ttlMs, 60 s). */
  sweepIntervalMs?: number;
  /**
   * Derive the audit chain from the log when it is read (StoreFacets.linksOnRead); default true.
   * False keeps the hash of each link given on write, as a durable store does (a store built on
   * this one that persists its log elsewhere; the benches measuring the chain's write-time work).
   */
  linksOnRead?: boolean;
}

/**
 * Finished tasks keep their objects until the end of the turn they finished in (or until this
 * many more have finished, if sooner), then are packed: the reads that follow a finish (the
 * blocking reply, stream replays, push deliveries) find them as they were, and the memory this
 * costs does not grow with the number of tasks. Packing at the end of the turn, not only by
 * count, keeps a finished task's objects from outliving the young generation when tasks finish
 * slowly (their copying and promotion lengthened the collections: docs/benchmarks.md).
 */
const KEEP_UNPACKED = 256;

/**
 * Keeps tasks in process memory; the default store for tests and quick starts.
 *
 * Memory: a finished task is packed into one string (its log as JSON, ./packed-task.ts) and its
 * snapshot rebuilt on read. ListTasks: each scope keeps its tasks ordered by status timestamp, per
 * state and per context (./list-index.ts), so a page costs O(log n + page size). Retention takes
 * finished tasks from a queue in the order they finished (./finished-queue.ts).
 */
export class MemoryTaskStore implements TaskStore, PushConfigStore {
  private readonly tasks = new Map<string, TaskEntry>();
  /**
   * Unfinished tasks, in the order of their last status change: what the leases scan. Entries
   * come and go with every task: see core/short-lived-map.ts.
   */
  private readonly running = new ShortLivedMap<string, LiveTask>();
  private readonly scopes = new Map<string, ScopeIndex<TaskEntry>>();
  /** Push configs by task id, then by config id (few tasks have any). */
  private readonly pushConfigs = new Map<string, Map<string, StoredPushConfig>>();
  private readonly finishedQueue = new FinishedQueue<TaskEntry>((entry) => !entry.removed);
  private readonly ttlMs: number;
  private readonly maxTasks: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly outbox = new MemoryPushOutbox();
  private readonly leases = new MemoryLeases(this.running);
  private finished = 0;
  /** Tasks finished in this turn, packed at its end (setImmediate) unless packed before. */
  private toPack: TaskEntry[] = [];
  private packing: ReturnType<typeof setImmediate> | undefined;
  /**
   * Push configs, the push outbox and leases. Shared only by servers of one process: leases
   * are used when ownership is asked for, not by default, and the audit chain is derived from
   * the log when it is read (StoreFacets.linksOnRead).
   */
  readonly facets: StoreFacets;
  /** The last status timestamp seen: tasks changed in the same millisecond share the string. */
  private lastTs = '';
  /** The scope index found last (most stores serve one scope); dropped with its scope. */
  private lastScope: ScopeIndex<TaskEntry> | undefined = undefined;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.facets = {
      pushConfigs: this,
      pushOutbox: this.outbox,
      leases: this.leases,
      leasesByDefault: false,
      linksOnRead: options.linksOnRead ?? true,
      interrupted: this.leases,
    };
    this.ttlMs = options.ttlMs ?? 60 * 60_000;
    this.maxTasks = options.maxTasks ?? 10_000;
    this.timer = setInterval(
      () => this.sweep(),
      options.sweepIntervalMs ?? Math.min(this.ttlMs, 60_000),
    );
    this.timer.unref?.();
  }

  // create, append, get, events and findByMessageId answer synchronously (TaskStore allows it; typed
  // MaybePromise so a subclass may wait): the request path then needs no promise per call.
  create(scope: Scope, task: Task, options: CreateOptions = {}): MaybePromise<void> {
    if (this.tasks.has(task.id)) throw new Error(`task ${task.id} already exists`);
    const index = this.scopeIndex(scope);
    const now = Date.now();
    const live = new LiveTask(scope, new TaskProjection(task), [{ task }], now);
    const { state } = task.status;
    const ts = this.intern(task.status.timestamp ?? '');
    const entry = new TaskEntry(task.id, task.contextId, index, ts, state, 1, live);
    if (options.chain?.[0] !== undefined) entry.hashes = [options.chain[0]];
    this.tasks.set(entry.id, entry);
    index.add(entry);
    if (options.messageId) this.indexMessage(entry, options, now);
    if (isTerminal(state)) this.finish(entry, now);
    else this.running.set(entry.id, live);
  }

  append(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
    options: AppendOptions = {},
  ): MaybePromise<number> {
    const entry = this.entry(scope, taskId);
    if (!entry)
      throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
    if (entry.seq !== expectedSeq) throw new ConcurrencyError(taskId, expectedSeq, entry.seq);
    checkTransitions(entry, events);
    if (options.messageId) this.indexMessage(entry, options, Date.now());
    // Only an unfinished task gets here with events; a finished one may index a messageId.
    const live = entry.body;
    if (!(live instanceof LiveTask) || isTerminal(entry.state)) return entry.seq;
    let statusChanged = false;
    try {
      for (const event of events) {
        live.projection.apply(event);
        live.events.push(event);
        if ('statusUpdate' in event) statusChanged = true;
      }
    } finally {
      // Also after an event the projection refused (malformed): the log and indexes stay in step.
      const now = Date.now();
      live.updatedAt = now;
      entry.seq = live.events.length;
      if (statusChanged) this.statusChanged(entry, live, now);
    }
    const { hashes } = entry;
    // The chain continues only from the hash of seq expectedSeq. A new array of the exact size:
    // pushing onto the creation's one-hash array would grow it to 17 slots, kept with the task.
    if (Array.isArray(hashes) && options.chain !== undefined && hashes.length === expectedSeq) {
      const { chain } = options;
      const added = entry.seq - expectedSeq;
      if (added > 0)
        entry.hashes = hashes.concat(added < chain.length ? chain.slice(0, added) : chain);
    }
    if (options.push) this.fanOut(scope, entry, events, expectedSeq, options.push, options.trace);
    return entry.seq;
  }

  get(scope: Scope, taskId: string): MaybePromise<TaskRecord | undefined> {
    const entry = this.entry(scope, taskId);
    return entry && { task: entry.task(), seq: entry.seq };
  }

  /** At once (no promise): a stream of a task whose events are all here reads them in one go. */
  events(scope: Scope, taskId: string, afterSeq: number, limit = 1000): MaybePromise<LogEntry[]> {
    const entry = this.entry(scope, taskId);
    if (!entry) return [];
    const start = Math.max(0, Math.trunc(afterSeq) || 0);
    const end = Math.min(entry.seq, start + Math.max(0, Math.trunc(limit) || 0));
    if (start >= end) return [];
    const events = entry.events();
    const page: LogEntry[] = [];
    for (let i = start; i < end; i++) {
      const event = events[i] as StreamResponse;
      const hash = entry.hashAt(i);
      page.push(hash === undefined ? { seq: i + 1, event } : { seq: i + 1, event, hash });
    }
    return page;
  }

  async list(scope: Scope, query: TaskQuery): Promise<TaskPage> {
    const after = query.pageToken ? decodePageToken(query.pageToken) : undefined;
    const index = this.findScope(scope);
    if (!index) return { tasks: [], nextPageToken: '', totalSize: 0 };
    const page = index.page(query, after);
    const tasks = page.items.map((entry) => entry.task());
    const last = tasks[tasks.length - 1];
    return {
      tasks,
      nextPageToken: page.more && last ? encodePageToken(last) : '',
      totalSize: page.total,
    };
  }

  findByMessageId(scope: Scope, messageId: string): MaybePromise<IndexedMessage | undefined> {
    const write = this.findScope(scope)?.messages.get(messageId);
    return (
      write && {
        taskId: write.taskId,
        fingerprint: write.fingerprint,
        ageMs: Math.max(0, Date.now() - write.at),
      }
    );
  }

  async delete(scope: Scope, taskId: string): Promise<void> {
    const entry = this.entry(scope, taskId);
    if (!entry) return;
    this.remove(entry);
    this.finishedQueue.compact(this.finished);
  }

  /** The ownership leases kept with these tasks. */
  leaseStore(): MemoryLeases {
    return this.leases;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.packing !== undefined) clearImmediate(this.packing);
    this.packing = undefined;
    this.toPack = [];
  }

  async putPushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    const entry = this.entry(scope, config.taskId);
    if (!entry) throw new A2AError('TASK_NOT_FOUND', `Task ${config.taskId} not found`);
    let configs = this.pushConfigs.get(entry.id);
    if (configs === undefined) this.pushConfigs.set(entry.id, (configs = new Map()));
    configs.set(config.id, structuredClone(config));
  }

  async getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<StoredPushConfig | undefined> {
    const config = this.configsOf(scope, taskId)?.get(id);
    return config && structuredClone(config);
  }

  async listPushConfigs(
    scope: Scope,
    taskId: string,
    options: { afterId?: string; limit?: number } = {},
  ): Promise<StoredPushConfig[]> {
    const configs = [...(this.configsOf(scope, taskId)?.values() ?? [])];
    const { afterId } = options;
    return configs
      .filter((c) => afterId === undefined || c.id > afterId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, options.limit ?? configs.length)
      .map((c) => structuredClone(c));
  }

  async deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    const configs = this.configsOf(scope, taskId);
    if (configs?.delete(id) && configs.size === 0) this.pushConfigs.delete(taskId);
  }

  /** The push outbox of this store (in memory: pending deliveries do not survive a restart). */
  pushOutbox(): MemoryPushOutbox {
    return this.outbox;
  }

  /** The deliveries of appended events (AppendOptions.push), in the append's own turn. */
  private fanOut(
    scope: Scope,
    entry: TaskEntry,
    events: readonly StreamResponse[],
    expectedSeq: number,
    push: AppendPush,
    trace: AppendOptions['trace'],
  ): void {
    const configs = this.pushConfigs.get(entry.id);
    if (configs === undefined) return;
    const deliveries: NewDelivery[] = [];
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as StreamResponse;
      if (!push.select(event)) continue;
      const body = JSON.stringify(event);
      for (const configId of configs.keys()) {
        deliveries.push({
          id: newId(),
          scope,
          taskId: entry.id,
          configId,
          seq: expectedSeq + i + 1,
          body,
          ...(trace ? { trace } : {}),
        });
      }
    }
    if (deliveries.length === 0) return;
    this.outbox.add(deliveries);
    push.enqueued();
  }

  /** Number of tasks held (for tests and metrics). */
  get size(): number {
    return this.tasks.size;
  }

  /** Removes finished tasks whose last change is older than the TTL. */
  sweep(nowMs = Date.now()): void {
    // Finished tasks never change: the queue is ordered by the time they finished.
    const limit = nowMs - this.ttlMs;
    for (let entry = this.finishedQueue.oldest(); entry; entry = this.finishedQueue.oldest()) {
      if (this.finishedQueue.oldestTime() > limit) break;
      this.remove(entry);
    }
  }

  private evictOldestFinished(): void {
    while (this.finished > this.maxTasks) {
      const entry = this.finishedQueue.oldest();
      if (!entry) return;
      this.remove(entry);
    }
  }

  /** Moves a task whose status changed in the indexes (and out of the running ones when done). */
  private statusChanged(entry: TaskEntry, live: LiveTask, now: number): void {
    const { status } = live.projection.task;
    const ts = status.timestamp ?? '';
    if (ts !== entry.ts || status.state !== entry.state) {
      entry.scope.rekey(entry, this.intern(ts), status.state);
    }
    // Re-inserted: the running tasks stay in the order of their last status change.
    this.running.delete(entry.id);
    if (isTerminal(entry.state)) this.finish(entry, now);
    else this.running.set(entry.id, live);
  }

  /** A task just became terminal (or was created so). */
  private finish(entry: TaskEntry, now: number): void {
    this.finished++;
    this.leases.forget(entry.id); // a finished task needs no lease
    this.finishedQueue.push(entry, now);
    const older = this.finishedQueue.fromBack(KEEP_UNPACKED);
    if (older) this.pack(older);
    // A caller that never lets the turn end (a loop of sends on microtasks) is bounded too: the
    // entries KEEP_UNPACKED back were packed by count already.
    if (this.toPack.length >= 2 * KEEP_UNPACKED) this.toPack = this.toPack.slice(KEEP_UNPACKED);
    this.toPack.push(entry);
    if (this.packing === undefined) {
      this.packing = setImmediate(this.packTurn);
      this.packing.unref?.();
    }
    if (this.finished > this.maxTasks) this.evictOldestFinished();
  }

  /** Packs the tasks that finished in the turn that just ended. */
  private readonly packTurn = (): void => {
    this.packing = undefined;
    const entries = this.toPack;
    // A new array each turn: the old one is not kept, nor what it held.
    this.toPack = [];
    for (const entry of entries) this.pack(entry);
  };

  /** Packs a finished task still held with its objects (./packed-task.ts). */
  private pack(entry: TaskEntry): void {
    if (!(entry.body instanceof LiveTask) || entry.removed) return;
    const { events, projection } = entry.body;
    try {
      entry.body = packTask(events, projection.task, entry);
      entry.packHashes();
    } catch {
      // A value JSON cannot hold: the task keeps its objects.
    }
  }

  private remove(entry: TaskEntry): void {
    const { id, scope: index } = entry;
    entry.removed = true;
    this.tasks.delete(id);
    this.running.delete(id);
    if (this.pushConfigs.size > 0) this.pushConfigs.delete(id);
    this.outbox.dropTask(id);
    this.leases.forget(id);
    if (isTerminal(entry.state)) this.finished--;
    index.remove(entry);
    const ids = entry.messageIds;
    if (typeof ids === 'string') forgetMessage(index, ids, id);
    else if (ids !== undefined) for (const m of ids) forgetMessage(index, m, id);
    if (index.size === 0) {
      const key = scopeKey(index);
      if (this.scopes.get(key) === index) this.scopes.delete(key);
      if (this.lastScope === index) this.lastScope = undefined;
    }
  }

  private indexMessage(entry: TaskEntry, options: MessageIndexing, at: number): void {
    const messageId = options.messageId as string;
    const fingerprint = options.fingerprint ?? '';
    entry.scope.messages.set(messageId, { taskId: entry.id, fingerprint, at });
    entry.addMessageId(messageId);
  }

  private entry(scope: Scope, taskId: string): TaskEntry | undefined {
    const entry = this.tasks.get(taskId);
    return entry && sameScope(entry.scope, scope) ? entry : undefined;
  }

  private configsOf(scope: Scope, taskId: string): Map<string, StoredPushConfig> | undefined {
    return this.entry(scope, taskId) && this.pushConfigs.get(taskId);
  }

  /** The index of the scope, if it has one; the last one found is kept (no key string then). */
  private findScope(scope: Scope): ScopeIndex<TaskEntry> | undefined {
    const last = this.lastScope;
    if (last !== undefined && sameScope(last, scope)) return last;
    const index = this.scopes.get(scopeKey(scope));
    if (index !== undefined) this.lastScope = index;
    return index;
  }

  private scopeIndex(scope: Scope): ScopeIndex<TaskEntry> {
    let index = this.findScope(scope);
    if (index === undefined) {
      index = new ScopeIndex(scope.tenant, scope.owner);
      this.scopes.set(scopeKey(scope), index);
      this.lastScope = index;
    }
    return index;
  }

  private intern(ts: string): string {
    if (ts === this.lastTs) return this.lastTs;
    this.lastTs = ts;
    return ts;
  }
}

/** Drops a messageId from the index unless it was reused for a later task since. */
function forgetMessage(index: ScopeIndex<TaskEntry>, messageId: string, taskId: string): void {
  if (index.messages.get(messageId)?.taskId === taskId) index.messages.delete(messageId);
}

function sameScope(a: Scope, b: Scope): boolean {
  return a.tenant === b.tenant && a.owner === b.owner;
}

/** One key per scope; the length keeps `a\0b` + `c` apart from `a` + `b\0c`. */
function scopeKey(scope: Scope): string {
  return `${scope.tenant.length}:${scope.tenant}\u0000${scope.owner}`;
}
