/**
 * Batched reads for the PostgreSQL store: the lookups of one event-loop turn (the message index
 * and interrupted-task counts every new send reads, for many sends at once) go to the database
 * as one statement over arrays of keys, so a burst of sends costs one round trip per kind of
 * read instead of one per send. A read waits only for the end of the current turn
 * (`setImmediate`). A statement that fails fails the reads of its batch (each caller sees the
 * error its own read would have had: the database or the connection failed).
 */

/** Runs one batch: a result per key, in order. */
export type ExecuteReads<K, R> = (keys: readonly K[]) => Promise<readonly R[]>;

interface Pending<K, R> {
  readonly key: K;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

/** The read queue of one kind of lookup. */
export class ReadBatch<K, R> {
  private queue: Pending<K, R>[] = [];
  private scheduled = false;

  constructor(
    private readonly execute: ExecuteReads<K, R>,
    /** Most keys in one statement. */
    private readonly maxBatch = 256,
  ) {}

  /** Queues one lookup; resolves with its result once its batch returned. */
  read(key: K): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.queue;
    this.queue = [];
    for (let start = 0; start < all.length; start += this.maxBatch) {
      const part = all.slice(start, start + this.maxBatch);
      this.execute(part.map((p) => p.key)).then(
        (results) => part.forEach((p, i) => p.resolve(results[i] as R)),
        (error: unknown) => part.forEach((p) => p.reject(error)),
      );
    }
  }
}
