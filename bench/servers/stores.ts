/**
 * The task stores the a2a-kit bench server can run on, by name (`--stores=memory,...`).
 *
 * Hook for issue 4 (SQLite and PostgreSQL): register a factory here, e.g.
 *   sqlite: () => new SqliteTaskStore({ path: join(tmpdir(), `bench-${process.pid}.db`) }),
 *   postgres: () => PostgresTaskStore.connect({ url: process.env.A2A_BENCH_PG_URL }),
 * and every store scenario (send, stream, long, store) gains an `a2a-kit (<name>)` target whose
 * ratio to the memory store is printed in the same run.
 */
import { MemoryTaskStore, type TaskStore } from '../../src/server/index.js';

/** Settings every store gets. */
export interface StoreSettings {
  /** Finished tasks to keep before evicting (the store scenario holds 100,000). */
  maxTasks: number;
}

/** Store factories by name. */
export const STORES: Readonly<Record<string, (settings: StoreSettings) => Promise<TaskStore>>> = {
  memory: async ({ maxTasks }) => new MemoryTaskStore({ maxTasks }),
};
