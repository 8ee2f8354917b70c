/**
 * In-memory TaskStore: event log + projected snapshot per task, optimistic concurrency on the
 * sequence number, retention (TTL for finished tasks and a cap) so a long-running server does
 * not grow forever. Per event the work is O(size of the event).
 */
import { A2AError } from '../../core/errors.js';
import { TaskProjection, isTerminal } from '../../core/task-state.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { decodePageToken, encodePageToken, newestFirst } from '../paging.js';
import {
  ConcurrencyError,
  type LogEntry,
  type PushConfigStore,
  type Scope,
  type StoredPushConfig,
  type TaskPage,
  type TaskQuery,
  type TaskRecord,
  type TaskStore,
} from '../types.js';
import { MemoryLeases } from './leases.js';
import { MemoryPushOutbox } from './push-outbox.js';

/** Retention of the memory store. */
export interface MemoryTaskStoreOptions {
  /** How long a finished (terminal) task is kept after its last change; default 1 hour. */
  ttlMs?: number;
  /** Finished tasks beyond this many are evicted oldest first; default 10,000. */
  maxTasks?: number;
  /** How often expired tasks are swept; default min(ttlMs, 60 s). */
  sweepIntervalMs?: number;
}

interface Entry {
  readonly scope: Scope;
  readonly projection: TaskProjection;
  readonly log: LogEntry[];
  readonly messageIds: string[];
  /** Push configs by id; they go with the task. */
  readonly pushConfigs: Map<string, StoredPushConfig>;
  updatedAt: number;
}

/** Keeps tasks in process memory; the default store for tests and quick starts. */
export class MemoryTaskStore implements TaskStore, PushConfigStore {
  // Insertion order = order of last status change (entries are re-inserted on each change),
  // so the oldest finished tasks are found first when evicting.
  private readonly tasks = new Map<string, Entry>();
  private readonly messages = new Map<string, string>();
  private readonly ttlMs: number;
  private readonly maxTasks: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private outbox: MemoryPushOutbox | undefined;
  private readonly leases = new MemoryLeases(this.tasks);
  private finished = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60 * 60_000;
    this.maxTasks = options.maxTasks ?? 10_000;
    this.timer = setInterval(
      () => this.sweep(),
      options.sweepIntervalMs ?? Math.min(this.ttlMs, 60_000),
    );
    this.timer.unref?.();
  }

  async create(scope: Scope, task: Task, options: { messageId?: string } = {}): Promise<void> {
    if (this.tasks.has(task.id)) throw new Error(`task ${task.id} already exists`);
    const entry: Entry = {
      scope,
      projection: new TaskProjection(task),
      log: [{ seq: 1, event: { task } }],
      messageIds: [],
      pushConfigs: new Map(),
      updatedAt: Date.now(),
    };
    this.tasks.set(task.id, entry);
    if (isTerminal(task.status.state)) this.finished++;
    if (options.messageId) this.indexMessage(entry, task.id, options.messageId);
    if (this.finished > this.maxTasks) this.evictOldestFinished();
  }

  async append(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
    options: { messageId?: string } = {},
  ): Promise<number> {
    const entry = this.entry(scope, taskId);
    if (!entry)
      throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
    const seq = entry.log.length;
    if (seq !== expectedSeq) throw new ConcurrencyError(taskId, expectedSeq, seq);
    checkTransitions(entry.projection.task, events);
    let statusChanged = false;
    for (const event of events) {
      entry.projection.apply(event);
      entry.log.push({ seq: entry.log.length + 1, event });
      if ('statusUpdate' in event) statusChanged = true;
    }
    if (options.messageId) this.indexMessage(entry, taskId, options.messageId);
    entry.updatedAt = Date.now();
    if (statusChanged) {
      this.tasks.delete(taskId);
      this.tasks.set(taskId, entry);
      if (isTerminal(entry.projection.task.status.state)) {
        this.finished++;
        if (this.finished > this.maxTasks) this.evictOldestFinished();
      }
    }
    return entry.log.length;
  }

  async get(scope: Scope, taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.entry(scope, taskId);
    return entry && { task: entry.projection.task, seq: entry.log.length };
  }

  async events(scope: Scope, taskId: string, afterSeq: number, limit = 1000): Promise<LogEntry[]> {
    const entry = this.entry(scope, taskId);
    if (!entry) return [];
    return entry.log.slice(Math.max(0, afterSeq), Math.max(0, afterSeq) + limit);
  }

  async list(scope: Scope, query: TaskQuery): Promise<TaskPage> {
    const after = query.pageToken ? decodePageToken(query.pageToken) : undefined;
    const matches: Task[] = [];
    for (const entry of this.tasks.values()) {
      if (!sameScope(entry.scope, scope)) continue;
      const task = entry.projection.task;
      if (query.contextId && task.contextId !== query.contextId) continue;
      if (query.status && task.status.state !== query.status) continue;
      if (query.statusTimestampAfter && (task.status.timestamp ?? '') < query.statusTimestampAfter)
        continue;
      matches.push(task);
    }
    matches.sort(newestFirst);
    let start = 0;
    if (after) {
      while (start < matches.length && newestFirst(matches[start] as Task, after) <= 0) start++;
    }
    const tasks = matches.slice(start, start + query.pageSize);
    const last = tasks[tasks.length - 1];
    const more = start + query.pageSize < matches.length;
    return {
      tasks,
      nextPageToken: more && last ? encodePageToken(last) : '',
      totalSize: matches.length,
    };
  }

  async findByMessageId(scope: Scope, messageId: string): Promise<string | undefined> {
    return this.messages.get(messageKey(scope, messageId));
  }

  async delete(scope: Scope, taskId: string): Promise<void> {
    const entry = this.entry(scope, taskId);
    if (entry) this.remove(taskId, entry);
  }

  /** The ownership leases kept with these tasks. */
  leaseStore(): MemoryLeases {
    return this.leases;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
  }

  async putPushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    const entry = this.entry(scope, config.taskId);
    if (!entry) throw new A2AError('TASK_NOT_FOUND', `Task ${config.taskId} not found`);
    entry.pushConfigs.set(config.id, structuredClone(config));
  }

  async getPushConfig(
    scope: Scope,
    taskId: string,
    id: string,
  ): Promise<StoredPushConfig | undefined> {
    const config = this.entry(scope, taskId)?.pushConfigs.get(id);
    return config && structuredClone(config);
  }

  async listPushConfigs(
    scope: Scope,
    taskId: string,
    options: { afterId?: string; limit?: number } = {},
  ): Promise<StoredPushConfig[]> {
    const configs = [...(this.entry(scope, taskId)?.pushConfigs.values() ?? [])];
    const { afterId } = options;
    return configs
      .filter((c) => afterId === undefined || c.id > afterId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, options.limit ?? configs.length)
      .map((c) => structuredClone(c));
  }

  async deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    this.entry(scope, taskId)?.pushConfigs.delete(id);
  }

  /** The push outbox of this store (in memory: pending deliveries do not survive a restart). */
  pushOutbox(): MemoryPushOutbox {
    return (this.outbox ??= new MemoryPushOutbox());
  }

  /** Number of tasks held (for tests and metrics). */
  get size(): number {
    return this.tasks.size;
  }

  /** Removes finished tasks whose last change is older than the TTL. */
  sweep(nowMs = Date.now()): void {
    for (const [id, entry] of this.tasks) {
      // Running tasks may have changed since (artifacts do not move them); finished ones are
      // ordered by the time they finished, since nothing changes them afterwards.
      if (!isTerminal(entry.projection.task.status.state)) continue;
      if (entry.updatedAt > nowMs - this.ttlMs) break;
      this.remove(id, entry);
    }
  }

  private evictOldestFinished(): void {
    for (const [id, entry] of this.tasks) {
      if (this.finished <= this.maxTasks) return;
      if (isTerminal(entry.projection.task.status.state)) this.remove(id, entry);
    }
  }

  private remove(taskId: string, entry: Entry): void {
    this.tasks.delete(taskId);
    this.outbox?.dropTask(taskId);
    this.leases.forget(taskId);
    if (isTerminal(entry.projection.task.status.state)) this.finished--;
    for (const m of entry.messageIds) {
      const key = messageKey(entry.scope, m);
      // The id may have been reused for a later task: only drop what still points here.
      if (this.messages.get(key) === taskId) this.messages.delete(key);
    }
  }

  private indexMessage(entry: Entry, taskId: string, messageId: string): void {
    this.messages.set(messageKey(entry.scope, messageId), taskId);
    entry.messageIds.push(messageId);
  }

  private entry(scope: Scope, taskId: string): Entry | undefined {
    const entry = this.tasks.get(taskId);
    return entry && sameScope(entry.scope, scope) ? entry : undefined;
  }
}

/**
 * Validates a batch against the state machine before anything is written, so a batch with one
 * forbidden change leaves the task and its log untouched. The trial carries only the status:
 * O(size of the events), never of the task.
 */
function checkTransitions(task: Task, events: readonly StreamResponse[]): void {
  const trial = new TaskProjection({ id: task.id, status: task.status });
  for (const event of events) trial.apply(event);
}

function sameScope(a: Scope, b: Scope): boolean {
  return a.tenant === b.tenant && a.owner === b.owner;
}

function messageKey(scope: Scope, messageId: string): string {
  return `${scope.tenant}\u0000${scope.owner}\u0000${messageId}`;
}
