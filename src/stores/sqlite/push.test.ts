import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { pushConfig, runPushConfigStoreSuite, runPushOutboxSuite } from '../../testing/index.js';
import { freshScopes, newTask, uniqueId } from '../../testing/store-fixtures.js';
import { SqliteTaskStore } from './task-store.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-sqlite-push-'));
const dbFile = () => join(dir, `${uniqueId('db')}.sqlite`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runPushConfigStoreSuite({ name: 'sqlite', create: () => new SqliteTaskStore({ path: dbFile() }) });
runPushOutboxSuite({ name: 'sqlite', create: () => new SqliteTaskStore({ path: dbFile() }) });

describe('SqliteTaskStore push storage', () => {
  it('[129] purges push configs and deliveries with their finished task', async () => {
    const path = dbFile();
    const store = new SqliteTaskStore({ path });
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_COMPLETED' });
    await store.create(scope, task);
    await store.putPushConfig(scope, pushConfig(task.id, 'c1'));
    await store
      .pushOutbox()
      .enqueue([{ id: 'd1', scope, taskId: task.id, configId: 'c1', seq: 2, body: '{}' }]);
    expect(await store.purge({ finishedBefore: Date.now() + 1_000 })).toBe(1);
    const raw = new Database(path, { readonly: true });
    const count = (table: string) =>
      (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('push_configs'), count('push_outbox')]).toEqual([0, 0]);
    raw.close();
    await store.close();
  });

  it('keeps pending deliveries across close and reopen', async () => {
    const path = dbFile();
    const { scope } = freshScopes();
    const task = newTask({});
    const first = new SqliteTaskStore({ path });
    await first.create(scope, task);
    await first.putPushConfig(scope, pushConfig(task.id, 'c1'));
    await first
      .pushOutbox()
      .enqueue([{ id: 'd1', scope, taskId: task.id, configId: 'c1', seq: 2, body: '{"a":1}' }]);
    await first.pushOutbox().claim(10, 60_000);
    await first.close();
    const second = new SqliteTaskStore({ path });
    const [stored] = await second.pushOutbox().list(task.id);
    expect(stored).toMatchObject({ id: 'd1', seq: 2, body: '{"a":1}', state: 'pending' });
    await second.close();
  });
});
