/**
 * Finished tasks in the order they finished, with the time each finished: retention (TTL and the
 * cap) takes them from the front in O(1), where a Map walked from its start re-skips the slots of
 * every task deleted before. Tasks deleted out of order stay until the front reaches them or
 * they reach half the live ones; `isLive` tells them apart.
 */
export class FinishedQueue<T> {
  private items: T[] = [];
  private times: number[] = [];
  private head = 0;

  constructor(private readonly isLive: (item: T) => boolean) {}

  /** Entries held, live or not. */
  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T, time: number): void {
    this.items.push(item);
    this.times.push(time);
  }

  /** The `back`-th newest entry (0: the newest), live or not. */
  fromBack(back: number): T | undefined {
    const i = this.items.length - 1 - back;
    return i >= this.head ? this.items[i] : undefined;
  }

  /** The oldest live entry, dropping dead ones on the way. */
  oldest(): T | undefined {
    while (this.head < this.items.length) {
      const item = this.items[this.head] as T;
      if (this.isLive(item)) return item;
      this.drop();
    }
    return undefined;
  }

  /** When the entry {@link oldest} returned finished. */
  oldestTime(): number {
    return this.times[this.head] ?? Infinity;
  }

  /** Drops dead entries once they reach half the live ones (`live`: the store's count). */
  compact(live: number): void {
    const dead = this.length - live;
    if (dead < 1024 || dead * 2 < live) return;
    const items: T[] = [];
    const times: number[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i] as T;
      if (!this.isLive(item)) continue;
      items.push(item);
      times.push(this.times[i] as number);
    }
    this.items = items;
    this.times = times;
    this.head = 0;
  }

  private drop(): void {
    (this.items as (T | undefined)[])[this.head] = undefined;
    this.head++;
    // Reclaims the front once it is half the array.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}
