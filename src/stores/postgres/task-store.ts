/**
 * PostgreSQL TaskStore: an append-only event log per task plus a small task row (scope, state,
 * status timestamp, seq) that ListTasks reads through an index. Writes are group-committed
 * (append-batch.ts): the appends and creations of concurrent tasks go in one statement that
 * inserts their events and moves each row's seq under optimistic concurrency; the task is never
 * rewritten. A creation may carry the agent's first events (`createWith`). The message index
 * lookups of one turn are one statement too (read-batch.ts).
 * Snapshots are the creation snapshot plus the log, folded once and cached (see ProjectionCache).
 */
import type { Pool, QueryResultRow } from 'pg';
import { A2AError } from '../../core/errors.js';
import type { StreamResponse, Task, TaskState } from '../../core/schemas/index.js';
import { batchProblem, isTerminal } from '../../core/task-state.js';
import {
  ConcurrencyError,
  type IndexedMessage,
  type LogEntry,
  type CreateOptions,
  type CreateWithOptions,
  type AppendOptions,
  type GetOptions,
  type LogSource,
  type PushConfigStore,
  type Scope,
  type StoredPushConfig,
  type TaskPage,
  type TaskQuery,
  type TaskRecord,
  type StoreFacets,
  type TaskStore,
} from '../types.js';
import {
  AppendBatch,
  type Appended,
  type AppendRow,
  type BatchRow,
  type CreateRow,
} from './append-batch.js';
import {
  connect,
  readQuery,
  type Connection,
  type PostgresConnectionOptions,
} from './connection.js';
import { PostgresLeases } from './leases.js';
import { migrate } from './migrations.js';
import { ProjectionCache, advance, project, type CachedTask } from './projection-cache.js';
import { PostgresPushConfigs } from './push-configs.js';
import { PostgresPushOutbox } from './push-outbox.js';
import { pushStatements } from './push-statements.js';
import { ReadBatch } from './read-batch.js';
import { statements, type Statement, type Statements } from './statements.js';
import { allowedFrom, transitionError } from './transitions.js';
import { listPage } from './list-query.js';

/** Options of {@link PostgresTaskStore.open}. */
export interface PostgresTaskStoreOptions extends PostgresConnectionOptions {
  /** Task snapshots kept in memory, least recently used evicted (default 1,000; 0 disables). */
  cacheSize?: number;
  /** Apply pending migrations at open (default true); false expects `migrate()` to have run. */
  migrate?: boolean;
  /** Periodic {@link PostgresTaskStore.purge} of finished tasks (default: off). */
  retention?: {
    /** Finished tasks are deleted this long after they reached their terminal state. */
    finishedTtlMs: number;
    /** How often to purge (default min(finishedTtlMs, 60 s)). */
    intervalMs?: number;
  };
}

/** One message index lookup. */
interface MessageKey {
  readonly scope: Scope;
  readonly messageId: string;
}

interface LoadRow {
  id: string;
  rid: string;
  seq: number;
  fresh: boolean;
  base: Task | null;
  from_seq: number;
  events: StreamResponse[] | null;
}

/** Tasks in PostgreSQL: shared by every instance of an agent (scale-out). */
export class PostgresTaskStore implements TaskStore, PushConfigStore, LogSource {
  private readonly sql: Statements;
  private readonly cache: ProjectionCache;
  private readonly push: PostgresPushConfigs;
  private readonly outbox: PostgresPushOutbox;
  private readonly leases: PostgresLeases;
  private readonly batch: AppendBatch;
  private readonly messages: ReadBatch<MessageKey, IndexedMessage | undefined>;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Push configs, the shared push outbox and ownership leases, in the same database. */
  readonly facets: StoreFacets;

  private constructor(
    private readonly conn: Connection,
    options: PostgresTaskStoreOptions,
  ) {
    this.sql = statements(conn.schema, conn.quoted);
    this.cache = new ProjectionCache(options.cacheSize ?? 1000);
    const push = pushStatements(conn.schema, conn.quoted);
    this.push = new PostgresPushConfigs(conn.pool, push);
    this.outbox = new PostgresPushOutbox(conn.pool, push);
    this.leases = new PostgresLeases(conn.pool, conn.schema, conn.quoted);
    this.batch = new AppendBatch((rows) => this.appendRows(rows));
    this.messages = new ReadBatch((keys) => this.findMessages(keys));
    this.facets = {
      pushConfigs: this,
      pushOutbox: this.outbox,
      leases: this.leases,
      interrupted: this.leases,
    };
  }

  /** Connects, applies pending migrations (under an advisory lock) and returns the store. */
  static async open(options: PostgresTaskStoreOptions | string): Promise<PostgresTaskStore> {
    const opts = typeof options === 'string' ? { connectionString: options } : options;
    const conn = connect(opts);
    try {
      if (opts.migrate !== false) await migrate(conn.pool, conn.schema);
    } catch (error) {
      if (conn.owned) await conn.pool.end();
      throw error;
    }
    const store = new PostgresTaskStore(conn, opts);
    const { retention } = opts;
    if (retention) {
      const every = retention.intervalMs ?? Math.min(retention.finishedTtlMs, 60_000);
      store.timer = setInterval(() => {
        const finishedBefore = new Date(Date.now() - retention.finishedTtlMs);
        store.purge({ finishedBefore }).catch((e) => conn.logger?.warn('a2a-kit: purge:', e));
      }, every);
      store.timer.unref?.();
    }
    return store;
  }

  /** The pool (share it with a {@link PostgresEventBus}). */
  get pool(): Pool {
    return this.conn.pool;
  }

  /** The PostgreSQL schema holding the tables. */
  get schema(): string {
    return this.conn.schema;
  }

  async create(scope: Scope, task: Task, options: CreateOptions = {}): Promise<void> {
    await this.createWith(scope, task, [], options);
  }

  /** A creation and its first events, in the next group commit (see append-batch.ts). */
  async createWith(
    scope: Scope,
    task: Task,
    events: readonly StreamResponse[],
    options: CreateWithOptions = {},
  ): Promise<number> {
    let status = task.status;
    for (const e of events) if ('statusUpdate' in e) status = e.statusUpdate.status;
    const row = await this.batch.submit({
      create: true,
      id: task.id,
      tenant: scope.tenant,
      owner: scope.owner,
      context: task.contextId ?? '',
      state: status.state,
      ts: status.timestamp ?? '',
      task,
      events,
      count: events.length,
      terminal: isTerminal(status.state),
      message_id: options.messageId ?? null,
      fingerprint: options.fingerprint ?? '',
      hashes: options.chain ?? null,
      lease_owner: options.lease?.instanceId ?? null,
      lease_ms: Math.max(0, Math.min(2_147_483_647, Math.round(options.lease?.ttlMs ?? 0))),
    });
    if (!row) throw new Error(`task ${task.id} already exists`);
    this.cache.set(task.id, project(row.rid, task, 1, events));
    return 1 + events.length;
  }

  async append(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
    options: AppendOptions = {},
  ): Promise<number> {
    const pushed: number[] = [];
    if (options.push) {
      for (let i = 0; i < events.length; i++) {
        if (options.push.select(events[i] as StreamResponse)) pushed.push(i + 1);
      }
    }
    let status: { state: TaskState; timestamp?: string | undefined } | undefined;
    for (const e of events) if ('statusUpdate' in e) status = e.statusUpdate.status;
    const row = await this.batch.submit({
      id: taskId,
      tenant: scope.tenant,
      owner: scope.owner,
      expected: expectedSeq,
      events,
      count: events.length,
      allowed: allowedFrom(events),
      state: status?.state ?? null,
      ts: status ? (status.timestamp ?? '') : null,
      terminal: status !== undefined && isTerminal(status.state),
      message_id: options.messageId ?? null,
      fingerprint: options.fingerprint ?? '',
      pushed,
      trace: options.trace ? JSON.stringify(options.trace) : null,
      hashes: options.chain ?? null,
    });
    if (!row) throw await this.refusal(scope, taskId, events, expectedSeq);
    if (row.pushed > 0) options.push?.enqueued();
    const cached = this.cache.peek(taskId);
    // Moved forward in place only when it is exactly at expectedSeq; otherwise the next read
    // brings it up to date from the log.
    if (cached && (cached.rid !== row.rid || !advance(cached, expectedSeq, events))) {
      this.cache.delete(taskId);
    }
    return expectedSeq + events.length;
  }

  async get(scope: Scope, taskId: string, options?: GetOptions): Promise<TaskRecord | undefined> {
    // The snapshot as of the caller's own write: this store's write put it in the cache.
    const cached = options?.written !== undefined ? this.cache.peek(taskId) : undefined;
    if (cached && cached.seq === options?.written) {
      this.cache.set(taskId, cached);
      return { task: cached.projection.task, seq: cached.seq };
    }
    return (await this.load(scope, [taskId])).get(taskId);
  }

  async events(
    scope: Scope,
    taskId: string,
    afterSeq: number,
    limit = 1000,
    maxBytes = Infinity,
  ): Promise<LogEntry[]> {
    const { rows } = await this.read<{ seq: number; body: StreamResponse; hash: string | null }>(
      this.sql.events,
      [
        taskId,
        scope.tenant,
        scope.owner,
        Math.max(0, Math.floor(afterSeq)),
        Math.max(0, Math.floor(limit)),
        Number.isFinite(maxBytes) ? Math.max(0, Math.floor(maxBytes)) : null,
      ],
    );
    return rows.map((r) =>
      r.hash === null ? { seq: r.seq, event: r.body } : { seq: r.seq, event: r.body, hash: r.hash },
    );
  }

  async list(scope: Scope, query: TaskQuery): Promise<TaskPage> {
    return listPage(this.conn.pool, this.conn.quoted, scope, query, (ids) => this.load(scope, ids));
  }

  findByMessageId(scope: Scope, messageId: string): Promise<IndexedMessage | undefined> {
    return this.messages.read({ scope, messageId });
  }

  async delete(scope: Scope, taskId: string): Promise<void> {
    const result = await this.run(this.sql.delete, [taskId, scope.tenant, scope.owner]);
    if (result.rowCount) this.cache.delete(taskId);
  }

  /**
   * Retention: deletes tasks that reached a terminal state before `finishedBefore` (database
   * clock), with their logs and message index rows, `batchSize` tasks per statement so no
   * transaction grows large. Safe to run on several instances at once. Returns how many went.
   */
  async purge(options: { finishedBefore: Date; batchSize?: number }): Promise<number> {
    const batchSize = options.batchSize ?? 500;
    let total = 0;
    for (;;) {
      const { rows } = await this.run<{ id: string }>(this.sql.purge, [
        options.finishedBefore,
        batchSize,
      ]);
      for (const row of rows) this.cache.delete(row.id);
      total += rows.length;
      if (rows.length < batchSize || this.closed) return total;
    }
  }

  async entryAt(taskId: string, seq: number): Promise<LogEntry | undefined> {
    const { rows } = await this.read<{ seq: number; body: StreamResponse }>(this.sql.entryAt, [
      taskId,
      seq,
    ]);
    return rows[0] && { seq: rows[0].seq, event: rows[0].body };
  }

  async lastEntry(taskId: string): Promise<LogEntry | undefined> {
    const { rows } = await this.read<{ seq: number; body: StreamResponse }>(this.sql.lastEntry, [
      taskId,
    ]);
    return rows[0] && { seq: rows[0].seq, event: rows[0].body };
  }

  putPushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    return this.push.put(scope, config);
  }

  getPushConfig(scope: Scope, taskId: string, id: string) {
    return this.push.get(scope, taskId, id);
  }

  listPushConfigs(
    scope: Scope,
    taskId: string,
    options: { afterId?: string; limit?: number } = {},
  ) {
    return this.push.list(scope, taskId, options);
  }

  deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    return this.push.delete(scope, taskId, id);
  }

  /** The push outbox every instance on this database shares. */
  pushOutbox(): PostgresPushOutbox {
    return this.outbox;
  }

  /** The ownership leases every instance on this database shares. */
  leaseStore(): PostgresLeases {
    return this.leases;
  }

  /** Stops the retention timer and ends the pool if this store created it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.batch.drain();
    this.cache.clear();
    if (this.conn.owned) await this.conn.pool.end();
  }

  /** Snapshots of some tasks of one scope, from the cache brought up to date by one query. */
  private async load(scope: Scope, ids: readonly string[]): Promise<Map<string, TaskRecord>> {
    const found = new Map<string, TaskRecord>();
    let pending = ids;
    // Two rounds at most: the second re-reads from the base any task whose cache entry was
    // evicted while the first query ran (it then brought only the newer events).
    for (let round = 0; round < 2 && pending.length > 0; round++) {
      const cached = pending.map((id) => (round === 0 ? this.cache.peek(id) : undefined));
      const { rows } = await this.read<LoadRow>(this.sql.load, [
        scope.tenant,
        scope.owner,
        pending,
        cached.map((c) => c?.rid ?? null),
        cached.map((c) => c?.seq ?? 0),
      ]);
      const retry: string[] = [];
      for (const row of rows) {
        const entry = this.current(row);
        if (entry) found.set(row.id, { task: entry.projection.task, seq: entry.seq });
        else retry.push(row.id);
      }
      pending = retry;
    }
    return found;
  }

  /** The cache entry of a loaded row, created or moved forward; undefined if it must be re-read. */
  private current(row: LoadRow): CachedTask | undefined {
    const events = row.events ?? [];
    if (row.fresh) {
      if (!row.base) return undefined;
      const entry = project(row.rid, row.base, row.from_seq, events);
      if (entry.seq !== row.seq) throw new Error(`task ${row.id}: its log does not replay`);
      this.cache.set(row.id, entry);
      return entry;
    }
    const entry = this.cache.peek(row.id);
    if (!entry || entry.rid !== row.rid || !advance(entry, row.from_seq, events)) {
      this.cache.delete(row.id);
      return undefined;
    }
    this.cache.set(row.id, entry);
    return entry;
  }

  /** The error of an append that matched no row: unknown task, stale seq or bad transition. */
  private async refusal(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
  ): Promise<Error> {
    const { rows } = await this.read<{
      tenant: string;
      owner: string;
      seq: number;
      state: TaskState;
    }>(this.sql.inspect, [taskId]);
    const row = rows[0];
    if (!row || row.tenant !== scope.tenant || row.owner !== scope.owner) {
      return new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
    }
    if (row.seq !== expectedSeq || batchProblem(row.state, events) === undefined) {
      return new ConcurrencyError(taskId, expectedSeq, row.seq);
    }
    return transitionError(taskId, row.state, events);
  }

  /** One group-commit statement (see append-batch.ts): the rows that matched, by index. */
  private async appendRows(
    rows: readonly (BatchRow & { i: number })[],
  ): Promise<Map<number, Appended>> {
    const appends: (AppendRow & { i: number })[] = [];
    const creations: (CreateRow & { i: number })[] = [];
    for (const row of rows) {
      if ('create' in row) creations.push(row);
      else appends.push(row);
    }
    const result = await this.run<{ i: number } & Appended>(this.sql.append, [
      JSON.stringify(appends),
      appends.map((r) => r.id),
      JSON.stringify(creations),
    ]);
    return new Map(result.rows.map((r) => [r.i, { rid: r.rid, pushed: r.pushed }]));
  }

  /** One batch of message index lookups (see read-batch.ts). */
  private async findMessages(keys: readonly MessageKey[]): Promise<(IndexedMessage | undefined)[]> {
    const { rows } = await this.read<{
      i: number;
      task_id: string;
      fingerprint: string;
      age_ms: number;
    }>(this.sql.findByMessageId, [
      keys.map((k) => k.scope.tenant),
      keys.map((k) => k.scope.owner),
      keys.map((k) => k.messageId),
    ]);
    const found: (IndexedMessage | undefined)[] = keys.map(() => undefined);
    for (const row of rows) {
      found[row.i - 1] = { taskId: row.task_id, fingerprint: row.fingerprint, ageMs: row.age_ms };
    }
    return found;
  }

  private run<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
    return this.conn.pool.query<R>({ name: statement.name, text: statement.text, values });
  }

  /** A read-only statement, run again if the server ended its connection (connection.ts). */
  private read<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
    return readQuery<R>(this.conn.pool, { name: statement.name, text: statement.text, values });
  }
}
