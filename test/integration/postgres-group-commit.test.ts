/**
 * Group commit of the PostgreSQL store (src/stores/postgres/append-batch.ts) on the real
 * database, with synchronous commit on: appends of concurrent tasks commit in one transaction
 * (their rows carry the same `xmin`), each is visible to another connection once it resolved,
 * a stale `expectedSeq` fails only its own append, two appends to one task in the same turn both
 * land in order, and a batch whose statement fails is retried append by append.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { ConcurrencyError } from '../../src/stores/types.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import {
  newTask,
  statusEvent,
  artifactEvent,
  textArtifact,
} from '../../src/testing/store-fixtures.js';
import type { Task } from '../../src/core/schemas/index.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);
const scope = { tenant: '', owner: 'group-commit' };

describePostgres('PostgreSQL group commit', () => {
  let store: PostgresTaskStore;
  let other: Pool;

  beforeAll(async () => {
    store = await PostgresTaskStore.open({ pool: db.pool(), schema, logger: null });
    other = db.pool({ max: 1 });
  });
  afterAll(() => store.close());

  const created = async (count: number): Promise<Task[]> => {
    const tasks = Array.from({ length: count }, () => newTask({}));
    for (const task of tasks) await store.create(scope, task);
    return tasks;
  };
  /** The distinct transactions that last wrote these task rows. */
  const transactions = async (tasks: readonly Task[]): Promise<number> => {
    const { rows } = await other.query<{ n: number }>(
      `SELECT count(DISTINCT xmin::text)::integer AS n FROM "${schema}".tasks WHERE id = ANY($1)`,
      [tasks.map((t) => t.id)],
    );
    return rows[0]?.n ?? -1;
  };
  const loggedSeqs = async (task: Task): Promise<number[]> => {
    const { rows } = await other.query<{ seq: number }>(
      `SELECT seq FROM "${schema}".events WHERE task_id = $1 ORDER BY seq`,
      [task.id],
    );
    return rows.map((r) => r.seq);
  };

  it('commits the appends of concurrent tasks in one transaction, visible once acknowledged', async () => {
    const tasks = await created(20);
    const seqs = await Promise.all(
      tasks.map((task) =>
        store
          .append(scope, task.id, [statusEvent(task, 'TASK_STATE_WORKING')], 1)
          .then(async (seq) => {
            // Acknowledged: another connection already sees the event.
            expect(await loggedSeqs(task)).toEqual([1, 2]);
            return seq;
          }),
      ),
    );
    expect(seqs).toEqual(tasks.map(() => 2));
    expect(await transactions(tasks)).toBe(1);
  });

  it('fails only the append with a stale expectedSeq; the rest of its batch commits', async () => {
    const [a, b, c] = (await created(3)) as [Task, Task, Task];
    const results = await Promise.allSettled([
      store.append(scope, a.id, [statusEvent(a, 'TASK_STATE_WORKING')], 1),
      store.append(scope, b.id, [statusEvent(b, 'TASK_STATE_WORKING')], 5),
      store.append(scope, c.id, [statusEvent(c, 'TASK_STATE_WORKING')], 1),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 2 });
    expect(results[1].status).toBe('rejected');
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
    expect(results[2]).toEqual({ status: 'fulfilled', value: 2 });
    expect(await transactions([a, c])).toBe(1);
    expect(await loggedSeqs(b)).toEqual([1]);
    expect((await store.get(scope, b.id))?.seq).toBe(1);
  });

  it('refuses a bad transition in a batch without touching the others', async () => {
    const [a, b] = (await created(2)) as [Task, Task];
    await store.append(scope, a.id, [statusEvent(a, 'TASK_STATE_COMPLETED')], 1);
    const results = await Promise.allSettled([
      store.append(scope, a.id, [statusEvent(a, 'TASK_STATE_WORKING')], 2),
      store.append(scope, b.id, [statusEvent(b, 'TASK_STATE_WORKING')], 1),
    ]);
    expect(results[0].status).toBe('rejected');
    expect(results[1]).toEqual({ status: 'fulfilled', value: 2 });
  });

  it('lands two appends to one task issued in the same turn, in order', async () => {
    const [task] = (await created(1)) as [Task];
    const first = store.append(scope, task.id, [statusEvent(task, 'TASK_STATE_WORKING')], 1);
    const second = store.append(
      scope,
      task.id,
      [artifactEvent(task, textArtifact('a', 'x')), statusEvent(task, 'TASK_STATE_COMPLETED')],
      2,
    );
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(await loggedSeqs(task)).toEqual([1, 2, 3, 4]);
    expect((await store.get(scope, task.id))?.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('retries each append alone when the batch statement fails', async () => {
    // Two appends indexing the same messageId in one statement: PostgreSQL refuses an
    // ON CONFLICT DO UPDATE that touches one row twice, so the batch fails as a whole and each
    // append runs again on its own (the second one re-points the index, as sequential appends do).
    const [a, b] = (await created(2)) as [Task, Task];
    const options = { messageId: `dup-${a.id}`, fingerprint: 'f' };
    const seqs = await Promise.all([
      store.append(scope, a.id, [statusEvent(a, 'TASK_STATE_WORKING')], 1, options),
      store.append(scope, b.id, [statusEvent(b, 'TASK_STATE_WORKING')], 1, options),
    ]);
    expect(seqs).toEqual([2, 2]);
    expect(await loggedSeqs(a)).toEqual([1, 2]);
    expect(await loggedSeqs(b)).toEqual([1, 2]);
    expect((await store.findByMessageId(scope, options.messageId))?.taskId).toBeDefined();
  });
});
