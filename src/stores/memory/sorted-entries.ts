/**
 * A sorted list of tasks in ListTasks order (`newestFirst` of ../paging.ts, stored oldest first),
 * kept as a list of chunks of at most {@link MAX_CHUNK} entries: insert and remove cost
 * O(log n + chunk), a page walk O(log n + page). Status timestamps are made by the server and
 * usually grow, so the common insert is a push at the newest end, and retention takes the oldest
 * entry, which costs O(1) (an offset into the first chunk, no search and no shift).
 */

/** What the list orders by: the status timestamp (`''` when none), then the task id. */
export interface Keyed {
  readonly id: string;
  readonly ts: string;
}

/** A position in ListTasks order (a decoded page token). */
export interface Key {
  readonly timestamp: string;
  readonly id: string;
}

/** Entries per chunk: small enough for a cheap splice, large enough for few chunks. */
const MAX_CHUNK = 512;

/** Ascending (oldest first) comparison of the key (ts, id) with an entry. */
function compare(ts: string, id: string, b: Keyed): number {
  if (ts !== b.ts) return ts < b.ts ? -1 : 1;
  return id === b.id ? 0 : id < b.id ? -1 : 1;
}

/**
 * First index from `lo` in `chunk` whose entry is not below (ts, id); `id` undefined compares ts
 * only.
 */
function lowerBound(
  chunk: readonly Keyed[],
  lo: number,
  ts: string,
  id: string | undefined,
): number {
  let hi = chunk.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = chunk[mid] as Keyed;
    const below = id === undefined ? e.ts < ts : compare(ts, id, e) > 0;
    if (below) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Entries the identity scan of {@link nearEnd} looks at. */
const NEAR = 128;

/**
 * The index of `item` among the last {@link NEAR} entries of `chunk` (from `lo`), or -1: a task
 * whose status changes is usually among the newest, found there without comparing keys.
 */
function nearEnd(chunk: readonly Keyed[], lo: number, item: Keyed): number {
  const stop = Math.max(lo, chunk.length - NEAR);
  for (let i = chunk.length - 1; i >= stop; i--) if (chunk[i] === item) return i;
  return -1;
}

/** Entries ordered by (ts, id); each (ts, id) at most once. */
export class SortedEntries<T extends Keyed> {
  private readonly chunks: T[][] = [];
  /**
   * Slots at the start of the first chunk whose entries were removed (each `undefined`): taking
   * the oldest entry, which retention does for every finished task, moves this offset instead of
   * shifting the chunk. Always 0 when the list is empty.
   */
  private head = 0;
  private count = 0;

  /** A list holding `items`, which must be in ascending order. */
  static of<T extends Keyed>(items: T[]): SortedEntries<T> {
    const list = new SortedEntries<T>();
    if (items.length > 0) list.chunks.push(items);
    list.count = items.length;
    return list;
  }

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  /** The entries, oldest first (for tests and small lists). */
  toArray(): T[] {
    const { chunks } = this;
    return chunks.length === 0
      ? []
      : (chunks[0] as T[]).slice(this.head).concat(...chunks.slice(1));
  }

  /** Adds an entry (its key must not be in the list). */
  insert(item: T): void {
    const { chunks } = this;
    this.count++;
    const last = chunks[chunks.length - 1];
    if (last === undefined) {
      chunks.push([item]);
      return;
    }
    if (compare(item.ts, item.id, last[last.length - 1] as T) > 0) {
      // Newest so far: the usual case. A full last chunk starts a new one, so chunks filled in
      // order stay full.
      if (last.length >= MAX_CHUNK) chunks.push([item]);
      else last.push(item);
      return;
    }
    const at = this.chunkOf(item.ts, item.id);
    const chunk = chunks[at] as T[];
    const from = this.start(at);
    const i = lowerBound(chunk, from, item.ts, item.id);
    if (i === from && from > 0) {
      // Before the oldest: into the slot left by the last one taken.
      chunk[--this.head] = item;
      return;
    }
    chunk.splice(i, 0, item);
    if (chunk.length <= MAX_CHUNK) return;
    if (at === 0) this.compactHead();
    if (chunk.length > MAX_CHUNK) chunks.splice(at + 1, 0, chunk.splice(MAX_CHUNK >>> 1));
  }

  /** Removes an entry, found by its current key; false when it is not in the list. */
  remove(item: T): boolean {
    const { chunks } = this;
    if (chunks.length === 0) return false;
    const first = chunks[0] as T[];
    if (first[this.head] === item) {
      // The oldest (retention): no search, no shift.
      this.count--;
      (first as (T | undefined)[])[this.head++] = undefined;
      if (this.head === first.length) {
        chunks.shift();
        this.head = 0;
      }
      return true;
    }
    let at = chunks.length - 1;
    let chunk = chunks[at] as T[];
    let from = this.start(at);
    let i = nearEnd(chunk, from, item);
    if (i < 0) {
      at = this.chunkOf(item.ts, item.id);
      chunk = chunks[at] as T[];
      from = this.start(at);
      i = lowerBound(chunk, from, item.ts, item.id);
      if (chunk[i] !== item) return false;
    }
    if (i === chunk.length - 1) chunk.pop();
    else if (i === 0) chunk.shift();
    else chunk.splice(i, 1);
    this.count--;
    const left = chunk.length - from;
    if (left === 0) {
      chunks.splice(at, 1);
      if (at === 0) this.head = 0;
    } else if (left < MAX_CHUNK >>> 3 && at > 0) {
      // Keeps the number of chunks proportional to the entries after many removals.
      const before = chunks[at - 1] as T[];
      if (before.length - this.start(at - 1) + left <= MAX_CHUNK) {
        if (at === 1) this.compactHead();
        for (const e of chunk) before.push(e);
        chunks.splice(at, 1);
      }
    }
    return true;
  }

  /** Number of entries whose ts is at least `minTs` (all of them when undefined). */
  countFrom(minTs: string | undefined): number {
    if (minTs === undefined || this.count === 0) return this.count;
    const { chunks } = this;
    const at = this.chunkOf(minTs, undefined);
    let below = -this.head;
    for (let c = 0; c < at; c++) below += (chunks[c] as T[]).length;
    below += lowerBound(chunks[at] as T[], this.start(at), minTs, undefined);
    return this.count - below;
  }

  /**
   * Visits entries newest first, starting after `before` (exclusive) and stopping at the first
   * one whose ts is below `minTs`, or when `visit` returns false.
   */
  walk(before: Key | undefined, minTs: string | undefined, visit: (item: T) => boolean): void {
    const { chunks } = this;
    if (chunks.length === 0) return;
    let c = chunks.length - 1;
    let i = (chunks[c] as T[]).length - 1;
    if (before !== undefined) {
      c = this.chunkOf(before.timestamp, before.id);
      i = lowerBound(chunks[c] as T[], this.start(c), before.timestamp, before.id) - 1;
    }
    for (; c >= 0; c--) {
      const chunk = chunks[c] as T[];
      const from = this.start(c);
      if (i >= chunk.length) i = chunk.length - 1;
      for (; i >= from; i--) {
        const item = chunk[i] as T;
        if (minTs !== undefined && item.ts < minTs) return;
        if (!visit(item)) return;
      }
      i = Infinity;
    }
  }

  /** The first live slot of chunk `c`. */
  private start(c: number): number {
    return c === 0 ? this.head : 0;
  }

  /** Drops the removed slots at the start of the first chunk. */
  private compactHead(): void {
    if (this.head === 0) return;
    (this.chunks[0] as T[]).splice(0, this.head);
    this.head = 0;
  }

  /** The chunk that holds (or would hold) the key: the first whose last entry is not below it. */
  private chunkOf(ts: string, id: string | undefined): number {
    const { chunks } = this;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid] as T[];
      const last = chunk[chunk.length - 1] as T;
      const below = id === undefined ? last.ts < ts : compare(ts, id, last) > 0;
      if (below) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
