/**
 * The push outbox of the memory store (one process, nothing survives a restart): pending
 * deliveries queued per (task, config) pair in seq order, so only the head of a pair is claimable.
 */
import type {
  ClaimRef,
  ClaimedDelivery,
  NewDelivery,
  PushOutbox,
  StoredDelivery,
} from '../types.js';

interface Row extends StoredDelivery {
  attempt: number;
  state: StoredDelivery['state'];
  nextAttemptAt: number;
  lastError?: string | undefined;
  leaseUntil: number;
  claim: string | undefined;
}

/** A PushOutbox in process memory; `MemoryTaskStore#pushOutbox()` returns one per store. */
export class MemoryPushOutbox implements PushOutbox {
  private readonly rows = new Map<string, Row>();
  /** Pending rows of each (task, config) pair, oldest seq first. */
  private readonly pairs = new Map<string, Row[]>();
  private readonly keys = new Set<string>();

  constructor(private readonly clock: () => number = Date.now) {}

  async enqueue(deliveries: readonly NewDelivery[]): Promise<void> {
    this.add(deliveries);
  }

  /** Enqueues at once (the store's append calls it in the same turn as the events' write). */
  add(deliveries: readonly NewDelivery[]): void {
    const now = this.clock();
    for (const d of deliveries) {
      const key = `${pairKey(d)}\u0000${d.seq}`;
      if (this.keys.has(key) || this.rows.has(d.id)) continue;
      const row: Row = {
        ...d,
        attempt: 0,
        state: 'pending',
        nextAttemptAt: now,
        leaseUntil: 0,
        claim: undefined,
      };
      this.keys.add(key);
      this.rows.set(d.id, row);
      const queue = this.pairs.get(pairKey(d)) ?? [];
      let i = queue.length;
      while (i > 0 && (queue[i - 1] as Row).seq > d.seq) i--;
      queue.splice(i, 0, row);
      this.pairs.set(pairKey(d), queue);
    }
  }

  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const now = this.clock();
    const due: Row[] = [];
    for (const queue of this.pairs.values()) {
      const head = queue[0];
      if (head && head.nextAttemptAt <= now && head.leaseUntil <= now) due.push(head);
    }
    due.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    return due.slice(0, Math.max(0, limit)).map((row) => {
      row.claim = globalThis.crypto.randomUUID();
      row.leaseUntil = now + leaseMs;
      return claimed(row, row.claim);
    });
  }

  async complete(ref: ClaimRef): Promise<void> {
    const row = this.owned(ref);
    if (row) this.remove(row);
  }

  async retry(ref: ClaimRef, delayMs: number, error: string): Promise<void> {
    const row = this.owned(ref);
    if (!row) return;
    row.attempt++;
    row.lastError = error;
    row.nextAttemptAt = this.clock() + Math.max(0, delayMs);
    row.leaseUntil = 0;
    row.claim = undefined;
  }

  async fail(ref: ClaimRef, error: string): Promise<void> {
    const row = this.owned(ref);
    if (!row) return;
    row.attempt++;
    row.lastError = error;
    row.state = 'failed';
    row.leaseUntil = 0;
    row.claim = undefined;
    this.dequeue(row);
  }

  async release(ref: ClaimRef): Promise<void> {
    const row = this.owned(ref);
    if (!row) return;
    row.leaseUntil = 0;
    row.claim = undefined;
  }

  async list(taskId: string): Promise<StoredDelivery[]> {
    return [...this.rows.values()]
      .filter((r) => r.taskId === taskId)
      .sort((a, b) => (a.configId < b.configId ? -1 : a.configId > b.configId ? 1 : a.seq - b.seq))
      .map(({ leaseUntil: _l, claim: _c, ...row }) => ({ ...row }));
  }

  /** Drops every delivery of a task (the task was deleted or evicted). */
  dropTask(taskId: string): void {
    if (this.rows.size === 0) return; // no iterator for the common case
    for (const row of this.rows.values()) if (row.taskId === taskId) this.remove(row);
  }

  private owned(ref: ClaimRef): Row | undefined {
    const row = this.rows.get(ref.id);
    return row && row.claim === ref.claim ? row : undefined;
  }

  private remove(row: Row): void {
    this.rows.delete(row.id);
    this.keys.delete(`${pairKey(row)}\u0000${row.seq}`);
    this.dequeue(row);
  }

  private dequeue(row: Row): void {
    const queue = this.pairs.get(pairKey(row));
    if (!queue) return;
    const i = queue.indexOf(row);
    if (i >= 0) queue.splice(i, 1);
    if (queue.length === 0) this.pairs.delete(pairKey(row));
  }
}

function pairKey(d: Pick<NewDelivery, 'taskId' | 'configId'>): string {
  return `${d.taskId}\u0000${d.configId}`;
}

function claimed(row: Row, claim: string): ClaimedDelivery {
  const { id, scope, taskId, configId, seq, body, attempt, trace } = row;
  return { id, scope, taskId, configId, seq, body, attempt, claim, ...(trace ? { trace } : {}) };
}
