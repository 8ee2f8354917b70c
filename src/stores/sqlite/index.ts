/** `a2a-kit/stores/sqlite`: the SQLite TaskStore and its schema migrations (needs better-sqlite3). */
export { SqliteTaskStore } from './task-store.js';
export { SqliteRequestWhenStore } from './request-when.js';
export type { SqliteTaskStoreOptions } from './task-store.js';
export { openSqlite } from './connection.js';
export type { SqliteConnection, SqliteLocation } from './connection.js';
export { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION, migrateSqlite } from './migrations.js';
export type { SqliteMigration } from './migrations.js';
