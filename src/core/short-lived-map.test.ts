/**
 * ShortLivedMap answers exactly like a Map (fast-check: random operations on both, every answer
 * and the order compared), and a deleted value is no longer held by the entry's cell.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShortLivedMap } from './short-lived-map.js';

type Op =
  | { op: 'set'; key: number; value: string }
  | { op: 'delete'; key: number }
  | { op: 'get'; key: number }
  | { op: 'has'; key: number }
  | { op: 'clear' };

const key = fc.integer({ min: 0, max: 7 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), key, value: fc.string({ maxLength: 3 }) }),
  fc.record({ op: fc.constant('delete' as const), key }),
  fc.record({ op: fc.constant('get' as const), key }),
  fc.record({ op: fc.constant('has' as const), key }),
  fc.record({ op: fc.constant('clear' as const) }),
);

function apply(map: Map<number, string> | ShortLivedMap<number, string>, o: Op): unknown {
  switch (o.op) {
    case 'set':
      return map.set(o.key, o.value) === map;
    case 'delete':
      return map.delete(o.key);
    case 'get':
      return map.get(o.key);
    case 'has':
      return map.has(o.key);
    case 'clear':
      return map.clear();
  }
}

describe('ShortLivedMap', () => {
  it('answers every operation as a Map does, in the same order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const model = new Map<number, string>();
        const map = new ShortLivedMap<number, string>();
        for (const o of ops) {
          expect(apply(map, o)).toStrictEqual(apply(model, o));
          expect(map.size).toBe(model.size);
          expect([...map]).toStrictEqual([...model]);
        }
        expect([...map.keys()]).toStrictEqual([...model.keys()]);
        expect([...map.values()]).toStrictEqual([...model.values()]);
        expect([...map.entries()]).toStrictEqual([...model.entries()]);
        const visited: [number, string][] = [];
        map.forEach((value, k, self) => {
          expect(self).toBe(map);
          visited.push([k, value]);
        });
        expect(visited).toStrictEqual([...model]);
      }),
    );
  });

  it('lets go of a deleted value even where a stale copy of the entry is kept', () => {
    const map = new ShortLivedMap<string, object>();
    const value = { big: 'x' };
    map.set('a', value);
    // The cell as a stale hash table would keep it (reached through the private map).
    const cells = (map as unknown as { cells: Map<string, { value: unknown }> }).cells;
    const cell = cells.get('a');
    expect(cell?.value).toBe(value);
    map.delete('a');
    expect(cell?.value).toBeUndefined();
    map.set('b', value);
    const other = cells.get('b');
    map.clear();
    expect(other?.value).toBeUndefined();
  });
});
