import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSizeAtMost } from './json-size.js';

/** UTF-8 bytes of the JSON text (none for a value JSON does not write, like `undefined`). */
function utf8(value: unknown): number {
  const text: string | undefined = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

/** Any JSON value, with the strings and numbers that JSON writes longest. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string({ unit: 'binary' }), // lone surrogates, C0 controls, astral characters
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined), // left out of objects, null in arrays
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('node'), { maxKeys: 5 }),
  ),
})).node;

describe('jsonSizeAtMost', () => {
  it('is true only when the UTF-8 JSON text is at most the bound', () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 4000 }), (v, max) => {
        if (jsonSizeAtMost(v, max)) expect(utf8(v)).toBeLessThanOrEqual(max);
      }),
      { numRuns: 3000 },
    );
  });

  it('decides a small message well within its limit, and not one past it', () => {
    const message = {
      messageId: 'm-1',
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      metadata: { n: 1, ok: true, none: null },
    };
    expect(jsonSizeAtMost(message, 8 * 1024 * 1024)).toBe(true);
    expect(jsonSizeAtMost(message, 10)).toBe(false);
  });

  it('leaves what it does not read to the exact measure', () => {
    const limit = 1024;
    expect(jsonSizeAtMost({ at: new Date(0) }, limit)).toBe(false); // toJSON
    expect(jsonSizeAtMost({ n: 1n }, limit)).toBe(false); // JSON.stringify throws
    expect(jsonSizeAtMost(new Map(), limit)).toBe(false); // not an ordinary object
    expect(jsonSizeAtMost({ toJSON: () => 'x' }, limit)).toBe(false);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(jsonSizeAtMost(deep, limit)).toBe(false);
  });
});
