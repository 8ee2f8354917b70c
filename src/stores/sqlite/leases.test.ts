import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runInterruptedTaskIndexSuite, runLeaseStoreSuite } from '../../testing/index.js';
import { uniqueId } from '../../testing/store-fixtures.js';
import { SqliteTaskStore } from './task-store.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-leases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runLeaseStoreSuite({
  name: 'sqlite file',
  create: () => new SqliteTaskStore({ path: join(dir, `${uniqueId('db')}.sqlite`) }),
});

runInterruptedTaskIndexSuite({
  name: 'sqlite file',
  create: () => new SqliteTaskStore({ path: join(dir, `${uniqueId('db')}.sqlite`) }),
});
