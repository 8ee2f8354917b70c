/**
 * The shared TaskStore and EventBus conformance suites against PostgreSQL: one instance, one
 * instance without its snapshot cache, and two instances taking turns (what a load balancer
 * does). Runs when A2A_TEST_POSTGRES_URL is set; otherwise skipped, loudly.
 */
import type { Pool, PoolConfig } from 'pg';
import { PostgresEventBus, PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { runEventBusSuite, runTaskStoreSuite } from '../../src/testing/index.js';
import {
  FAST_COMMITS,
  POSTGRES_URL,
  describePostgres,
  freshSchema,
  postgresFixture,
  roundRobin,
} from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);

describePostgres('PostgreSQL store and bus conformance', () => {
  // One pool per simulated instance, created on first use and ended after the file.
  const pools = new Map<string, Pool>();
  const pool = (instance: string, config: PoolConfig = {}) => {
    let found = pools.get(instance);
    if (!found) pools.set(instance, (found = db.pool(config)));
    return found;
  };

  // The suites append 10,000 events one by one: with each commit waiting for its WAL flush that
  // alone takes a minute on a slow disk, so these pools use FAST_COMMITS (same data, same SQL).
  // The other integration files use default settings.
  runTaskStoreSuite({
    name: 'postgres',
    create: () => PostgresTaskStore.open({ pool: pool('a', FAST_COMMITS), schema }),
  });

  runTaskStoreSuite({
    name: 'postgres without snapshot cache',
    create: () =>
      PostgresTaskStore.open({ pool: pool('fast', FAST_COMMITS), schema, cacheSize: 0 }),
  });

  runTaskStoreSuite({
    name: 'postgres, two instances taking turns',
    create: async () => {
      const instances = await Promise.all(
        ['b1', 'b2'].map((i) => PostgresTaskStore.open({ pool: pool(i, FAST_COMMITS), schema })),
      );
      return roundRobin(instances);
    },
  });

  runEventBusSuite({
    name: 'postgres LISTEN/NOTIFY',
    shared: true,
    create: () => new PostgresEventBus({ pool: pool('a'), schema }),
  });

  runEventBusSuite({
    name: 'postgres LISTEN/NOTIFY, own pool per bus',
    shared: true,
    create: () => new PostgresEventBus({ connectionString: POSTGRES_URL ?? '', schema }),
  });
});
