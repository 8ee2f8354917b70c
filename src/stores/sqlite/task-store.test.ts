import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runTaskStoreSuite } from '../../testing/index.js';
import {
  artifactEvent,
  at,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
  uniqueId,
  userText,
} from '../../testing/store-fixtures.js';
import type { Task } from '../../core/schemas/index.js';
import { TaskTransitionError } from '../../core/task-state.js';
import { SQLITE_PAGE_SIZE } from './connection.js';
import { SQLITE_SCHEMA_VERSION } from './migrations.js';
import { SqliteTaskStore, type SqliteTaskStoreOptions } from './task-store.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-sqlite-'));
const dbFile = () => join(dir, `${uniqueId('db')}.sqlite`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runTaskStoreSuite({ name: 'sqlite file', create: () => new SqliteTaskStore({ path: dbFile() }) });
runTaskStoreSuite({
  name: 'sqlite :memory:',
  create: () => new SqliteTaskStore({ path: ':memory:' }),
});
// No cache and frequent checkpoints: every read takes the cold path (checkpoint + replay).
runTaskStoreSuite({
  name: 'sqlite file, no cache, checkpoint every 3 events',
  create: () => new SqliteTaskStore({ path: dbFile(), cacheSize: 0, checkpointEvents: 3 }),
});

describe('SqliteTaskStore', () => {
  const stores: SqliteTaskStore[] = [];
  const open = (options: SqliteTaskStoreOptions) => {
    const store = new SqliteTaskStore(options);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('keeps every task, log entry and message index across close and reopen', async () => {
    const path = join(dir, uniqueId('nested'), 'deeper', 'tasks.db');
    const { scope } = freshScopes();
    const running = newTask({ state: 'TASK_STATE_WORKING', timestamp: at(1) });
    const paused = newTask({ timestamp: at(2) });
    const done = newTask({ timestamp: at(3) });
    const first = open({ path });
    await first.create(scope, running, { messageId: 'm-running' });
    await first.create(scope, paused);
    await first.create(scope, done);
    await first.append(scope, running.id, [artifactEvent(running, textArtifact('a', 'x'))], 1);
    const ask = statusEvent(paused, 'TASK_STATE_INPUT_REQUIRED', { timestamp: at(4) });
    await first.append(scope, paused.id, [ask], 1);
    const answer = userText('yes');
    await first.append(scope, paused.id, [{ message: answer }], 2, { messageId: answer.messageId });
    await first.append(
      scope,
      done.id,
      [statusEvent(done, 'TASK_STATE_COMPLETED', { timestamp: at(5) })],
      1,
    );
    const before = await Promise.all(
      [running, paused, done].map(async (t) => ({
        record: structuredClone(await first.get(scope, t.id)),
        log: await first.events(scope, t.id, 0),
      })),
    );
    const listed = await first.list(scope, { pageSize: 10 });
    await first.close();

    const second = open({ path });
    for (const [i, t] of [running, paused, done].entries()) {
      expect(await second.get(scope, t.id)).toStrictEqual(before[i]?.record);
      expect(await second.events(scope, t.id, 0)).toStrictEqual(before[i]?.log);
    }
    expect(await second.list(scope, { pageSize: 10 })).toStrictEqual(listed);
    expect((await second.findByMessageId(scope, 'm-running'))?.taskId).toBe(running.id);
    expect((await second.findByMessageId(scope, answer.messageId))?.taskId).toBe(paused.id);
    const resumed = statusEvent(paused, 'TASK_STATE_WORKING', { timestamp: at(6) });
    expect(await second.append(scope, paused.id, [resumed], 3)).toBe(4);
  });

  it('lets two connections to one file share tasks, with exactly one winner per seq', async () => {
    const path = dbFile();
    const [a, b] = [open({ path }), open({ path })];
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    await a.create(scope, task);
    expect((await b.get(scope, task.id))?.seq).toBe(1); // b now caches the task
    await a.append(scope, task.id, [artifactEvent(task, textArtifact('x', '1'))], 1);
    expect((await b.get(scope, task.id))?.task.artifacts).toStrictEqual([textArtifact('x', '1')]);
    const results = await Promise.allSettled([
      a.append(scope, task.id, [artifactEvent(task, textArtifact('from-a', 'a'))], 2),
      b.append(scope, task.id, [artifactEvent(task, textArtifact('from-b', 'b'))], 2),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const [viewA, viewB] = [await a.get(scope, task.id), await b.get(scope, task.id)];
    expect(viewA).toStrictEqual(viewB);
    expect(viewA?.seq).toBe(3);
    // A task deleted and created again elsewhere is not served from a stale cache.
    await b.delete(scope, task.id);
    const again = { ...newTask({}), id: task.id };
    await b.create(scope, again);
    expect(await a.get(scope, task.id)).toStrictEqual({ task: again, seq: 1 });
  });

  it('creates a task with its first burst in one transaction, its row at the state after it', async () => {
    const path = dbFile();
    const store = open({ path });
    const raw = new Database(path, { readonly: true });
    const row = (id: string) =>
      raw
        .prepare(
          'SELECT state, finished, seq, lease_owner, lease_expires_at FROM tasks WHERE id = ?',
        )
        .get(id);
    let commits = 0;
    const exec = store.db.exec.bind(store.db);
    store.db.exec = (sql: string) => {
      if (/^COMMIT/.test(sql)) commits++;
      return exec(sql);
    };
    const { scope } = freshScopes();
    const done = newTask({});
    const running = newTask({});
    const lease = { instanceId: 'me', ttlMs: 60_000 };
    const finishing = [
      statusEvent(done, 'TASK_STATE_WORKING'),
      statusEvent(done, 'TASK_STATE_COMPLETED'),
    ];
    const before = Date.now();
    const [a, b] = await Promise.all([
      store.createWith(scope, done, finishing, { lease, messageId: uniqueId('m') }),
      store.createWith(scope, running, [statusEvent(running, 'TASK_STATE_WORKING')], { lease }),
    ]);
    expect([a, b, commits]).toEqual([3, 2, 1]); // both in one group commit
    // A finished task holds no lease; a running one holds the lease claim would have taken.
    expect(row(done.id)).toEqual({
      state: 'TASK_STATE_COMPLETED',
      finished: 1,
      seq: 3,
      lease_owner: null,
      lease_expires_at: null,
    });
    const held = row(running.id) as { lease_owner: string; lease_expires_at: number };
    expect(held).toMatchObject({ state: 'TASK_STATE_WORKING', finished: 0, seq: 2 });
    expect(held.lease_owner).toBe('me');
    expect(held.lease_expires_at).toBeGreaterThanOrEqual(before + 60_000);
    expect(await store.leaseStore().claim(running.id, 'other', 1_000)).toBe(false);
    // A burst the state machine refuses keeps nothing, the message index included.
    const refused = newTask({});
    const messageId = uniqueId('m');
    const bad = [
      statusEvent(refused, 'TASK_STATE_COMPLETED'),
      statusEvent(refused, 'TASK_STATE_WORKING'),
    ];
    await expect(store.createWith(scope, refused, bad, { messageId })).rejects.toThrow(
      TaskTransitionError,
    );
    expect(row(refused.id)).toBeUndefined();
    expect(await store.get(scope, refused.id)).toBeUndefined();
    expect(await store.findByMessageId(scope, messageId)).toBeUndefined();
    raw.close();
  });

  it('answers a get at the seq of its own write from that write, other gets from the file', async () => {
    const path = dbFile();
    const [mine, theirs] = [open({ path }), open({ path })];
    const { scope } = freshScopes();
    const task = newTask({});
    const seq = await mine.createWith(scope, task, [statusEvent(task, 'TASK_STATE_WORKING')]);
    const written = await mine.get(scope, task.id, { written: seq });
    expect(written).toStrictEqual(await theirs.get(scope, task.id));
    // Another connection moves the task on: the snapshot at the written seq is still the one
    // this write made; any other get reads what the file holds now.
    const artifact = artifactEvent(task, textArtifact('a', 'x'));
    await theirs.append(scope, task.id, [artifact], seq);
    expect(await mine.get(scope, task.id, { written: seq })).toStrictEqual(written);
    expect((await mine.get(scope, task.id))?.seq).toBe(3);
    expect((await mine.get(scope, task.id, { written: 2 }))?.seq).toBe(3); // cache moved on
    expect(await mine.get(scope, 'missing', { written: 1 })).toBeUndefined();
  });

  it('opens in WAL mode with synchronous=NORMAL at the current schema version', () => {
    const store = open({ path: dbFile() });
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
  });

  it('refuses a database written by a newer schema', () => {
    const path = dbFile();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => open({ path })).toThrow(/newer than this a2a-kit/);
  });

  it('writes one log row and a small row update per event, not the whole task', async () => {
    const path = dbFile();
    const store = open({ path, checkpointEvents: 1_000 });
    const raw = new Database(path, { readonly: true });
    const row = (id: string) =>
      raw
        .prepare(
          `SELECT s.snapshot, t.snapshot_seq, t.seq FROM tasks t
           LEFT JOIN snapshots s ON s.task_id = t.id WHERE t.id = ?`,
        )
        .get(id) as { snapshot: string | null; snapshot_seq: number; seq: number };
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    await store.create(scope, task);
    const created = row(task.id);
    // The creation event at seq 1 is the first checkpoint: no snapshots row is written for it.
    expect(created).toStrictEqual({ snapshot: null, snapshot_seq: 1, seq: 1 });
    let seq = 1;
    for (let i = 0; i < 50; i++) {
      const chunk = artifactEvent(task, textArtifact('a', `chunk ${i}`), { append: i > 0 });
      seq = await store.append(scope, task.id, [chunk], seq);
    }
    expect(row(task.id)).toStrictEqual({ ...created, seq: 51 });
    const done = statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(9) });
    await store.append(scope, task.id, [done], seq);
    // Finishing writes the final snapshot once, so finished tasks load from their row.
    const finished = row(task.id);
    expect(finished.snapshot_seq).toBe(52);
    expect(JSON.parse(finished.snapshot ?? '')).toStrictEqual(
      (await store.get(scope, task.id))?.task,
    );
    raw.close();
  });

  it('reads a task from its creation event, or from a snapshots row where an earlier version wrote one', async () => {
    const path = dbFile();
    const store = open({ path });
    const { scope } = freshScopes();
    const fresh = newTask({ state: 'TASK_STATE_WORKING' });
    const legacy = newTask({ state: 'TASK_STATE_WORKING' });
    await store.create(scope, fresh);
    await store.create(scope, legacy);
    // What versions before this one wrote at creation: a snapshots row beside the event. Marked
    // here, so that the read shows which one it used.
    const marked = { ...legacy, metadata: { from: 'snapshots row' } };
    const raw = new Database(path);
    raw
      .prepare('INSERT INTO snapshots (task_id, snapshot) VALUES (?, ?)')
      .run(legacy.id, JSON.stringify(marked));
    raw.close();
    const reopened = open({ path }); // an empty cache: both are read from the file
    expect((await reopened.get(scope, fresh.id))?.task).toStrictEqual(fresh);
    expect((await reopened.get(scope, legacy.id))?.task).toStrictEqual(marked);
    // A page bounded in bytes measures a task with no snapshots row by its creation event: two
    // of them do not fit in 1 byte (a page holds at least one task).
    const other = freshScopes().scope;
    await reopened.create(other, newTask({ state: 'TASK_STATE_WORKING' }));
    await reopened.create(other, newTask({ state: 'TASK_STATE_WORKING' }));
    const tight = await reopened.list(other, { pageSize: 10, maxBytes: 1 });
    expect(tight.tasks).toHaveLength(1);
    expect(tight.nextPageToken).not.toBe('');
    expect((await reopened.list(other, { pageSize: 10, maxBytes: 1_000_000 })).tasks).toHaveLength(
      2,
    );
  });

  it('writes the events of one write in one log row, and reads files with a row per event', async () => {
    const path = dbFile();
    const store = open({ path });
    const { scope } = freshScopes();
    const [task, legacy] = [newTask({}), newTask({})];
    // A creation with its burst, a write of three events, a write of one.
    const writes = (t: Task) => {
      const chunk = (i: number) => artifactEvent(t, textArtifact('a', `c${i}`), { append: i > 1 });
      const done = statusEvent(t, 'TASK_STATE_COMPLETED', { timestamp: at(9) });
      return [
        [statusEvent(t, 'TASK_STATE_WORKING'), chunk(1)],
        [chunk(2), chunk(3), chunk(4)],
        [done],
      ];
    };
    const [burst, three, one] = writes(task);
    let seq = await store.createWith(scope, task, burst ?? []);
    seq = await store.append(scope, task.id, three ?? [], seq);
    await store.append(scope, task.id, one ?? [], seq);
    const rows = (db: Database.Database, id: string) =>
      db.prepare('SELECT seq FROM events WHERE task_id = ? ORDER BY seq').pluck().all(id);
    expect(rows(store.db, task.id)).toEqual([1, 3, 6, 7]);

    // What schema version 8 wrote: one row per event, here for a second task.
    await store.create(scope, legacy);
    await store.close();
    const raw = new Database(path);
    const insert = raw.prepare('INSERT INTO events (task_id, seq, event) VALUES (?, ?, ?)');
    const legacyEvents = writes(legacy).flat();
    legacyEvents.forEach((event, i) => insert.run(legacy.id, i + 2, JSON.stringify(event)));
    raw
      .prepare("UPDATE tasks SET seq = 7, state = 'TASK_STATE_COMPLETED' WHERE id = ?")
      .run(legacy.id);
    raw.pragma('user_version = 8');
    raw.close();

    // Reopened with no cache: every read replays the log from the creation event.
    const reopened = open({ path, cacheSize: 0 });
    expect(reopened.db.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    expect(rows(reopened.db, legacy.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const log = [{ task }, ...writes(task).flat()].map((event, i) => ({ seq: i + 1, event }));
    expect(await reopened.events(scope, task.id, 0)).toStrictEqual(log);
    // Pages that start and end inside a row.
    expect(await reopened.events(scope, task.id, 2, 2)).toStrictEqual(log.slice(2, 4));
    expect(await reopened.events(scope, task.id, 4, 1)).toStrictEqual(log.slice(4, 5));
    expect(await reopened.events(scope, task.id, 5)).toStrictEqual(log.slice(5));
    const legacyLog = [{ task: legacy }, ...legacyEvents].map((event, i) => ({
      seq: i + 1,
      event,
    }));
    expect(await reopened.events(scope, legacy.id, 0)).toStrictEqual(legacyLog);
    expect(await reopened.events(scope, legacy.id, 3, 2)).toStrictEqual(legacyLog.slice(3, 5));
    for (const t of [task, legacy]) {
      const read = (await reopened.get(scope, t.id))?.task;
      expect(read?.status.state).toBe('TASK_STATE_COMPLETED');
      expect(read?.artifacts?.[0]?.parts).toEqual([1, 2, 3, 4].map((i) => ({ text: `c${i}` })));
    }
  });

  it("commits the write a lookup's answer leads to in the turn the lookup is answered", async () => {
    const store = open({ path: dbFile() });
    const { scope } = freshScopes();
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await nextTurn(); // nothing of the store's opening is left in the turn
    const order: string[] = [];
    const task = newTask({});
    const sent = store.findByMessageId(scope, 'm-turn').then(async (found) => {
      order.push(found === undefined ? 'looked up' : 'found');
      await store.createWith(scope, task, [], { messageId: 'm-turn' });
      order.push('committed');
    });
    setImmediate(() => order.push('next immediate'));
    await sent;
    await nextTurn();
    expect(order).toEqual(['looked up', 'committed', 'next immediate']);
    expect((await store.findByMessageId(scope, 'm-turn'))?.taskId).toBe(task.id);
  });

  it('creates files with 8 KiB pages and keeps the page size of an existing file', async () => {
    const fresh = open({ path: dbFile() });
    expect(fresh.db.pragma('page_size', { simple: true })).toBe(SQLITE_PAGE_SIZE);
    const path = dbFile();
    const raw = new Database(path);
    raw.pragma('page_size = 4096');
    raw.exec('CREATE TABLE other (x)');
    raw.close();
    const existing = open({ path });
    expect(existing.db.pragma('page_size', { simple: true })).toBe(4096);
    const { scope } = freshScopes();
    const task = newTask({});
    await existing.create(scope, task);
    expect((await existing.get(scope, task.id))?.task).toStrictEqual(task);
  });

  it('spaces checkpoints of a running task geometrically', async () => {
    const path = dbFile();
    const store = open({ path, checkpointEvents: 4 });
    const raw = new Database(path, { readonly: true });
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    await store.create(scope, task);
    const checkpoints = new Set<number>();
    let seq = 1;
    for (let i = 0; i < 100; i++) {
      seq = await store.append(
        scope,
        task.id,
        [artifactEvent(task, textArtifact(`a${i}`, 'x'))],
        seq,
      );
      const at = raw.prepare('SELECT snapshot_seq AS s FROM tasks WHERE id = ?').get(task.id) as {
        s: number;
      };
      checkpoints.add(at.s);
    }
    expect([...checkpoints]).toEqual([1, 5, 10, 20, 40, 80]);
    raw.close();
  });

  it('lists through the scope indexes, without sorting in a temporary b-tree', () => {
    const store = open({ path: ':memory:' });
    const queries = [
      "SELECT id FROM tasks WHERE tenant = 't' AND owner = 'o' AND (status_ts, id) < ('x', 'y') ORDER BY status_ts DESC, id DESC LIMIT 51",
      "SELECT id FROM tasks WHERE tenant = 't' AND owner = 'o' AND context_id = 'c' ORDER BY status_ts DESC, id DESC LIMIT 51",
      "SELECT id FROM tasks WHERE tenant = 't' AND owner = 'o' AND state = 's' ORDER BY status_ts DESC, id DESC LIMIT 51",
    ];
    for (const query of queries) {
      const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[];
      const text = plan.map((p) => p.detail).join('; ');
      expect(text).toMatch(/USING (COVERING )?INDEX tasks_by_/);
      expect(text).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('purges finished tasks changed before a date, with their log and message index', async () => {
    const store = open({ path: dbFile() });
    const { scope } = freshScopes();
    const running = newTask({ state: 'TASK_STATE_WORKING' });
    const finished = newTask({ state: 'TASK_STATE_COMPLETED' });
    await store.create(scope, running, { messageId: 'm1' });
    await store.create(scope, finished, { messageId: 'm2' });
    expect(await store.purge({ finishedBefore: Date.now() - 60_000 })).toBe(0);
    expect(await store.purge({ finishedBefore: new Date(Date.now() + 1_000) })).toBe(1);
    expect(await store.get(scope, finished.id)).toBeUndefined();
    expect(await store.events(scope, finished.id, 0)).toEqual([]);
    expect(await store.findByMessageId(scope, 'm2')).toBeUndefined();
    expect((await store.findByMessageId(scope, 'm1'))?.taskId).toBe(running.id);
    const count = store.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number };
    expect(count.n).toBe(1);
  });

  it('purges more finished tasks than one batch', async () => {
    const store = open({ path: ':memory:' });
    const { scope } = freshScopes();
    for (let i = 0; i < 1_203; i++)
      await store.create(scope, newTask({ state: 'TASK_STATE_FAILED' }));
    expect(await store.purge({ finishedBefore: Date.now() + 1_000 })).toBe(1_203);
    expect((await store.list(scope, { pageSize: 1 })).totalSize).toBe(0);
  });

  it('purges finished tasks on its own once ttlMs has passed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const store = open({ path: ':memory:', ttlMs: 1_000, sweepIntervalMs: 500 });
    const { scope } = freshScopes();
    const running = newTask({ state: 'TASK_STATE_INPUT_REQUIRED' });
    const finished = newTask({ state: 'TASK_STATE_CANCELED' });
    await store.create(scope, running);
    await store.create(scope, finished);
    vi.advanceTimersByTime(1_000);
    expect(await store.get(scope, finished.id)).toBeDefined();
    vi.advanceTimersByTime(1_000);
    expect(await store.get(scope, finished.id)).toBeUndefined();
    expect(await store.get(scope, running.id)).toBeDefined();
  });

  it('uses a connection it is given and leaves it open on close', async () => {
    const db = new Database(':memory:');
    const store = new SqliteTaskStore({ database: db });
    const { scope } = freshScopes();
    await store.create(scope, newTask({}));
    await store.close();
    expect(db.open).toBe(true);
    expect((db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n).toBe(1);
    db.close();
  });
});
