/** Opening a SQLite database for a2a-kit's stores: directory, pragmas, migrations. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSqlite } from './migrations.js';

/** The page size of a file a2a-kit creates (SQLite's default is 4,096 bytes). */
export const SQLITE_PAGE_SIZE = 8_192;

/** WAL written between two automatic checkpoints: 10,000 pages of 4 KiB. */
const CHECKPOINT_BYTES = 10_000 * 4_096;

/** Where the data lives: a file (created with its directory on first use) or `:memory:`. */
export type SqliteLocation = { path: string } | { database: Database.Database };

/** An open, migrated connection, and whether the caller opened it (and so must close it). */
export interface SqliteConnection {
  readonly db: Database.Database;
  readonly owned: boolean;
}

/**
 * Opens (or adopts) a connection: WAL, so readers never block the writer; synchronous=NORMAL,
 * durable across a crash of the process (a power loss may drop the last commits, never corrupt);
 * a long WAL between checkpoints; a busy timeout for other processes' write locks; then the
 * schema migrations.
 */
export function openSqlite(location: SqliteLocation, busyTimeoutMs = 5_000): SqliteConnection {
  let db: Database.Database;
  let owned: boolean;
  if ('database' in location) {
    db = location.database;
    owned = false;
  } else {
    const { path } = location;
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: busyTimeoutMs });
    owned = true;
    // 8 KiB pages for a new file (an existing one keeps its own): a commit writes the pages its
    // rows touch, one write(2) per page header and one per page, to the WAL and again at the
    // checkpoint, so fewer, larger pages cost fewer system calls per task (docs/benchmarks.md).
    db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Checkpoint every ~40 MB of WAL instead of 4 MB: the hot pages (newest index entries) are
  // rewritten by every write, so a longer WAL copies each of them to the database far less often
  // (about a fifth less server CPU per SendMessage in the bench); the WAL file left after a
  // checkpoint is capped at 64 MB. The setting counts pages, of this file's size.
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  db.pragma(`wal_autocheckpoint = ${Math.round(CHECKPOINT_BYTES / pageSize)}`);
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  migrateSqlite(db);
  return { db, owned };
}
