/**
 * The reads of one event-loop turn in one read transaction. In WAL mode a statement run outside a
 * transaction opens and closes a read transaction of its own: it takes and releases a read lock
 * on the WAL index (system calls on the `-shm` file), about 5 µs, several times what a point
 * lookup costs inside a transaction. The message-index lookups of the sends that arrive in one
 * turn share one transaction instead (`SqliteTaskStore.findByMessageId`).
 *
 * A read joins the batch of the turn it is asked in and is answered at the end of that turn
 * (`setImmediate`), as the writes of write-batch.ts are committed.
 */
import type Database from 'better-sqlite3';

interface Pending {
  readonly run: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Runs reads in shared read transactions, one per event-loop turn. */
export class ReadBatch {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Database.Database) {}

  /** Runs `read` (synchronous SQL) at the end of this turn, with the turn's other reads. */
  run<T>(read: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: read, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(this.flush);
    });
  }

  /** Runs what is queued now; each read fails on its own. */
  readonly flush = (): void => {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const { db } = this;
    // Inside a transaction already (a caller's own), the reads simply join it. A failure to open
    // or end the shared transaction must not leave a read unanswered nor escape the turn.
    const own = db.open && !db.inTransaction && batch.length > 1 && this.exec('BEGIN');
    for (const read of batch) {
      try {
        read.resolve(read.run());
      } catch (error) {
        read.reject(error);
      }
    }
    if (own && db.inTransaction && !this.exec('COMMIT')) this.exec('ROLLBACK');
  };

  /** Runs a transaction statement; false when it failed (the reads then run each on its own). */
  private exec(sql: string): boolean {
    try {
      this.db.exec(sql);
      return true;
    } catch {
      return false;
    }
  }
}
