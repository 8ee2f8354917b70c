/** The shared LeaseStore and InterruptedTaskIndex suites against PostgreSQL (two instances: leases must be exclusive). */
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { runInterruptedTaskIndexSuite, runLeaseStoreSuite } from '../../src/testing/index.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);

describePostgres('PostgreSQL leases', () => {
  runLeaseStoreSuite({
    name: 'postgres',
    create: () => PostgresTaskStore.open({ pool: db.pool(), schema }),
  });
  runInterruptedTaskIndexSuite({
    name: 'postgres',
    create: () => PostgresTaskStore.open({ pool: db.pool(), schema }),
  });
});
