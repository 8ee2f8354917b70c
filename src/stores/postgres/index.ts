/**
 * `a2a-kit/stores/postgres`: the PostgreSQL TaskStore and the LISTEN/NOTIFY EventBus for several
 * instances of one agent. Needs the optional peer dependency `pg`.
 */
export { PostgresTaskStore } from './task-store.js';
export type { PostgresTaskStoreOptions } from './task-store.js';
export { PostgresEventBus } from './event-bus.js';
export { PostgresRequestWhenStore } from './request-when.js';
export type { PostgresRequestWhenStoreOptions } from './request-when.js';
export type { PostgresEventBusOptions } from './event-bus.js';
export type { LogSource } from '../types.js';
export type { PostgresConnectionOptions } from './connection.js';
export { MIGRATIONS, SCHEMA_VERSION, migrate } from './migrations.js';
export type { Migration } from './migrations.js';
