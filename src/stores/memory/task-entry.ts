/**
 * One task of the memory store. While it runs (and for a short while after it finished, when it
 * is read most) it keeps its projection and its events as objects; then it is packed into one
 * string (./packed-task.ts) and keeps only what retention and the indexes need.
 */
import { TaskTransitionError, batchProblem, type TaskProjection } from '../../core/task-state.js';
import type { StreamResponse, Task, TaskState } from '../../core/schemas/index.js';
import type { Scope } from '../types.js';
import type { Indexed, ScopeIndex } from './list-index.js';
import type { LeasedEntry } from './leases.js';
import { unpackEvents, unpackTask, type PackedTask } from './packed-task.js';

/** The objects of a task that may still change (what the leases read too). */
export class LiveTask implements LeasedEntry {
  constructor(
    readonly scope: Scope,
    readonly projection: TaskProjection,
    /** The log: event i has seq i + 1. */
    readonly events: StreamResponse[],
    /** Last change, in ms since the epoch. */
    public updatedAt: number,
  ) {}
}

/** A task of the store, indexed by its status timestamp, state and context. */
export class TaskEntry implements Indexed {
  /** The user messageIds indexed for this task: one string, or several. */
  messageIds: string | string[] | undefined = undefined;
  /**
   * The audit chain hashes of the log (hash i is event i's), when the writes gave them: an array
   * while the task runs, one string of the hashes side by side once it is packed
   * ({@link packHashes}).
   */
  hashes: string[] | string | undefined = undefined;
  /** Set once the store dropped the task (retention, delete): the queues skip it by this. */
  removed = false;

  constructor(
    readonly id: string,
    readonly contextId: string | undefined,
    readonly scope: ScopeIndex<TaskEntry>,
    /** Status timestamp (`''` when none); only ScopeIndex.rekey changes it. */
    public ts: string,
    /** Status state; only ScopeIndex.rekey changes it. */
    public state: TaskState,
    /** Sequence number of the last event. */
    public seq: number,
    public body: LiveTask | PackedTask,
  ) {}

  /** The snapshot: the live projection (callers must not change it) or a fresh copy. */
  task(): Task {
    const { body } = this;
    return body instanceof LiveTask ? body.projection.task : unpackTask(body, this);
  }

  /** The log; the array is the live one for an unpacked task (callers must not change it). */
  events(): readonly StreamResponse[] {
    const { body } = this;
    return body instanceof LiveTask ? body.events : unpackEvents(body, this);
  }

  /** The audit chain hash of event i (seq i + 1), if kept. */
  hashAt(i: number): string | undefined {
    const { hashes } = this;
    if (typeof hashes !== 'string') return hashes?.[i];
    const width = hashes.length / this.seq;
    return i < this.seq ? hashes.slice(i * width, (i + 1) * width) : undefined;
  }

  /**
   * Keeps the hashes of a finished task as one flat string when they cover its whole log and
   * have one length (a SHA-256 link is always 43 characters): one object kept per task instead of
   * an array and a string per event (an echo task: 211 bytes more than without audit, not 363),
   * which a store holding many tasks pays for in every full garbage collection.
   */
  packHashes(): void {
    const { hashes } = this;
    if (!Array.isArray(hashes) || hashes.length !== this.seq || hashes.length < 2) return;
    const width = (hashes[0] as string).length;
    if (width === 0 || hashes.some((h) => h.length !== width)) return;
    this.hashes = hashes.join('');
  }

  /** The first user messageId indexed for this task. */
  get messageId(): string | undefined {
    const ids = this.messageIds;
    return typeof ids === 'string' ? ids : ids?.[0];
  }

  addMessageId(messageId: string): void {
    const ids = this.messageIds;
    if (ids === undefined) this.messageIds = messageId;
    else if (typeof ids === 'string') this.messageIds = [ids, messageId];
    else ids.push(messageId);
  }
}

/**
 * Validates a batch against the state machine (`batchProblem`) before anything is written, so a
 * batch with one forbidden change leaves the task and its log untouched.
 */
export function checkTransitions(entry: TaskEntry, events: readonly StreamResponse[]): void {
  const problem = batchProblem(entry.state, events);
  if (problem !== undefined) throw new TaskTransitionError(`task ${entry.id}: ${problem}`);
}
