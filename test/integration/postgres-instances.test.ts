/**
 * Several instances on one PostgreSQL schema: each "instance" is its own pool, store and bus.
 * Concurrent writers, cross-instance fan-out (large entries included), a LISTEN connection that
 * dies, concurrent migrations and retention.
 */
import type { Pool } from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import type { StreamResponse } from '../../src/core/schemas/index.js';
import { isTerminal } from '../../src/core/task-state.js';
import { openTaskStream } from '../../src/server/task-stream.js';
import { type StreamItem } from '../../src/core/service.js';
import {
  MIGRATIONS,
  PostgresEventBus,
  PostgresTaskStore,
} from '../../src/stores/postgres/index.js';
import { ConcurrencyError, type LogEntry } from '../../src/stores/types.js';
import {
  artifactEvent,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
  uniqueId,
} from '../../src/testing/store-fixtures.js';
import {
  POSTGRES_URL,
  bigChunk,
  describePostgres,
  freshSchema,
  postgresFixture,
} from './postgres-helpers.js';

const schema = freshSchema();
const purgeSchema = freshSchema();
const migrateSchema = freshSchema();
const db = postgresFixture([schema, purgeSchema, migrateSchema]);

/** One simulated server instance. */
interface Instance {
  pool: Pool;
  store: PostgresTaskStore;
  bus: PostgresEventBus;
}

const opened: Instance[] = [];
afterEach(async () => {
  for (const i of opened.splice(0)) {
    await i.bus.close();
    await i.store.close();
  }
});

async function instance(name: string, bus: { maxPayloadBytes?: number } = {}): Promise<Instance> {
  const pool = db.pool({ application_name: name });
  const store = await PostgresTaskStore.open({ pool, schema });
  const created = { pool, store, bus: new PostgresEventBus({ pool, schema, store, ...bus }) };
  opened.push(created);
  return created;
}

describePostgres('PostgreSQL: several instances on one schema', () => {
  it('lets exactly one of many writers on two instances win each round, with no corruption', async () => {
    const [a, b] = [await instance('a'), await instance('b')];
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    await a.store.create(scope, task);
    await b.store.get(scope, task.id); // both instances now cache the snapshot
    let seq = 1;
    for (let round = 0; round < 10; round++) {
      const writers = [a, b, a, b, a, b].map((inst, w) =>
        inst.store.append(
          scope,
          task.id,
          [artifactEvent(task, textArtifact(`r${round}`, `w${w}`))],
          seq,
        ),
      );
      const results = await Promise.allSettled(writers);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrencyError);
      }
      seq++;
    }
    const log = await a.store.events(scope, task.id, 0);
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    const [fromA, fromB] = [await a.store.get(scope, task.id), await b.store.get(scope, task.id)];
    expect(fromA).toStrictEqual(fromB);
    expect(fromA?.seq).toBe(11);
    expect(fromA?.task.artifacts?.map((x) => x.artifactId)).toEqual(
      Array.from({ length: 10 }, (_, r) => `r${r}`),
    );
  });

  it('delivers on instance B, in order, what instance A publishes, large entries included', async () => {
    const [a, b] = [await instance('a', { maxPayloadBytes: 2_000 }), await instance('b')];
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    const got: LogEntry[] = [];
    await b.bus.subscribe(scope.tenant, task.id, (entry) => got.push(entry));
    await a.store.create(scope, task);
    await a.bus.publish(scope.tenant, task.id, { seq: 1, event: { task } });
    let seq = 1;
    for (let i = 0; i < 30; i++) {
      // Every third chunk is too large for a notification (20 KB > PostgreSQL's 8,000 bytes).
      const event = bigChunk(task, i, i % 3 === 2 ? 20_000 : 100);
      seq = await a.store.append(scope, task.id, [event], seq);
      await a.bus.publish(scope.tenant, task.id, { seq, event });
    }
    await vi.waitFor(() => expect(got).toHaveLength(31), { timeout: 10_000 });
    expect(got).toStrictEqual(await a.store.events(scope, task.id, 0));
  });

  it('lets a stream on B catch up after its LISTEN connection was killed', async () => {
    const a = await instance('a');
    const pool = db.pool({ application_name: 'instance-b-killed' });
    const store = await PostgresTaskStore.open({ pool, schema });
    const backoffMs = { initial: 800, max: 1_000 };
    const bus = new PostgresEventBus({ pool, schema, store, backoffMs, logger: null });
    opened.push({ pool, store, bus });
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    await a.store.create(scope, task);
    const stream = await openTaskStream({
      store,
      bus,
      scope,
      taskId: task.id,
      start: { mode: 'replay', afterSeq: 0 },
      closeWhen: isTerminal,
    });
    const items: StreamItem[] = [];
    const done = (async () => {
      for await (const item of stream) items.push(item);
    })();
    let seq = await a.store.append(scope, task.id, [statusEvent(task, 'TASK_STATE_WORKING')], 1);
    await a.bus.publish(scope.tenant, task.id, { seq, event: statusEvent(task, 'TASK_STATE_WORKING') });
    await vi.waitFor(() => expect(items).toHaveLength(2));

    await a.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'instance-b-killed' AND query LIKE 'LISTEN%'`,
    );
    await vi.waitFor(() => expect(bus.listening).toBe(false));
    // Everything that follows happens while B is not listening: only the log has it.
    const rest: StreamResponse[] = [
      artifactEvent(task, textArtifact('x', 'missed 1')),
      artifactEvent(task, textArtifact('x', 'missed 2'), { append: true }),
      statusEvent(task, 'TASK_STATE_COMPLETED'),
    ];
    for (const event of rest) {
      seq = await a.store.append(scope, task.id, [event], seq);
      await a.bus.publish(scope.tenant, task.id, { seq, event });
    }
    expect(bus.listening).toBe(false);
    await done;
    expect(bus.listening).toBe(true);
    expect(items.map((i) => i.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(items.slice(2).map((i) => i.event)).toStrictEqual(rest);
  });

  it('applies the migrations once when several instances start at the same time', async () => {
    const stores = await Promise.all(
      Array.from({ length: 5 }, () =>
        PostgresTaskStore.open({ pool: db.pool(), schema: migrateSchema }),
      ),
    );
    const { rows } = await db
      .pool()
      .query<{ version: number }>(`SELECT version FROM "${migrateSchema}".schema_migrations`);
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('refuses to open a schema migrated by a newer a2a-kit', async () => {
    const pool = db.pool();
    await PostgresTaskStore.open({ pool, schema: migrateSchema }).then((s) => s.close());
    await pool.query(
      `INSERT INTO "${migrateSchema}".schema_migrations (version, name) VALUES (99, 'future')`,
    );
    await expect(PostgresTaskStore.open({ pool, schema: migrateSchema })).rejects.toThrow(
      /newer than this a2a-kit/,
    );
  });

  it('closes a store that owns its pool, then a bus listening on that pool, without hanging', async () => {
    const store = await PostgresTaskStore.open({ connectionString: POSTGRES_URL ?? '', schema });
    const bus = new PostgresEventBus({ pool: store.pool, schema, store });
    await bus.subscribe('', uniqueId('task'), () => undefined);
    // A2AServer.close() closes the store first, then the bus.
    await store.close();
    await bus.close();
    expect(bus.listening).toBe(false);
  });

  it('purges finished tasks before the cutoff with their logs and message index, in batches', async () => {
    const store = await PostgresTaskStore.open({ pool: db.pool(), schema: purgeSchema });
    const { scope } = freshScopes();
    const finished = [];
    for (let i = 0; i < 7; i++) {
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      const messageId = uniqueId('m');
      await store.create(scope, task, { messageId });
      await store.append(scope, task.id, [statusEvent(task, 'TASK_STATE_COMPLETED')], 1);
      finished.push({ task, messageId });
    }
    const running = newTask({ state: 'TASK_STATE_WORKING' });
    await store.create(scope, running);
    const born = newTask({ state: 'TASK_STATE_REJECTED' }); // terminal from the start
    await store.create(scope, born);

    expect(await store.purge({ finishedBefore: new Date(Date.now() - 60_000) })).toBe(0);
    const cutoff = new Date(Date.now() + 60_000);
    expect(await store.purge({ finishedBefore: cutoff, batchSize: 3 })).toBe(8);
    for (const { task, messageId } of finished) {
      expect(await store.get(scope, task.id)).toBeUndefined();
      expect(await store.events(scope, task.id, 0)).toEqual([]);
      expect(await store.findByMessageId(scope, messageId)).toBeUndefined();
    }
    expect(await store.get(scope, born.id)).toBeUndefined();
    expect((await store.get(scope, running.id))?.seq).toBe(1);
    const { rows } = await db
      .pool()
      .query<{ n: number }>(`SELECT count(*)::int AS n FROM "${purgeSchema}".events`);
    expect(rows[0]?.n).toBe(1);
    await store.close();
  });
});
