/**
 * The per-task byte budget on the memory and SQLite stores (the cases: test/helpers/task-budget.ts;
 * PostgreSQL: test/integration/postgres-task-budget.test.ts). Issue-level requirement: bounded
 * bytes per task, the same on every store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import { taskBudgetCases } from '../../test/helpers/task-budget.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe('maxTaskBytes on MemoryTaskStore', () => {
  taskBudgetCases(() => Promise.resolve(new MemoryTaskStore()));
});

describe('maxTaskBytes on SqliteTaskStore', () => {
  taskBudgetCases(() =>
    Promise.resolve(new SqliteTaskStore({ path: join(dir, `tasks-${files++}.db`) })),
  );
});
