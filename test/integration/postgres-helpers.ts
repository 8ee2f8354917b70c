/**
 * PostgreSQL fixtures for the integration suites: the URL from `A2A_TEST_POSTGRES_URL` (the
 * suites are skipped, loudly, without it), a fresh schema per test file dropped afterwards, and
 * pools that are all ended when the file is done.
 */
import { randomBytes } from 'node:crypto';
import { Pool, type PoolConfig } from 'pg';
import { afterAll, describe } from 'vitest';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import type { TaskStore } from '../../src/stores/types.js';

/** The database of the integration run, or undefined when none is configured. */
export const POSTGRES_URL = process.env['A2A_TEST_POSTGRES_URL'] || undefined;

/**
 * `describe` when PostgreSQL is configured; otherwise `describe.skip` plus a warning nobody can
 * miss, so a run without the database never looks like a pass.
 */
export function describePostgres(name: string, body: () => void): void {
  if (POSTGRES_URL) {
    describe(name, body);
    return;
  }
  console.warn(
    [
      '',
      '!'.repeat(78),
      `!! SKIPPED: ${name}`,
      '!! A2A_TEST_POSTGRES_URL is not set, so the PostgreSQL integration tests did NOT run.',
      '!! Set it, e.g. A2A_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test',
      '!'.repeat(78),
      '',
    ].join('\n'),
  );
  describe.skip(name, body);
}

/** A schema name no other run uses: `a2a_test_<random>`. */
export function freshSchema(): string {
  return `a2a_test_${randomBytes(6).toString('hex')}`;
}

/**
 * Registers cleanup for this file and returns a factory of pools on POSTGRES_URL (each pool is
 * one "instance"). After all tests: every pool is ended and every schema given is dropped.
 */
export function postgresFixture(schemas: readonly string[]): {
  pool: (config?: PoolConfig) => Pool;
} {
  const pools: Pool[] = [];
  afterAll(async () => {
    if (!POSTGRES_URL) return;
    const admin = new Pool({ connectionString: POSTGRES_URL, max: 1 });
    try {
      for (const schema of schemas) {
        if (!/^a2a_test_[a-z0-9_]+$/.test(schema)) continue;
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    } finally {
      await admin.end();
      await Promise.all(pools.splice(0).map((p) => p.end()));
    }
  });
  return {
    pool: (config = {}) => {
      const pool = new Pool({ connectionString: POSTGRES_URL, max: 10, ...config });
      pool.on('error', () => undefined); // a test may kill connections on purpose
      pools.push(pool);
      return pool;
    },
  };
}

/**
 * Pool settings for suites that append thousands of events one by one: commits do not wait for
 * the WAL flush (the data is the same, only a PostgreSQL crash could lose the last writes).
 */
export const FAST_COMMITS: PoolConfig = { options: '-c synchronous_commit=off' };

/**
 * A store whose calls go to each of `stores` in turn: reads, writes and lists hop between
 * instances, as they do behind a load balancer, so every cached snapshot must stay correct.
 */
export function roundRobin(stores: readonly TaskStore[]): TaskStore {
  let turn = 0;
  const next = (): TaskStore => stores[turn++ % stores.length] as TaskStore;
  return {
    create: (scope, task, options) => next().create(scope, task, options),
    append: (scope, taskId, events, expectedSeq, options) =>
      next().append(scope, taskId, events, expectedSeq, options),
    get: (scope, taskId) => next().get(scope, taskId),
    events: (scope, taskId, afterSeq, limit, maxBytes) =>
      next().events(scope, taskId, afterSeq, limit, maxBytes),
    list: (scope, query) => next().list(scope, query),
    findByMessageId: (scope, messageId) => next().findByMessageId(scope, messageId),
    delete: (scope, taskId) => next().delete(scope, taskId),
    close: async () => {
      await Promise.all(stores.map((s) => s.close()));
    },
  };
}

/** An artifact chunk of about `bytes` bytes of text. */
export function bigChunk(task: Task, index: number, bytes: number): StreamResponse {
  return {
    artifactUpdate: {
      taskId: task.id,
      contextId: task.contextId ?? '',
      artifact: { artifactId: 'big', parts: [{ text: `${index}:`.padEnd(bytes, 'x') }] },
      append: index > 0,
    },
  };
}
