/**
 * The storage plug-in point of delegation's Request-When (docs/extensions/delegation.md §3): the
 * records a delegating process keeps so that a watch survives its restart. The stores' other
 * plug-in points are in ./types.ts. Types only.
 */
import type { Message, Task } from '../core/schemas/index.js';

/** The condition of a Request-When (docs/extensions/delegation.md §3) on a watched task. */
export interface RequestWhenCondition {
  /** The watched task's agent URL and task id. */
  agent: string;
  taskId: string;
  /** Fire when the task reaches this state (default TASK_STATE_COMPLETED). */
  state?: Task['status']['state'];
  /** And has an artifact with this name. */
  artifactName?: string;
}

/** One Request-When as kept in a {@link RequestWhenStore}. */
export interface RequestWhenRecord {
  id: string;
  when: RequestWhenCondition;
  then: { agent: string; message: Message };
  /**
   * `waiting` for the condition; `sending` once one watcher claimed the send (the message goes
   * out with the record's messageId); `sent` or `dropped` (the task ended another way) at the end.
   */
  status: 'waiting' | 'sending' | 'sent' | 'dropped';
  /** The last stream event id seen on the watched task: a resumed watch continues after it. */
  lastEventId?: string;
  /** The task `then` created, once sent. */
  sentTaskId?: string;
  reason?: string;
}

/**
 * Where pending Request-When records live, so they survive a restart of the delegating process
 * (memory, SQLite, PostgreSQL: src/stores/{memory,sqlite,postgres}/request-when.ts).
 */
export interface RequestWhenStore {
  /** Creates or replaces a record. */
  put(record: RequestWhenRecord): Promise<void>;
  /** Records still to do (`waiting` or `sending`), oldest first. */
  pending(): Promise<RequestWhenRecord[]>;
  /** One record, or undefined. */
  get(id: string): Promise<RequestWhenRecord | undefined>;
  /**
   * Moves a record from `waiting` to `sending` atomically: true for exactly one caller, so two
   * watchers of one record (two resumed processes) send at most once between them.
   */
  claim(id: string): Promise<boolean>;
  /** Remembers the last stream event id seen (a resumed watch starts after it). */
  seen(id: string, lastEventId: string): Promise<void>;
  close?(): Promise<void>;
}
