/**
 * Task projections kept in memory, least recently used evicted first, so reading a snapshot does
 * not replay its log each time. An entry is only ever moved forward by the events that follow its
 * seq, and is keyed by the row id (`rid`) of the task too, so it stays right when other instances
 * write the same tasks (the database tells which seq and rid are current).
 */
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { TaskProjection } from '../../core/task-state.js';

/** One cached snapshot: the projection after applying entries 1..seq of task row `rid`. */
export interface CachedTask {
  readonly rid: string;
  seq: number;
  readonly projection: TaskProjection;
}

/** An LRU map from task id to its projection; capacity 0 keeps nothing. */
export class ProjectionCache {
  private readonly entries = new Map<string, CachedTask>();

  constructor(private readonly capacity: number) {}

  /** The entry of a task without touching its recency. */
  peek(taskId: string): CachedTask | undefined {
    return this.entries.get(taskId);
  }

  /** Stores (or refreshes) an entry as the most recently used. */
  set(taskId: string, entry: CachedTask): void {
    this.entries.delete(taskId);
    if (this.capacity <= 0) return;
    this.entries.set(taskId, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Forgets a task. */
  delete(taskId: string): void {
    this.entries.delete(taskId);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** Number of cached tasks (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }
}

/** A projection of `base` (the log entry at `baseSeq`) with `events` applied after it. */
export function project(
  rid: string,
  base: Task,
  baseSeq: number,
  events: readonly StreamResponse[],
): CachedTask {
  const entry: CachedTask = { rid, seq: baseSeq, projection: new TaskProjection(base) };
  advance(entry, baseSeq, events);
  return entry;
}

/**
 * Applies the entries `fromSeq + 1 ..` that the projection does not have yet. Returns false when
 * they do not connect to it (a gap) or do not apply (then the entry must be dropped).
 */
export function advance(
  entry: CachedTask,
  fromSeq: number,
  events: readonly StreamResponse[],
): boolean {
  if (fromSeq > entry.seq) return false;
  try {
    for (let i = entry.seq - fromSeq; i < events.length; i++) {
      entry.projection.apply(events[i] as StreamResponse);
      entry.seq = fromSeq + i + 1;
    }
    return true;
  } catch {
    return false;
  }
}
