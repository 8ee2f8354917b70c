/** A small least-recently-used map for the SQLite store's cache of task projections. */

/** Map with a capacity: a read or write makes an entry the newest; the oldest go first. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = Math.max(0, capacity);
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** Stores a value as the most recently used, evicting the least recently used beyond capacity. */
  set(key: K, value: V): void {
    this.map.delete(key);
    if (this.capacity === 0) return;
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  /** Forgets a key. */
  delete(key: K): void {
    this.map.delete(key);
  }

  /** Number of entries held. */
  get size(): number {
    return this.map.size;
  }
}
