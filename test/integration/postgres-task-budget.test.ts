/**
 * The per-task byte budget (`memory.maxTaskBytes`) on PostgreSQL: the same cases as on memory and
 * SQLite (test/helpers/task-budget.ts, src/server/task-budget.test.ts), one fresh schema.
 */
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { taskBudgetCases } from '../helpers/task-budget.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);

describePostgres('maxTaskBytes on PostgresTaskStore', () => {
  // Each server closes its store; the pool stays open for the next one (the fixture ends it).
  taskBudgetCases(() => PostgresTaskStore.open({ pool: db.pool(), schema }));
});
