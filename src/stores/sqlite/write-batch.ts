/**
 * Group commit for the SQLite store: the writes requested during one turn of the event loop run
 * in one IMMEDIATE transaction and are acknowledged once it committed.
 *
 * Why: a commit writes every page it changed to the WAL, and a status change touches the task's
 * row and several index pages. Concurrent tasks change the same few pages (the newest entries of
 * each index), so one commit per batch writes each page once instead of once per write: under
 * concurrency the cost per write drops several times, and a lone write waits only for the end
 * of the current turn (src/core/turn-end.ts).
 *
 * When a write throws, the whole batch is rolled back and every write of it runs again in its
 * own transaction, so each one succeeds or fails on its own and no write is half done. Writes
 * fail rarely (a lost optimistic-concurrency race, a missing task), so this costs less than a
 * savepoint around every write, which measured at a third of the store's cost per task.
 */
import type Database from 'better-sqlite3';
import { TurnStage } from '../../core/turn-end.js';
import { TurnBatch, type Pending } from './turn-batch.js';

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Runs writes in shared transactions, one per event-loop turn. */
export class WriteBatch extends TurnBatch {
  /** Runs one write in a transaction of its own (the fallback). */
  private readonly alone: (run: () => unknown) => unknown;

  constructor(
    private readonly db: Database.Database,
    /** Told after each commit (wal-sync.ts). */
    private readonly afterCommit?: () => void,
  ) {
    super(TurnStage.writes);
    const tx = db.transaction((run: () => unknown) => run());
    this.alone = (run) => tx.immediate(run);
  }

  /** The turn's writes in one transaction, each acknowledged once it is committed. */
  protected runBatch(batch: readonly Pending[]): void {
    let outcomes: Outcome[];
    try {
      outcomes = this.together(batch);
    } catch {
      if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
      outcomes = batch.map((write) => this.attempt(() => this.alone(write.run)));
    }
    this.afterCommit?.();
    batch.forEach((write, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  /** The batch in one transaction; throws (to roll back) when any write throws. */
  private together(batch: readonly Pending[]): Outcome[] {
    this.db.exec('BEGIN IMMEDIATE');
    const values = batch.map((write) => write.run());
    this.db.exec('COMMIT');
    return values.map((value) => ({ ok: true, value }));
  }

  private attempt(run: () => unknown): Outcome {
    try {
      return { ok: true, value: run() };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
