import { describe, expect, it } from 'vitest';
import { FinishedQueue } from './finished-queue.js';

describe('FinishedQueue', () => {
  it('hands out the oldest live entry and its time, skipping and compacting dead ones', () => {
    const live = new Set<number>();
    const queue = new FinishedQueue<number>((n) => live.has(n));
    for (let n = 0; n < 5_000; n++) {
      queue.push(n, 1_000 + n);
      live.add(n);
    }
    expect(queue.fromBack(0)).toBe(4_999);
    expect(queue.fromBack(4_999)).toBe(0);
    expect(queue.fromBack(5_000)).toBeUndefined();
    // Deleted out of order (every fifth, then more), then taken from the front (retention).
    for (let n = 0; n < 5_000; n += 5) live.delete(n);
    queue.compact(live.size); // 1,000 dead: kept
    expect(queue.length).toBe(5_000);
    for (let n = 1; n < 5_000; n += 5) live.delete(n);
    queue.compact(live.size); // 2,000 dead, 3,000 live: compacted
    expect(queue.length).toBe(3_000);
    const order = [...live].sort((a, b) => a - b);
    const taken: number[] = [];
    for (let n = queue.oldest(); n !== undefined && taken.length < 1_600; n = queue.oldest()) {
      expect(queue.oldestTime()).toBe(1_000 + n);
      taken.push(n);
      live.delete(n);
    }
    expect(taken).toEqual(order.slice(0, 1_600));
    // The front is reclaimed as it goes; the rest is still in order.
    expect(queue.length).toBe(live.size);
    expect(queue.oldest()).toBe(order[1_600]);
    live.clear();
    expect(queue.oldest()).toBeUndefined();
    expect(queue.oldestTime()).toBe(Infinity);
  });
});
