/**
 * The reads of one event-loop turn in one read transaction. In WAL mode a statement run outside a
 * transaction opens and closes a read transaction of its own: it takes and releases a read lock
 * on the WAL index (system calls on the `-shm` file), about 5 µs, several times what a point
 * lookup costs inside a transaction. The message-index lookups of the sends that arrive in one
 * turn share one transaction instead (`SqliteTaskStore.findByMessageId`).
 *
 * A read joins the batch of the turn it is asked in and is answered at the end of that turn,
 * before the writes of write-batch.ts are committed (src/core/turn-end.ts).
 */
import type Database from 'better-sqlite3';
import { TurnStage } from '../../core/turn-end.js';
import { TurnBatch, type Pending } from './turn-batch.js';

/** Runs reads in shared read transactions, one per event-loop turn. */
export class ReadBatch extends TurnBatch {
  constructor(private readonly db: Database.Database) {
    // Before the writes of the turn: the writes a lookup's answer leads to join this turn's.
    super(TurnStage.reads);
  }

  /** The turn's reads in one read transaction; each fails on its own. */
  protected runBatch(batch: readonly Pending[]): void {
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
  }

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
