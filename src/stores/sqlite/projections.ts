/**
 * The SQLite store's task projections: an LRU of recently read or written tasks, advanced in
 * place by appends, and the cold path that rebuilds a task from its checkpoint plus the log.
 */
import { A2AError } from '../../core/errors.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { TaskProjection } from '../../core/task-state.js';
import { Lru } from './lru.js';
import { rowLines } from './event-rows.js';
import type { HeadRow, Statements } from './statements.js';

/** A projection and the seq of the last event applied to it. */
export interface Projected {
  readonly projection: TaskProjection;
  seq: number;
  /** Tells a task apart from one deleted and created again with the same id. */
  readonly createdAt: number;
}

/** What {@link Projections.load} needs of the task's row. */
export type ProjectionHead = Pick<HeadRow, 'seq' | 'snapshot_seq' | 'created_at'>;

/** Cache and loader of task projections for one connection. */
export class Projections {
  private readonly cache: Lru<string, Projected>;
  private readonly sql: Statements;

  constructor(sql: Statements, capacity: number) {
    this.sql = sql;
    this.cache = new Lru(capacity);
  }

  /**
   * The projection of a task created at `createdAt` with `events` after its seq 1 (thrown by
   * TaskProjection.apply when they do not fit), not cached yet: see {@link seed}.
   */
  static created(task: Task, events: readonly StreamResponse[], createdAt: number): Projected {
    const projection = new TaskProjection(task);
    for (const event of events) projection.apply(event);
    return { projection, seq: 1 + events.length, createdAt };
  }

  /**
   * The task as of its checkpoint: the row in snapshots, or (none was rewritten yet, snapshot_seq
   * is 1) the creation event `{"task": …}` at seq 1. Rows written before the creation event
   * served as the first checkpoint have both; the row wins.
   */
  private checkpoint(taskId: string): Task {
    const row = this.sql.snapshot.get(taskId);
    if (row) return JSON.parse(row.snapshot) as Task;
    const creation = this.sql.creation.get(taskId);
    const task = creation && (JSON.parse(creation.event) as { task?: Task }).task;
    if (!task) throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`);
    return task;
  }

  /** Caches a task just created (once its creation committed). */
  seed(taskId: string, created: Projected): void {
    this.cache.set(taskId, created);
  }

  /**
   * The cached projection when it is exactly at `seq` (the caller's own write, GetOptions.written),
   * without reading the database; otherwise undefined.
   */
  at(taskId: string, seq: number): Projected | undefined {
    const cached = this.cache.get(taskId);
    return cached?.seq === seq ? cached : undefined;
  }

  /**
   * Applies appended events to the cached projection when it is at `head.seq`; otherwise drops
   * it (another process moved the task) so the next read rebuilds it.
   */
  advance(taskId: string, head: ProjectionHead, events: readonly StreamResponse[]): void {
    const cached = this.cache.get(taskId);
    if (!cached) return;
    if (cached.seq !== head.seq || cached.createdAt !== head.created_at) {
      this.cache.delete(taskId);
      return;
    }
    for (const event of events) cached.projection.apply(event);
    cached.seq += events.length;
  }

  /**
   * The projection of a task at `head.seq`: the cached one, advanced by the events it misses
   * (written by another process), else the checkpoint plus the log after it. `remember` keeps it
   * in the cache (reads and writes do; listings do not, so they cannot push out running tasks).
   */
  load(taskId: string, head: ProjectionHead, remember: boolean): Projected {
    let cached = this.cache.get(taskId);
    if (cached && (cached.createdAt !== head.created_at || cached.seq > head.seq)) {
      this.cache.delete(taskId); // deleted and created again elsewhere
      cached = undefined;
    }
    if (!cached) {
      const projection = new TaskProjection(this.checkpoint(taskId));
      cached = { projection, seq: head.snapshot_seq, createdAt: head.created_at };
    }
    try {
      if (cached.seq < head.seq) {
        for (const row of this.sql.eventsAfter.iterate(taskId, cached.seq, head.seq - cached.seq)) {
          for (const { seq, text } of rowLines(row, cached.seq)) {
            cached.projection.apply(JSON.parse(text) as StreamResponse);
            cached.seq = seq;
          }
        }
      }
    } catch (error) {
      this.cache.delete(taskId);
      throw error;
    }
    if (remember) this.cache.set(taskId, cached);
    return cached;
  }

  /** Forgets a task (deleted, or its cached state may be ahead of what was committed). */
  forget(taskId: string): void {
    this.cache.delete(taskId);
  }
}
