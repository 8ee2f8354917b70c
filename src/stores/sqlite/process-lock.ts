/**
 * Which processes use a database file, told by the operating system: every store holds a read
 * transaction open on a side file (`<db>.lock`) for as long as it is open. SQLite's file locks
 * belong to the process, so they vanish when the process ends, even on `kill -9`. A store that
 * opens and can briefly take the side file's EXCLUSIVE lock knows no other live process (or
 * other store of this process) uses the database: what the database shows running was left by a
 * process that is gone.
 */
import Database from 'better-sqlite3';

/** This store's presence on a database file. */
export interface Presence {
  /** No other live process had the database open when this presence was registered. */
  readonly alone: boolean;
  /** Ends the presence (the store closes). */
  release(): void;
}

/** Registers this store's presence on the database file `path`. */
export function registerPresence(path: string): Presence {
  if (path === '' || path === ':memory:') return { alone: true, release: () => undefined };
  const db = new Database(`${path}.lock`, { timeout: 0 });
  db.pragma('busy_timeout = 0');
  let alone = true;
  try {
    db.exec('BEGIN EXCLUSIVE'); // refused while any other connection holds its read lock
    db.exec('COMMIT');
  } catch {
    alone = false;
  }
  // From now on this read transaction is the presence: it blocks every other EXCLUSIVE attempt.
  db.exec('BEGIN');
  db.prepare('SELECT count(*) FROM sqlite_master').get();
  return {
    alone,
    release: () => {
      if (!db.open) return;
      db.exec('COMMIT');
      db.close();
    },
  };
}
