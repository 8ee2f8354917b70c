/**
 * Group commit for the SQLite store: the writes requested during one turn of the event loop run
 * in one IMMEDIATE transaction, each inside its own savepoint, and are acknowledged once that
 * transaction committed. A failing write rolls back to its savepoint and rejects alone; the
 * others commit.
 *
 * Why: a commit writes every page it changed to the WAL, and a status change touches the task's
 * row and several index pages. Concurrent tasks change the same few pages (the newest entries of
 * each index), so one commit for the batch writes each page once instead of once per write: under
 * concurrency the cost per write drops several times, and a lone write waits only for the end
 * of the current turn (`setImmediate`).
 */
import type Database from 'better-sqlite3';

interface Pending {
  readonly run: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Runs writes in shared transactions, one per event-loop turn. */
export class WriteBatch {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Runs a function in a savepoint (better-sqlite3 nests transactions as savepoints). */
  private readonly savepoint: (run: () => unknown) => unknown;

  constructor(private readonly db: Database.Database) {
    this.savepoint = db.transaction((run: () => unknown) => run());
  }

  /** Runs `write` (synchronous SQL) in the next batch; resolves once it is committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: write, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Runs what is queued now (also on close, so nothing queued is lost). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
      for (const write of batch) {
        try {
          outcomes.push({ ok: true, value: this.savepoint(write.run) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
      this.db.exec('COMMIT');
    } catch (error) {
      // BEGIN or COMMIT failed (busy, disk full, closed): nothing of the batch was written.
      if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const write of batch) write.reject(error);
      return;
    }
    batch.forEach((write, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) write.resolve(outcome.value);
      else write.reject(outcome?.error);
    });
  }
}
