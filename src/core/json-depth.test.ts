import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceedsDepth } from './json-depth.js';

/** The depth of a value as the rule counts it: 1 for an object or array, 0 for a scalar. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('exceedsDepth', () => {
  it('is true exactly when the value nests deeper than the bound', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
        expect(exceedsDepth(value, max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses the 65th level by default and accepts the 64th', () => {
    expect(exceedsDepth(nested(64))).toBe(false);
    expect(exceedsDepth(nested(65))).toBe(true);
    expect(exceedsDepth({ ok: 1, deep: [nested(64)] })).toBe(true);
  });

  it('stops at the bound on a cycle, and counts only own members', () => {
    const loop: Record<string, unknown> = {};
    loop['self'] = loop;
    expect(exceedsDepth(loop)).toBe(true);
    const inherits = Object.create({ deep: nested(100) }) as object;
    expect(exceedsDepth(inherits)).toBe(false);
  });
});
