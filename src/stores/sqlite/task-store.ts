/**
 * SQLite TaskStore on better-sqlite3 (WAL, synchronous=NORMAL): survives restarts and crashes of
 * the process with no server to install. A write is one INSERT into the log (its events in one
 * row, event-rows.ts) plus a small UPDATE of the task's row (scalars only) guarded by the
 * optimistic seq check, in one transaction; nothing proportional to the task's size is
 * written. A creation may carry the agent's first burst (`createWith`): the row is inserted at
 * the state after it, with the lease when the task still runs, so a blocking send its agent
 * finishes at once is one write of each row (and two log rows, the creation and the burst); its
 * answer comes from the projection that write left (`GetOptions.written`).
 *
 * Reads: a checkpoint (the task as of `snapshot_seq`: the creation event at seq 1 until one is
 * rewritten, then a row of its own table, so that the per-write UPDATE never rewrites it) plus
 * the log after it, replayed onto a TaskProjection. Projections of recently used tasks stay in an
 * LRU and appends advance them in place, so the server's hot path (append, then read the task it
 * runs) never replays. Writes of one event-loop turn share one transaction (write-batch.ts), and
 * so do its message-index lookups (read-batch.ts). The checkpoint is rewritten (a) once, when the
 * task finishes more than 16 events after it, so finished tasks (most of ListTasks and GetTask)
 * load from one row and a short replay, and (b) when the events after it outnumber both
 * `checkpointEvents` and the events before it: this geometric spacing keeps all checkpoint writes
 * O(final task size), O(1) amortized per event, and bounds a cold read to replaying at most half
 * the log.
 */
import type Database from 'better-sqlite3';
import { A2AError } from '../../core/errors.js';
import { withFields } from '../../core/with-fields.js';
import type { StreamResponse, Task, TaskState, TaskStatus } from '../../core/schemas/index.js';
import { TaskTransitionError, batchProblem, isTerminal } from '../../core/task-state.js';
import { decodePageToken, encodePageToken, withinBytes } from '../paging.js';
import type {
  IndexedMessage,
  AppendOptions,
  LogEntry,
  CreateOptions,
  CreateWithOptions,
  GetOptions,
  MessageIndexing,
  PushConfigStore,
  Scope,
  StoredPushConfig,
  TaskPage,
  TaskQuery,
  TaskRecord,
  StoreFacets,
  TaskStore,
} from '../types.js';
import { ConcurrencyError } from '../types.js';
import { type SqliteLocation, openSqlite } from './connection.js';
import { Projections, type Projected } from './projections.js';
import { SqliteLeases } from './leases.js';
import { registerPresence, type Presence } from './process-lock.js';
import { WriteBatch } from './write-batch.js';
import { ReadBatch } from './read-batch.js';
import { WalSync } from './wal-sync.js';
import { eventRow, rowLines } from './event-rows.js';
import { SqlitePushConfigs } from './push-configs.js';
import { SqlitePushOutbox } from './push-outbox.js';
import {
  type ListStatements,
  type Statements,
  listStatements,
  prepareStatements,
} from './statements.js';

/** Options of {@link SqliteTaskStore}. */
export type SqliteTaskStoreOptions = SqliteLocation & {
  /** Tasks whose projection is kept in memory (LRU of reads and writes); default 1,000. */
  cacheSize?: number;
  /** How long a write waits for another process's lock before failing; default 5,000 ms. */
  busyTimeoutMs?: number;
  /** Finished tasks are purged this long after their last change; default: kept forever. */
  ttlMs?: number;
  /** How often the TTL purge runs; default min(ttlMs, 60 s). */
  sweepIntervalMs?: number;
  /** Events after a checkpoint before a running task's snapshot is rewritten; default 1,000. */
  checkpointEvents?: number;
};

/** Events a finished task may replay after its checkpoint before the checkpoint is rewritten. */
const FINISHED_REPLAY = 16;

/** A TaskStore in one SQLite file: the embedded default of `a2a serve`. */
export class SqliteTaskStore implements TaskStore, PushConfigStore {
  /** The connection; other SQLite stores of a2a-kit may share it. */
  readonly db: Database.Database;
  private readonly sql: Statements;
  private readonly lists = new Map<string, ListStatements>();
  private readonly projections: Projections;
  private readonly push: SqlitePushConfigs;
  private outbox: SqlitePushOutbox | undefined;
  private readonly leases: SqliteLeases;
  private readonly presence: Presence;
  private readonly owned: boolean;
  private readonly checkpointEvents: number;
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private readonly batch: WriteBatch;
  private readonly lookups: ReadBatch;
  private readonly walSync: WalSync | undefined;
  private readonly purgeTx;
  private readonly readTx;
  /** Push configs, the push outbox and ownership leases, in the same file. */
  readonly facets: StoreFacets;

  constructor(options: SqliteTaskStoreOptions) {
    ({ db: this.db, owned: this.owned } = openSqlite(options, options.busyTimeoutMs));
    this.sql = prepareStatements(this.db);
    this.projections = new Projections(this.sql, options.cacheSize ?? 1_000);
    this.push = new SqlitePushConfigs(this.db);
    // A file's WAL is synced in the background between checkpoints (wal-sync.ts).
    this.walSync = this.db.memory ? undefined : new WalSync(`${this.db.name}-wal`);
    this.batch = new WriteBatch(this.db, this.walSync?.committed);
    this.lookups = new ReadBatch(this.db);
    this.leases = new SqliteLeases(this.db, this.batch, Date.now, this.owned);
    this.presence = registerPresence(this.db.name);
    this.checkpointEvents = Math.max(1, options.checkpointEvents ?? 1_000);
    this.purgeTx = this.db.transaction(this.purgeBatch.bind(this));
    this.readTx = this.db.transaction((read: () => unknown) => read());
    this.facets = {
      pushConfigs: this,
      pushOutbox: this.pushOutbox(),
      leases: this.leases,
      interrupted: this.leases,
    };
    const { ttlMs } = options;
    if (ttlMs !== undefined) {
      this.timer = setInterval(
        () => {
          try {
            this.purgeFinished(Date.now() - ttlMs);
          } catch {
            // Busy or closing: the next sweep tries again.
          }
        },
        options.sweepIntervalMs ?? Math.min(ttlMs, 60_000),
      );
      this.timer.unref?.();
    }
  }

  async create(scope: Scope, task: Task, options: CreateOptions = {}): Promise<void> {
    await this.createWith(scope, task, [], options);
  }

  /**
   * A creation and its first events as one write, in the next group commit: the task's row is
   * inserted at its state after them (with the lease when it is still running), so the send of a
   * task its agent's first burst finishes writes each row once (no UPDATE, no claim).
   */
  async createWith(
    scope: Scope,
    task: Task,
    events: readonly StreamResponse[],
    options: CreateWithOptions = {},
  ): Promise<number> {
    const created = await this.batch.run(() => this.insert(scope, task, events, options));
    this.projections.seed(task.id, created);
    return created.seq;
  }

  async append(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
    options: AppendOptions = {},
  ): Promise<number> {
    try {
      return await this.batch.run(() => this.write(scope, taskId, events, expectedSeq, options));
    } catch (error) {
      // The cached projection may be ahead of what was committed, or stale (another process).
      this.projections.forget(taskId);
      throw error;
    }
  }

  async get(scope: Scope, taskId: string, options?: GetOptions): Promise<TaskRecord | undefined> {
    // The snapshot as of the caller's own write: this store's write left it in the cache.
    const written =
      options?.written === undefined ? undefined : this.projections.at(taskId, options.written);
    if (written) return { task: written.projection.task, seq: written.seq };
    return this.read(() => {
      const head = this.sql.head.get(taskId, scope.tenant, scope.owner);
      if (!head) return undefined;
      const cached = this.projections.load(taskId, head, true);
      return { task: cached.projection.task, seq: cached.seq };
    });
  }

  async events(
    scope: Scope,
    taskId: string,
    afterSeq: number,
    limit = 1000,
    maxBytes = Infinity,
  ): Promise<LogEntry[]> {
    return this.read(() => {
      if (!this.sql.head.get(taskId, scope.tenant, scope.owner)) return [];
      const page: LogEntry[] = [];
      const max = Math.max(0, limit);
      let bytes = 0;
      rows: for (const row of this.sql.eventsAfter.iterate(taskId, Math.max(0, afterSeq), max)) {
        for (const { seq, text, hash } of rowLines(row, afterSeq)) {
          // Counted before parsing: the page ends with the entry that reaches maxBytes.
          if (bytes >= maxBytes || page.length >= max) break rows;
          bytes += text.length;
          const event = JSON.parse(text) as StreamResponse;
          page.push(hash === null ? { seq, event } : { seq, event, hash });
        }
      }
      return page;
    });
  }

  async list(scope: Scope, query: TaskQuery): Promise<TaskPage> {
    const cursor = query.pageToken ? decodePageToken(query.pageToken) : undefined;
    const { count, page } = listStatements(this.db, this.lists, query, cursor !== undefined);
    const params = {
      tenant: scope.tenant,
      owner: scope.owner,
      contextId: query.contextId ?? '',
      status: query.status ?? '',
      after: query.statusTimestampAfter ?? '',
      cursorTs: cursor?.timestamp ?? '',
      cursorId: cursor?.id ?? '',
      limit: query.pageSize + 1, // one more tells whether another page exists
    };
    return this.read(() => {
      const totalSize = count.get(params)?.n ?? 0;
      const { rows, more } = withinBytes(page.all(params), query.pageSize, query.maxBytes);
      // Listing does not fill the cache: a large listing must not push out the running tasks.
      const tasks = rows.map((row) => this.projections.load(row.id, row, false).projection.task);
      const last = tasks[tasks.length - 1];
      return { tasks, nextPageToken: more && last ? encodePageToken(last) : '', totalSize };
    });
  }

  findByMessageId(scope: Scope, messageId: string): Promise<IndexedMessage | undefined> {
    // The lookups of the sends of one turn share one read transaction (read-batch.ts).
    return this.lookups.run(() => {
      const row = this.sql.findMessage.get(scope.tenant, scope.owner, messageId);
      return (
        row && {
          taskId: row.task_id,
          fingerprint: row.fingerprint,
          ageMs: row.indexed_at > 0 ? Math.max(0, Date.now() - row.indexed_at) : Infinity,
        }
      );
    });
  }

  async delete(scope: Scope, taskId: string): Promise<void> {
    await this.batch.run(() => this.remove(scope, taskId));
  }

  /** Deletes finished tasks (log and message index included) last changed before the date. */
  async purge(options: { finishedBefore: Date | number }): Promise<number> {
    const before = options.finishedBefore;
    return this.purgeFinished(typeof before === 'number' ? before : before.getTime());
  }

  async putPushConfig(scope: Scope, config: StoredPushConfig): Promise<void> {
    this.push.save(scope, config);
  }

  async getPushConfig(scope: Scope, taskId: string, id: string) {
    return this.push.get(scope, taskId, id);
  }

  async listPushConfigs(
    scope: Scope,
    taskId: string,
    options: { afterId?: string; limit?: number } = {},
  ): Promise<StoredPushConfig[]> {
    return this.push.list(scope, taskId, options);
  }

  async deletePushConfig(scope: Scope, taskId: string, id: string): Promise<void> {
    this.push.delete(scope, taskId, id);
  }

  /** The durable push outbox in this file (shares the connection). */
  pushOutbox(): SqlitePushOutbox {
    return (this.outbox ??= new SqlitePushOutbox(this.db));
  }

  /** The ownership leases kept with these tasks. */
  leaseStore(): SqliteLeases {
    return this.leases;
  }

  /**
   * True when no other live process (nor other open store of this one) used the file when this
   * store opened it: whatever it shows running was left by a process that is gone, so a server
   * may take it over at once (`server.ownership.takeOverAll()`).
   */
  get openedAlone(): boolean {
    return this.presence.alone;
  }

  async close(): Promise<void> {
    if (this.db.open) {
      this.batch.flush(); // writes already asked for are kept
      this.lookups.flush(); // and lookups asked for are answered
    }
    this.walSync?.close();
    this.presence.release();
    if (this.timer) clearInterval(this.timer);
    if (this.owned && this.db.open) this.db.close();
  }

  /** Runs reads in one read transaction: the row and the log it is replayed from agree. */
  private read<T>(fn: () => T): T {
    return this.readTx.deferred(fn) as T;
  }

  private indexMessage(scope: Scope, taskId: string, message: MessageIndexing, now: number) {
    if (!message.messageId) return;
    const { tenant, owner } = scope;
    const fingerprint = message.fingerprint ?? '';
    this.sql.indexMessage.run(tenant, owner, message.messageId, taskId, fingerprint, now);
  }

  private insert(
    scope: Scope,
    task: Task,
    events: readonly StreamResponse[],
    options: CreateWithOptions,
  ): Projected {
    // Validate the whole burst on the states alone before anything is written, as append does.
    const problem = batchProblem(task.status.state, events);
    if (problem !== undefined) throw new TaskTransitionError(`task ${task.id}: ${problem}`);
    const now = Date.now();
    const created = Projections.created(task, events, now);
    const { status } = created.projection.task;
    const finished = isTerminal(status.state);
    const { lease, chain, texts } = options;
    try {
      // Positional parameters: binding an object by name cost ~2 µs more per task.
      this.sql.insertTask.run(
        task.id,
        scope.tenant,
        scope.owner,
        task.contextId ?? '',
        status.state,
        status.timestamp ?? '',
        finished ? 1 : 0,
        created.seq,
        now,
        now,
        // The lease LeaseStore.claim would take (SqliteLeases, same clock), for a running task.
        lease && !finished ? lease.instanceId : null,
        lease && !finished ? now + lease.ttlMs : null,
      );
    } catch (error) {
      // The primary key says it (no lookup before every insert); nothing of this write stays.
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new Error(`task ${task.id} already exists`);
      }
      throw error;
    }
    // The creation event is the first checkpoint, in a row of its own: snapshots gets a row once
    // one is rewritten. The chain's canonical texts, where it wrote them, are the events' JSON:
    // no second stringify. The burst after it is one more row (event-rows.ts).
    const first = texts?.[0] ?? `{"task":${JSON.stringify(task)}}`;
    this.sql.insertEvent.run(task.id, 1, first, chain?.[0] ?? null);
    if (events.length > 0) {
      const bodies = events.map((event, i) => texts?.[i + 1] ?? JSON.stringify(event));
      const row = eventRow(bodies, chain?.slice(1));
      this.sql.insertEvent.run(task.id, created.seq, row.event, row.hash);
    }
    this.indexMessage(scope, task.id, options, now);
    this.checkpointIfDue(task.id, 1, created.seq, finished, () => created.projection.task);
    return created;
  }

  private write(
    scope: Scope,
    taskId: string,
    events: readonly StreamResponse[],
    expectedSeq: number,
    options: AppendOptions,
  ): number {
    const head = this.sql.head.get(taskId, scope.tenant, scope.owner);
    if (!head)
      throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
    if (head.seq !== expectedSeq) throw new ConcurrencyError(taskId, expectedSeq, head.seq);
    // Validate the whole batch on the states alone before anything is written or projected.
    const problem = batchProblem(head.state as TaskState, events);
    if (problem !== undefined) throw new TaskTransitionError(`task ${taskId}: ${problem}`);
    let status: TaskStatus | undefined;
    for (const event of events) if ('statusUpdate' in event) status = event.statusUpdate.status;
    let seq = head.seq;
    const { push } = options;
    let pushed = 0;
    const { chain, texts } = options;
    const bodies: string[] = [];
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as StreamResponse;
      const body = texts?.[i] ?? JSON.stringify(event);
      bodies.push(body);
      if (push?.select(event)) {
        pushed += this.pushOutbox().fanOut(taskId, seq + i + 1, body, options.trace);
      }
    }
    seq += events.length;
    if (bodies.length > 0) {
      // The write's events in one row (event-rows.ts).
      const row = eventRow(bodies, chain);
      this.sql.insertEvent.run(taskId, seq, row.event, row.hash);
    }
    const finished = status ? isTerminal(status.state) : false;
    const advanced = { id: taskId, expected: expectedSeq, seq, now: Date.now() };
    const changed = status
      ? this.sql.advanceStatus.run(
          withFields(advanced, {
            state: status.state,
            statusTs: status.timestamp ?? '',
            finished: finished ? 1 : 0,
          }),
        )
      : this.sql.advance.run(advanced);
    if (changed.changes !== 1) throw new ConcurrencyError(taskId, expectedSeq, head.seq);
    this.indexMessage(scope, taskId, options, advanced.now);
    if (pushed > 0) push?.enqueued();

    this.projections.advance(taskId, head, events);
    this.checkpointIfDue(taskId, head.snapshot_seq, seq, finished, () => {
      return this.projections.load(taskId, { ...head, seq }, true).projection.task;
    });
    return seq;
  }

  /** Rewrites the checkpoint at `seq` when the spacing of the header says it is due. */
  private checkpointIfDue(
    taskId: string,
    snapshotSeq: number,
    seq: number,
    finished: boolean,
    task: () => Task,
  ): void {
    const since = seq - snapshotSeq;
    const due = since >= Math.max(this.checkpointEvents, snapshotSeq);
    // A finished task replaying only a few events loads as fast as from a fresh checkpoint.
    if ((due || (finished && since > FINISHED_REPLAY)) && since > 0) {
      this.sql.checkpoint.run(taskId, JSON.stringify(task()));
      this.sql.checkpointSeq.run(seq, taskId);
    }
  }

  private remove(scope: Scope, taskId: string): void {
    if (!this.sql.head.get(taskId, scope.tenant, scope.owner)) return;
    this.drop(taskId);
  }

  private drop(taskId: string): void {
    this.sql.deleteEvents.run(taskId);
    this.sql.deleteMessages.run(taskId);
    this.sql.deleteSnapshot.run(taskId);
    this.sql.deleteTask.run(taskId);
    this.push.dropTask(taskId);
    this.projections.forget(taskId);
  }

  private purgeBatch(beforeMs: number, batch: number): number {
    const ids = this.sql.expired.all(beforeMs, batch);
    for (const { id } of ids) this.drop(id);
    return ids.length;
  }

  private purgeFinished(beforeMs: number): number {
    // Short transactions, so a large purge never holds the write lock for long.
    const batch = 500;
    let total = 0;
    for (let n = batch; n === batch; total += n) n = this.purgeTx.immediate(beforeMs, batch);
    return total;
  }
}
