/**
 * The `T | Promise<T>` seam (maybe-async.ts): a flow answers synchronously when nothing it waits
 * for is a promise, and otherwise gives what the same body written as an async function would
 * (a property test over random mixes of values, promises, rejections and throws).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  after,
  isPromise,
  run,
  runPromise,
  wait,
  type Flow,
  type MaybePromise,
} from './maybe-async.js';

/** What one step of a body waits for. */
type Input =
  | { kind: 'value'; n: number }
  | { kind: 'resolved'; n: number }
  | { kind: 'rejected'; n: number }
  | { kind: 'thrown'; n: number };

const input: fc.Arbitrary<Input> = fc.record({
  kind: fc.constantFrom('value', 'resolved', 'rejected', 'thrown'),
  n: fc.integer({ min: 0, max: 100 }),
});

function given(step: Input): MaybePromise<number> {
  switch (step.kind) {
    case 'value':
      return step.n;
    case 'resolved':
      return Promise.resolve(step.n);
    case 'rejected':
      return Promise.reject(new Error(`rejected ${step.n}`));
    case 'thrown':
      throw new Error(`thrown ${step.n}`);
  }
}

/** Sums what the steps give; a failure of an odd step is caught and counted as -1. */
function* summing(steps: readonly Input[]): Flow<number> {
  let sum = 0;
  for (const [i, step] of steps.entries()) {
    try {
      sum += yield* wait(given(step));
    } catch (error) {
      if (i % 2 === 0) throw error;
      sum -= 1;
    }
  }
  return sum;
}

/** The same body as an async function: what the flow must agree with. */
async function summingAsync(steps: readonly Input[]): Promise<number> {
  let sum = 0;
  for (const [i, step] of steps.entries()) {
    try {
      sum += await given(step);
    } catch (error) {
      if (i % 2 === 0) throw error;
      sum -= 1;
    }
  }
  return sum;
}

const outcome = (p: Promise<number>) =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: String(error) }),
  );

describe('run (maybe-async flows)', () => {
  it('answers synchronously when nothing it waits for is a promise', () => {
    const result = run(
      summing([
        { kind: 'value', n: 2 },
        { kind: 'value', n: 3 },
      ]),
    );
    expect(isPromise(result)).toBe(false);
    expect(result).toBe(5);
    expect(() => run(summing([{ kind: 'thrown', n: 1 }]))).toThrow('thrown 1');
  });

  it('answers with a promise once it waits for one', async () => {
    const result = run(
      summing([
        { kind: 'value', n: 2 },
        { kind: 'resolved', n: 3 },
      ]),
    );
    expect(isPromise(result)).toBe(true);
    expect(await result).toBe(5);
  });

  it('agrees with the same body as an async function, whatever it waits for', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(input, { maxLength: 12 }), async (steps) => {
        const expected = await outcome(summingAsync(steps));
        expect(await outcome(runPromise(summing(steps)))).toEqual(expected);
        // Synchronous exactly when no step before the end (or the first uncaught failure) was
        // a promise.
        let sync = true;
        try {
          const result = run(summing(steps));
          sync = !isPromise(result);
          if (isPromise(result)) await outcome(result);
        } catch {
          sync = true;
        }
        const firstPromise = steps.findIndex((s) => s.kind === 'resolved' || s.kind === 'rejected');
        const firstFatal = steps.findIndex((s, i) => s.kind === 'thrown' && i % 2 === 0);
        const expectSync = firstPromise === -1 || (firstFatal !== -1 && firstFatal < firstPromise);
        expect(sync).toBe(expectSync);
      }),
    );
  });

  it('after maps a value at once and a promise on its settlement', async () => {
    expect(after(2, (n) => n + 1)).toBe(3);
    const mapped = after(Promise.resolve(2), (n) => n + 1);
    expect(isPromise(mapped)).toBe(true);
    expect(await mapped).toBe(3);
  });
});
