/**
 * The ListTasks index of one scope (tenant, owner): every task, the tasks of each state and the
 * tasks of each context, each in ListTasks order. A page costs O(log n + page) and `totalSize`
 * comes from the list sizes, so neither depends on how many tasks the scope holds; only filters
 * that no single list answers (contextId with status) walk one context's tasks.
 */
import type { TaskState } from '../../core/schemas/index.js';
import type { Scope, TaskQuery } from '../types.js';
import { SortedEntries, type Key, type Keyed } from './sorted-entries.js';

/** What the index reads of a task; `ts` and `state` change only through {@link ScopeIndex.rekey}. */
export interface Indexed extends Keyed {
  ts: string;
  state: TaskState;
  readonly contextId: string | undefined;
}

/** One indexed user message: the task it created or continued, its fingerprint, when (ms). */
export interface IndexedWrite {
  readonly taskId: string;
  readonly fingerprint: string;
  readonly at: number;
}

/** The tasks of a query's page, before they are turned into snapshots. */
export interface IndexPage<T> {
  readonly items: T[];
  /** Whether more tasks match after this page. */
  readonly more: boolean;
  /** Tasks matching the filters, on every page. */
  readonly total: number;
}

/** The indexes of one scope. */
export class ScopeIndex<T extends Indexed> implements Scope {
  private readonly all = new SortedEntries<T>();
  private readonly byState = new Map<TaskState, SortedEntries<T>>();
  /** One task on its own (most contexts hold one), a list beyond. */
  private readonly contexts = new Map<string, T | SortedEntries<T>>();
  /** The last write of each user messageId of this scope: its task, fingerprint and time. */
  readonly messages = new Map<string, IndexedWrite>();

  constructor(
    readonly tenant: string,
    readonly owner: string,
  ) {}

  /** Number of tasks indexed. */
  get size(): number {
    return this.all.size;
  }

  add(item: T): void {
    this.all.insert(item);
    this.stateList(item.state).insert(item);
    const { contextId } = item;
    if (!contextId) return;
    const current = this.contexts.get(contextId);
    if (current === undefined) {
      this.contexts.set(contextId, item);
    } else if (current instanceof SortedEntries) {
      current.insert(item);
    } else {
      const list = SortedEntries.of([current]);
      list.insert(item);
      this.contexts.set(contextId, list);
    }
  }

  remove(item: T): void {
    this.all.remove(item);
    this.byState.get(item.state)?.remove(item);
    const { contextId } = item;
    if (!contextId) return;
    const current = this.contexts.get(contextId);
    if (current === item) {
      this.contexts.delete(contextId);
    } else if (current instanceof SortedEntries) {
      current.remove(item);
      if (current.size === 1) this.contexts.set(contextId, current.toArray()[0] as T);
    }
  }

  /** Gives a task its new status timestamp and state, and moves it where they belong. */
  rekey(item: T, ts: string, state: TaskState): void {
    const moves = ts !== item.ts;
    if (!moves && state === item.state) return;
    // A context with one task keeps it as it is; a list of several reorders.
    const found = moves && item.contextId ? this.contexts.get(item.contextId) : undefined;
    const context = found instanceof SortedEntries ? found : undefined;
    if (moves) {
      this.all.remove(item);
      context?.remove(item);
    }
    this.byState.get(item.state)?.remove(item);
    item.ts = ts;
    item.state = state;
    if (moves) {
      this.all.insert(item);
      context?.insert(item);
    }
    this.stateList(state).insert(item);
  }

  /** One page of the query, newest first, after `after` when given. */
  page(query: TaskQuery, after: Key | undefined): IndexPage<T> {
    const minTs = query.statusTimestampAfter || undefined;
    const status = query.status || undefined;
    let list: SortedEntries<T> | undefined;
    // The state the walk still has to check: only with both contextId and status.
    let state: TaskState | undefined;
    if (query.contextId) {
      const found = this.contexts.get(query.contextId);
      list =
        found === undefined || found instanceof SortedEntries ? found : SortedEntries.of([found]);
      state = status;
    } else {
      list = status ? this.byState.get(status) : this.all;
    }
    if (list === undefined) return { items: [], more: false, total: 0 };
    let total = 0;
    if (state === undefined) {
      total = list.countFrom(minTs);
    } else {
      list.walk(undefined, minTs, (item) => {
        if (item.state === state) total++;
        return true;
      });
    }
    const items: T[] = [];
    let more = false;
    list.walk(after, minTs, (item) => {
      if (state !== undefined && item.state !== state) return true;
      if (items.length === query.pageSize) {
        more = true;
        return false;
      }
      items.push(item);
      return true;
    });
    return { items, more, total };
  }

  private stateList(state: TaskState): SortedEntries<T> {
    let list = this.byState.get(state);
    if (list === undefined) this.byState.set(state, (list = new SortedEntries()));
    return list;
  }
}
