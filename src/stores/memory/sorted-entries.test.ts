import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedEntries, type Keyed } from './sorted-entries.js';

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ascending = (a: Keyed, b: Keyed) =>
  a.ts !== b.ts ? (a.ts < b.ts ? -1 : 1) : a.id === b.id ? 0 : a.id < b.id ? -1 : 1;

describe('SortedEntries', () => {
  it('stays sorted under inserts and removes at either end and in the middle', () => {
    const next = random(7);
    const list = new SortedEntries<Keyed>();
    const model: Keyed[] = [];
    let clock = 0;
    for (let step = 0; step < 6_000; step++) {
      const r = next();
      if (r < 0.55 || model.length === 0) {
        // Mostly newest, sometimes out of order, with many equal timestamps.
        clock += next() < 0.5 ? 0 : 1;
        const ts =
          next() < 0.8
            ? String(clock).padStart(6, '0')
            : String(Math.floor(next() * clock)).padStart(6, '0');
        const item = { ts, id: `t${step}` };
        list.insert(item);
        model.push(item);
      } else {
        // Oldest first (retention) or anywhere (delete, status change).
        const at = r < 0.75 ? 0 : Math.floor(next() * model.length);
        model.sort(ascending);
        const [item] = model.splice(at, 1);
        expect(list.remove(item as Keyed)).toBe(true);
      }
      if (step % 500 === 0) expect(list.toArray()).toEqual([...model].sort(ascending));
    }
    model.sort(ascending);
    expect(list.toArray()).toEqual(model);
    expect(list.size).toBe(model.length);
    expect(list.remove({ ts: '999999', id: 'missing' })).toBe(false);
  });

  it('walks newest first from a cursor down to a timestamp, and counts from a timestamp', () => {
    const next = random(11);
    const items: Keyed[] = Array.from({ length: 2_000 }, (_, i) => ({
      ts: String(Math.floor(next() * 300)).padStart(4, '0'),
      id: `id${String(i).padStart(5, '0')}`,
    }));
    const list = new SortedEntries<Keyed>();
    for (const item of items) list.insert(item);
    const newestFirst = [...items].sort(ascending).reverse();
    for (let k = 0; k < 200; k++) {
      const cursor = next() < 0.2 ? undefined : (newestFirst[Math.floor(next() * 2_000)] as Keyed);
      const minTs = next() < 0.3 ? undefined : String(Math.floor(next() * 300)).padStart(4, '0');
      const limit = 1 + Math.floor(next() * 80);
      const seen: Keyed[] = [];
      list.walk(cursor && { timestamp: cursor.ts, id: cursor.id }, minTs, (item) => {
        seen.push(item);
        return seen.length < limit;
      });
      const expected = newestFirst
        .filter((e) => !cursor || ascending(e, cursor) < 0)
        .filter((e) => minTs === undefined || e.ts >= minTs)
        .slice(0, limit);
      expect(seen).toEqual(expected);
      expect(list.countFrom(minTs)).toBe(
        items.filter((e) => minTs === undefined || e.ts >= minTs).length,
      );
    }
  });

  it('walks from a cursor that is not in the list', () => {
    const list = SortedEntries.of([
      { ts: 'a', id: '1' },
      { ts: 'b', id: '1' },
      { ts: 'c', id: '1' },
    ]);
    const ids: string[] = [];
    list.walk({ timestamp: 'b', id: '0' }, undefined, (item) => ids.push(item.ts) > 0);
    expect(ids).toEqual(['a']);
    const all: string[] = [];
    list.walk({ timestamp: 'z', id: '' }, undefined, (item) => all.push(item.ts) > 0);
    expect(all).toEqual(['c', 'b', 'a']);
  });
});

describe('SortedEntries against a sorted array (fast-check)', () => {
  // Few distinct timestamps and small chunks of work: the oldest-first removals move the first
  // chunk's offset, the inserts before the oldest reuse its slots, and the walks and counts run
  // over what is left after many removals.
  const op = fc.oneof(
    fc.record({ kind: fc.constant('newest' as const), ts: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ kind: fc.constant('any' as const), ts: fc.integer({ min: 0, max: 999 }) }),
    fc.record({ kind: fc.constant('oldest' as const), n: fc.integer({ min: 1, max: 600 }) }),
    fc.record({
      kind: fc.constant('at' as const),
      where: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    fc.record({ kind: fc.constant('bulk' as const), n: fc.integer({ min: 1, max: 1500 }) }),
  );

  it('holds, walks and counts the same entries after inserts and removals', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.integer({ min: 0, max: 999 }),
        (ops, probe) => {
          const list = new SortedEntries<Keyed>();
          const model: Keyed[] = [];
          let clock = 0;
          let serial = 0;
          const ts = (n: number) => String(n).padStart(4, '0');
          const add = (item: Keyed) => {
            list.insert(item);
            model.push(item);
            model.sort(ascending);
          };
          for (const o of ops) {
            if (o.kind === 'newest') add({ ts: ts((clock += o.ts)), id: `n${serial++}` });
            else if (o.kind === 'any') add({ ts: ts(o.ts % (clock + 1)), id: `a${serial++}` });
            else if (o.kind === 'bulk') {
              for (let k = 0; k < o.n; k++)
                add({ ts: ts((clock += k % 3 === 0 ? 1 : 0)), id: `b${serial++}` });
            } else if (o.kind === 'oldest') {
              for (let k = 0; k < o.n && model.length > 0; k++)
                expect(list.remove(model.shift() as Keyed)).toBe(true);
            } else if (model.length > 0) {
              const [item] = model.splice(Math.floor(o.where * (model.length - 1)), 1);
              expect(list.remove(item as Keyed)).toBe(true);
            }
            expect(list.size).toBe(model.length);
          }
          expect(list.toArray()).toEqual(model);
          expect(list.remove({ ts: ts(probe), id: 'missing' })).toBe(false);
          const minTs = ts(probe % (clock + 1));
          expect(list.countFrom(minTs)).toBe(model.filter((e) => e.ts >= minTs).length);
          expect(list.countFrom(undefined)).toBe(model.length);
          const newestFirst = [...model].reverse();
          const cursor = newestFirst[probe % Math.max(1, newestFirst.length)];
          const seen: Keyed[] = [];
          list.walk(cursor && { timestamp: cursor.ts, id: cursor.id }, minTs, (item) => {
            seen.push(item);
            return true;
          });
          expect(seen).toEqual(
            newestFirst.filter((e) => (!cursor || ascending(e, cursor) < 0) && e.ts >= minTs),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
