/**
 * The SQLite task store's statements, prepared once per connection. ListTasks has one statement
 * pair per combination of filters (at most 16), prepared on first use.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { TaskQuery } from '../types.js';
import type { EventRow } from './event-rows.js';

/** What the store checks before reading or writing a task. */
export interface HeadRow {
  state: string;
  status_ts: string;
  seq: number;
  snapshot_seq: number;
  created_at: number;
}

/** One ListTasks row before its snapshot is loaded. */
export interface ListRow {
  id: string;
  seq: number;
  snapshot_seq: number;
  created_at: number;
  /** Bytes of the task as stored (checkpoint plus the log after it), when the page is bounded. */
  bytes?: number;
}

/** Named parameters of the task-row insert. */
/** Parameters of the task row's INSERT, in column order (positional: see task-store.ts). */
export type InsertTaskParams = [
  id: string,
  tenant: string,
  owner: string,
  contextId: string,
  state: string,
  statusTs: string,
  finished: number,
  /** The seq of the task's last log entry (1, or 1 + the events created with it). */
  seq: number,
  createdAt: number,
  updatedAt: number,
  /** The ownership lease taken with the creation (LeaseStore.claim's columns), else null. */
  leaseOwner: string | null,
  leaseExpiresAt: number | null,
];

/** Named parameters of the per-event row update. */
export interface AdvanceParams {
  id: string;
  expected: number;
  seq: number;
  now: number;
}

/** Named parameters of the per-event row update when the status changed. */
export interface AdvanceStatusParams extends AdvanceParams {
  state: string;
  statusTs: string;
  finished: number;
}

/** Named parameters of the ListTasks statements (unused ones are ignored). */
export interface ListParams {
  tenant: string;
  owner: string;
  contextId: string;
  status: string;
  after: string;
  cursorTs: string;
  cursorId: string;
  limit: number;
}

type Stmt<P extends unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

/** The fixed statements of one connection. */
export interface Statements {
  head: Stmt<[id: string, tenant: string, owner: string], HeadRow>;
  snapshot: Stmt<[id: string], { snapshot: string }>;
  creation: Stmt<[id: string], { event: string }>;
  insertTask: Stmt<InsertTaskParams>;
  advance: Stmt<[AdvanceParams]>;
  advanceStatus: Stmt<[AdvanceStatusParams]>;
  checkpoint: Stmt<[id: string, snapshot: string]>;
  checkpointSeq: Stmt<[seq: number, id: string]>;
  insertEvent: Stmt<[id: string, seq: number, event: string, hash: string | null]>;
  eventsAfter: Stmt<[id: string, afterSeq: number, limit: number], EventRow>;
  indexMessage: Stmt<
    [
      tenant: string,
      owner: string,
      messageId: string,
      id: string,
      fingerprint: string,
      indexedAt: number,
    ]
  >;
  findMessage: Stmt<
    [tenant: string, owner: string, messageId: string],
    { task_id: string; fingerprint: string; indexed_at: number }
  >;
  deleteEvents: Stmt<[id: string]>;
  deleteMessages: Stmt<[id: string]>;
  deleteSnapshot: Stmt<[id: string]>;
  deleteTask: Stmt<[id: string]>;
  expired: Stmt<[beforeMs: number, limit: number], { id: string }>;
}

/** Prepares the fixed statements. */
export function prepareStatements(db: BetterSqlite3.Database): Statements {
  return {
    head: db.prepare(
      `SELECT state, status_ts, seq, snapshot_seq, created_at FROM tasks
       WHERE id = ? AND tenant = ? AND owner = ?`,
    ),
    snapshot: db.prepare('SELECT snapshot FROM snapshots WHERE task_id = ?'),
    // A task never checkpointed has no row in snapshots: its checkpoint is its creation event.
    creation: db.prepare('SELECT event FROM events WHERE task_id = ? AND seq = 1'),
    insertTask: db.prepare(
      `INSERT INTO tasks (id, tenant, owner, context_id, state, status_ts, finished, seq,
         snapshot_seq, created_at, updated_at, lease_owner, lease_expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    ),
    // The per-event writes: scalar columns only, guarded by the optimistic seq check. Events that
    // leave the status alone do not touch the indexed columns, so no index is rewritten.
    advance: db.prepare(
      'UPDATE tasks SET seq = @seq, updated_at = @now WHERE id = @id AND seq = @expected',
    ),
    advanceStatus: db.prepare(
      `UPDATE tasks SET seq = @seq, updated_at = @now, state = @state, status_ts = @statusTs,
         finished = @finished
       WHERE id = @id AND seq = @expected`,
    ),
    checkpoint: db.prepare(
      `INSERT INTO snapshots (task_id, snapshot) VALUES (?, ?)
       ON CONFLICT (task_id) DO UPDATE SET snapshot = excluded.snapshot`,
    ),
    checkpointSeq: db.prepare('UPDATE tasks SET snapshot_seq = ? WHERE id = ?'),
    // One row per write, keyed by its last event's seq (event-rows.ts).
    insertEvent: db.prepare('INSERT INTO events (task_id, seq, event, hash) VALUES (?, ?, ?, ?)'),
    // The rows holding events after a seq; as each holds at least one, `limit` rows hold at
    // least `limit` events.
    eventsAfter: db.prepare(
      'SELECT seq, event, hash FROM events WHERE task_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
    indexMessage: db.prepare(
      `INSERT OR REPLACE INTO messages (tenant, owner, message_id, task_id, fingerprint, indexed_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    findMessage: db.prepare(
      `SELECT task_id, fingerprint, indexed_at FROM messages
       WHERE tenant = ? AND owner = ? AND message_id = ?`,
    ),
    deleteEvents: db.prepare('DELETE FROM events WHERE task_id = ?'),
    deleteMessages: db.prepare('DELETE FROM messages WHERE task_id = ?'),
    deleteSnapshot: db.prepare('DELETE FROM snapshots WHERE task_id = ?'),
    deleteTask: db.prepare('DELETE FROM tasks WHERE id = ?'),
    expired: db.prepare('SELECT id FROM tasks WHERE finished = 1 AND updated_at < ? LIMIT ?'),
  };
}

/** The COUNT and page statements of one combination of ListTasks filters. */
export interface ListStatements {
  count: Stmt<[ListParams], { n: number }>;
  page: Stmt<[ListParams], ListRow>;
}

/** Builds (once per filter combination) the ListTasks statements; they use the scope indexes. */
export function listStatements(
  db: BetterSqlite3.Database,
  cache: Map<string, ListStatements>,
  query: TaskQuery,
  paged: boolean,
): ListStatements {
  const bounded = query.maxBytes !== undefined && Number.isFinite(query.maxBytes);
  const key = [query.contextId, query.status, query.statusTimestampAfter, paged, bounded]
    .map(Boolean)
    .join();
  let statements = cache.get(key);
  if (statements) return statements;
  const where = ['tenant = @tenant', 'owner = @owner'];
  if (query.contextId) where.push('context_id = @contextId');
  if (query.status) where.push('state = @status');
  if (query.statusTimestampAfter) where.push('status_ts >= @after');
  const filter = where.join(' AND ');
  // Row values compare (status_ts, id) in the same order as paging.ts's newestFirst.
  const cursor = paged ? ' AND (status_ts, id) < (@cursorTs, @cursorId)' : '';
  // A bounded page measures each task where it lies (octet_length reads no JSON into
  // JavaScript), so the page can end before the task that would pass the byte budget.
  const bytes = bounded
    ? `, coalesce(
           (SELECT octet_length(s.snapshot) FROM snapshots s WHERE s.task_id = tasks.id),
           -- No checkpoint row: the creation event {"task":…} holds it (9 bytes of wrapping).
           (SELECT octet_length(e.event) - 9 FROM events e WHERE e.task_id = tasks.id AND e.seq = 1))
         + (SELECT coalesce(sum(octet_length(e.event)), 0) FROM events e
             WHERE e.task_id = tasks.id AND e.seq > tasks.snapshot_seq) AS bytes`
    : '';
  statements = {
    count: db.prepare<[ListParams], { n: number }>(
      `SELECT COUNT(*) AS n FROM tasks WHERE ${filter}`,
    ),
    page: db.prepare<[ListParams], ListRow>(
      `SELECT id, seq, snapshot_seq, created_at${bytes} FROM tasks WHERE ${filter}${cursor}
       ORDER BY status_ts DESC, id DESC LIMIT @limit`,
    ),
  };
  cache.set(key, statements);
  return statements;
}
