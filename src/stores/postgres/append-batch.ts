/**
 * Group commit for the PostgreSQL store: the writes of concurrent tasks (appends, and creations
 * with their agent's first events) go to the database together, in one statement (so one
 * transaction, one round trip, one WAL flush), and each write resolves only once its batch
 * committed: an acknowledged event is committed.
 *
 * A few batches are in flight at once, each on its own connection (pipelined: one executes while
 * another waits for its WAL flush); the appends requested meanwhile queue up and form the next
 * batch as soon as one returns. A lone append waits only for the end of the current event-loop
 * turn (`setImmediate`), so the appends of one turn (other tasks' steps) share its commit.
 * A task has at most one append in flight: the statement checks every row against the snapshot
 * it started from, so a second append to the same task (expecting the seq the first one moves
 * to) waits for the first one's batch instead of racing it.
 *
 * A creation counts as a write of its task like an append (its id is busy until it committed).
 *
 * A row that does not match (stale seq, bad transition, unknown task, an id that exists) fails
 * only that write: the statement returns nothing for it and the others commit. When the
 * statement itself fails (a lost connection, a deadlock with another instance, one bad row),
 * nothing of the batch is committed and every write of it runs again alone, so each succeeds or
 * fails on its own (a batch of one fails with the statement's error).
 */
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { withFields } from '../../core/with-fields.js';

/** One append, as the batch statement reads it (`json_to_recordset`, statements.ts). */
export interface AppendRow {
  id: string;
  tenant: string;
  owner: string;
  expected: number;
  events: readonly StreamResponse[];
  count: number;
  allowed: readonly string[];
  state: string | null;
  ts: string | null;
  terminal: boolean;
  message_id: string | null;
  fingerprint: string;
  pushed: readonly number[];
  trace: string | null;
  /** The events' audit chain hashes, in order; null when audit is off. */
  hashes: readonly string[] | null;
}

/** One creation, with the events that follow its snapshot (none for a bare one). */
export interface CreateRow {
  readonly create: true;
  id: string;
  tenant: string;
  owner: string;
  context: string;
  /** The task's state and status timestamp after the events. */
  state: string;
  ts: string;
  /** The creation snapshot (seq 1). */
  task: Task;
  events: readonly StreamResponse[];
  count: number;
  terminal: boolean;
  message_id: string | null;
  fingerprint: string;
  /** The audit chain hashes of seq 1 and of each event; null when audit is off. */
  hashes: readonly string[] | null;
  /** The instance given the task's lease when it is unfinished after the write (else null). */
  lease_owner: string | null;
  lease_ms: number;
}

/** One write of a batch. */
export type BatchRow = AppendRow | CreateRow;

/** What the statement returned for an append that matched: the task's row id, pushes queued. */
export interface Appended {
  rid: string;
  pushed: number;
}

/** Runs one batch statement: the rows that matched, by their index in `rows`. */
export type ExecuteBatch = (
  rows: readonly (BatchRow & { i: number })[],
) => Promise<ReadonlyMap<number, Appended>>;

interface Pending {
  readonly row: BatchRow;
  readonly resolve: (value: Appended | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/** The write queue of one store. */
export class AppendBatch {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Tasks with an append in a batch in flight: their next append waits for it. */
  private readonly busy = new Set<string>();
  private scheduled = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly execute: ExecuteBatch,
    /** Batches in flight at once (each on its own connection). */
    private readonly maxInFlight = 4,
    /** Most appends in one statement. */
    private readonly maxBatch = 256,
  ) {}

  /** Queues one write; resolves after its batch committed (undefined: it matched nothing). */
  submit(row: BatchRow): Promise<Appended | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once nothing is queued or in flight (close waits for it). */
  drain(): Promise<void> {
    if (this.inFlight === 0 && !this.scheduled && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.inFlight >= this.maxInFlight || this.scheduled) return;
    if (this.queue.length === 0) {
      if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /**
   * Takes the next batch: queue order, at most `maxBatch`, one append per task and none of a
   * task that has one in flight (so the appends of one task run in the order they were made).
   */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const pending of this.queue) {
      if (batch.length < this.maxBatch && !this.busy.has(pending.row.id)) {
        this.busy.add(pending.row.id);
        batch.push(pending);
      } else {
        rest.push(pending);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async flush(): Promise<void> {
    const batch = this.take();
    // Everything queued belongs to tasks in flight: their batches' end schedules the next one.
    if (batch.length === 0) return;
    this.inFlight++;
    this.schedule(); // the rest of the queue may form the next batch right away
    try {
      await this.together(batch);
    } catch (error) {
      if (batch.length === 1) (batch[0] as Pending).reject(error);
      else await Promise.all(batch.map((pending) => this.alone(pending)));
    } finally {
      this.inFlight--;
      for (const pending of batch) this.busy.delete(pending.row.id);
      this.schedule();
    }
  }

  /** The batch in one statement; throws (nothing committed) when the statement fails. */
  private async together(batch: readonly Pending[]): Promise<void> {
    const matched = await this.execute(batch.map((pending, i) => withFields(pending.row, { i })));
    batch.forEach((pending, i) => pending.resolve(matched.get(i)));
  }

  /** One append in a statement of its own; its error is its own. */
  private async alone(pending: Pending): Promise<void> {
    try {
      const matched = await this.execute([withFields(pending.row, { i: 0 })]);
      pending.resolve(matched.get(0));
    } catch (error) {
      pending.reject(error);
    }
  }
}
