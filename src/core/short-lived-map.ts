/**
 * A Map for entries that come and go quickly in a map that lives long (the executions running
 * in a process, the tasks of a store still running, the sends in flight), whose values must not
 * outlive their entry in the garbage collector's eyes.
 *
 * Why: V8 (Node 20) rehashes a Map into a new hash table as entries come and go, and leaves the
 * entries that were there in the old, now unused table. A long-lived Map's table is in the old
 * generation, and so is every table it is rehashed into; a young-generation collection (a
 * scavenge) treats what an old object points to as alive, dead or not, until the next full
 * collection. So a value deleted from such a Map stays reachable through a stale table until
 * then, with everything it holds: the execution of a finished echo task (its generators,
 * promises, messages and task) was copied by one or two scavenges and then moved to the old
 * generation, where only a full collection reclaimed it — about 5 KB per blocking send, which
 * lengthened every scavenge and made the full collections frequent (docs/benchmarks.md, "Where the
 * p99 tail came from").
 *
 * Here each value sits in a small cell that `delete` empties: a stale table keeps only the key
 * and the empty cell. It answers like a Map (same order, same methods of a ReadonlyMap).
 */

/** The holder of one value; emptied when the entry is deleted. */
interface Cell<V> {
  value: V | undefined;
}

/** A Map whose deleted values are not kept alive by stale hash tables (see the header). */
export class ShortLivedMap<K, V> implements ReadonlyMap<K, V> {
  private readonly cells = new Map<K, Cell<V>>();

  get size(): number {
    return this.cells.size;
  }

  get(key: K): V | undefined {
    return this.cells.get(key)?.value;
  }

  has(key: K): boolean {
    return this.cells.has(key);
  }

  /** Sets the value; a key already present keeps its place in the order, as with a Map. */
  set(key: K, value: V): this {
    const cell = this.cells.get(key);
    if (cell === undefined) this.cells.set(key, { value });
    else cell.value = value;
    return this;
  }

  delete(key: K): boolean {
    const cell = this.cells.get(key);
    if (cell === undefined) return false;
    cell.value = undefined;
    return this.cells.delete(key);
  }

  clear(): void {
    for (const cell of this.cells.values()) cell.value = undefined;
    this.cells.clear();
  }

  forEach(visit: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this) visit.call(thisArg, value, key, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, cell] of this.cells) yield [key, cell.value as V];
  }

  keys(): MapIterator<K> {
    return this.cells.keys();
  }

  *values(): MapIterator<V> {
    for (const cell of this.cells.values()) yield cell.value as V;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
