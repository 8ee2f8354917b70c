/**
 * The durable task stores for the bench (issue 4, item 8), by name: `sqlite` (a fresh file in
 * the temp folder) and `postgres` (a fresh schema on A2A_BENCH_POSTGRES_URL, else
 * A2A_TEST_POSTGRES_URL). Each is deleted when the store closes. Registered in `STORES`
 * (stores.ts), they become `--stores=sqlite,postgres` targets of every store scenario.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskStore } from '../../src/stores/types.js';

/** The PostgreSQL database of the bench, if any. */
export function benchPostgresUrl(): string | undefined {
  return process.env['A2A_BENCH_POSTGRES_URL'] || process.env['A2A_TEST_POSTGRES_URL'] || undefined;
}

const unique = () => `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

/** A SQLite store in a new temp file, removed (with -wal, -shm, .lock) on close. */
export async function benchSqliteStore(): Promise<TaskStore> {
  const { SqliteTaskStore } = await import('../../src/stores/sqlite/index.js');
  const path = join(tmpdir(), `a2a-bench-${unique()}.db`);
  const store = new SqliteTaskStore({ path });
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm', '.lock']) rmSync(`${path}${suffix}`, { force: true });
  };
  // Also when the process exits without closing the store (a bench child told to stop).
  process.once('exit', remove);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    remove();
  };
  return store;
}

/** A PostgreSQL store on a new schema, dropped on close; throws without a database URL. */
export async function benchPostgresStore(): Promise<TaskStore> {
  const url = benchPostgresUrl();
  if (url === undefined) {
    throw new Error('the postgres store needs A2A_BENCH_POSTGRES_URL (or A2A_TEST_POSTGRES_URL)');
  }
  const { PostgresTaskStore } = await import('../../src/stores/postgres/index.js');
  const schema = `a2a_bench_${unique()}`;
  const store = await PostgresTaskStore.open({ connectionString: url, schema, maxConnections: 20 });
  const close = store.close.bind(store);
  store.close = async () => {
    await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await close();
  };
  return store;
}

/** The durable stores by name, for `STORES` in stores.ts. */
export const DURABLE_STORES: Readonly<Record<string, () => Promise<TaskStore>>> = {
  sqlite: benchSqliteStore,
  postgres: benchPostgresStore,
};
