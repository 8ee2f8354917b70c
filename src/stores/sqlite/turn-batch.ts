/**
 * Work asked for during one event-loop turn, run together at its end (src/core/turn-end.ts): the
 * shared queue of the group commit (write-batch.ts) and of the read batch (read-batch.ts).
 */
import { type TurnStage, atTurnEnd } from '../../core/turn-end.js';

/** One queued piece of synchronous SQL and the promise it answers. */
export interface Pending {
  readonly run: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Queues work per turn; a subclass says how one turn's batch runs. */
export abstract class TurnBatch {
  private queue: Pending[] = [];
  private scheduled = false;

  /** `stage`: where the batch runs at the end of the turn (src/core/turn-end.ts). */
  constructor(private readonly stage: TurnStage) {}

  /** Runs `work` (synchronous SQL) with the rest of this turn's batch; resolves with its value. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      atTurnEnd(this.stage, this.flush);
    });
  }

  /** Runs what is queued now (also on close, so nothing queued is left waiting). */
  readonly flush = (): void => {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    this.runBatch(batch);
  };

  /** Runs one turn's batch, answering every piece of it. */
  protected abstract runBatch(batch: readonly Pending[]): void;
}
