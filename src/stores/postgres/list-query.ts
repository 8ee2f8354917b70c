/**
 * The ListTasks queries (spec §3.1.4): one page in (status_ts DESC, id DESC) order by keyset
 * pagination on the `tasks_list` / `tasks_context` indexes, and the COUNT(*) for totalSize.
 * Only parameters carry values; the filters only choose which conditions are present. A page
 * with a byte budget (TaskQuery.maxBytes) measures each task in the database first (the stored
 * sizes of its base and of the log after it) and loads only the tasks that fit.
 */
import type { Pool, QueryConfig } from 'pg';
import type { Task, TaskState } from '../../core/schemas/index.js';
import { decodePageToken, encodePageToken, withinBytes, type Cursor } from '../paging.js';
import type { Scope, TaskPage, TaskQuery, TaskRecord } from '../types.js';

/** What the page query returns per task (the snapshot is loaded separately). */
interface PageRow {
  id: string;
  state: TaskState;
  status_ts: string;
  /** Stored bytes of the task (bigint, as text), when the page is bounded. */
  bytes?: string;
}

/** The page query (pageSize + 1 rows: the extra one tells whether a next page exists) and the count. */
function pageQueries(
  s: string,
  scope: Scope,
  query: TaskQuery,
  after: Cursor | undefined,
): { page: QueryConfig; count: QueryConfig } {
  const values: unknown[] = [scope.tenant, scope.owner];
  const where = ['tenant = $1', 'owner = $2'];
  const add = (condition: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(condition(`$${values.length}`));
  };
  if (query.contextId) add((p) => `context_id = ${p}`, query.contextId);
  if (query.status) add((p) => `state = ${p}`, query.status);
  // Inclusive, like the memory store: a task whose status changed at that instant is listed.
  if (query.statusTimestampAfter) add((p) => `status_ts >= ${p}`, query.statusTimestampAfter);
  const count = {
    text: `SELECT count(*)::int AS n FROM ${s}.tasks WHERE ${where.join(' AND ')}`,
    values: [...values],
  };
  if (after) {
    values.push(after.timestamp, after.id);
    where.push(`(status_ts, id) < ($${values.length - 1}, $${values.length})`);
  }
  values.push(query.pageSize + 1);
  // octet_length of a stored json value reads its size, not its content (no detoasting).
  const bytes =
    query.maxBytes !== undefined && Number.isFinite(query.maxBytes)
      ? `, octet_length(t.base::text) + coalesce((SELECT sum(octet_length(e.body::text))
             FROM ${s}.events e WHERE e.task_id = t.id AND e.seq > t.base_seq), 0) AS bytes`
      : '';
  const page = {
    text: `SELECT t.id, t.state, t.status_ts${bytes} FROM ${s}.tasks t WHERE ${where.join(' AND ')}
           ORDER BY status_ts DESC, id DESC LIMIT $${values.length}`,
    values,
  };
  return { page, count };
}

/** One page of ListTasks; `load` turns the page's ids into snapshots (one query, cached). */
export async function listPage(
  pool: Pool,
  s: string,
  scope: Scope,
  query: TaskQuery,
  load: (ids: string[]) => Promise<Map<string, TaskRecord>>,
): Promise<TaskPage> {
  const after = query.pageToken ? decodePageToken(query.pageToken) : undefined;
  const { page, count } = pageQueries(s, scope, query, after);
  const [pageResult, countResult] = await Promise.all([
    pool.query<PageRow>(page),
    pool.query<{ n: number }>(count),
  ]);
  const { rows, more: left } = withinBytes(pageResult.rows, query.pageSize, query.maxBytes);
  const records = await load(rows.map((r) => r.id));
  const tasks: Task[] = [];
  for (const row of rows) {
    const record = records.get(row.id);
    if (record) tasks.push(record.task);
  }
  const last = rows[rows.length - 1];
  const more = left && last !== undefined;
  // The cursor is the row's sort key, exactly what the next page's keyset condition compares.
  const cursor = last && { id: last.id, status: { state: last.state, timestamp: last.status_ts } };
  return {
    tasks,
    nextPageToken: more && cursor ? encodePageToken(cursor) : '',
    totalSize: countResult.rows[0]?.n ?? 0,
  };
}
