/**
 * The task stores the a2a-kit bench server can run on, by name (`--stores=sqlite,postgres`):
 * every store scenario (send, stream, long, store) gains an `a2a-kit (<name>)` target whose
 * ratio to the memory store is printed in the same run; the `stores` scenario measures them all.
 */
import { MemoryTaskStore, type TaskStore } from '../../src/server/index.js';
import { DURABLE_STORES } from './durable-stores.js';

/** Settings every store gets. */
export interface StoreSettings {
  /** Finished tasks to keep before evicting (the store scenario holds 100,000). */
  maxTasks: number;
}

/** Store factories by name. */
export const STORES: Readonly<Record<string, (settings: StoreSettings) => Promise<TaskStore>>> = {
  memory: async ({ maxTasks }) => new MemoryTaskStore({ maxTasks }),
  ...DURABLE_STORES,
};
