/**
 * Property tests of core/ready-iterator.ts: a StepIterator read through `nextReady()` where it
 * can (and `next()` where it cannot) hands out exactly what reading it through `next()` alone
 * does — the same items, the same end or error, in the same order — and `return()` ends it at
 * once, its `finally` run, even while it waits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StepIterator } from './ready-iterator.js';

/** One step of a body: an item, a wait (settled at once or a turn later), or a throw. */
type Step =
  | { kind: 'item'; value: number }
  | { kind: 'wait'; later: boolean; fails: boolean }
  | { kind: 'throw' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.integer().map((value) => ({ kind: 'item' as const, value })) },
  {
    weight: 2,
    arbitrary: fc.record({ later: fc.boolean(), fails: fc.boolean() }).map((w) => ({
      kind: 'wait' as const,
      ...w,
    })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'throw' as const }) },
);

/** A body running `steps`; a failed wait is caught and recorded as an item (-1). */
function* body(steps: readonly Step[], log: string[]): Generator<unknown, void, unknown> {
  try {
    for (const s of steps) {
      if (s.kind === 'item') yield s.value;
      else if (s.kind === 'throw') throw new Error('boom');
      else {
        const settle = s.later ? new Promise((r) => setTimeout(r, 0)) : Promise.resolve();
        const waited = s.fails ? settle.then(() => Promise.reject(new Error('no'))) : settle;
        try {
          yield waited;
        } catch {
          yield -1;
        }
      }
    }
  } finally {
    log.push('finally');
  }
}

/** Everything read, as text: the items, then `end` or the error. */
async function readAll(it: StepIterator<number>, ready: boolean[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; ; i++) {
    try {
      const next =
        (ready[i % Math.max(1, ready.length)] ? it.nextReady() : undefined) ?? (await it.next());
      if (next.done === true) return [...out, 'end'];
      out.push(String(next.value));
    } catch (error) {
      return [...out, `error ${(error as Error).message}`];
    }
  }
}

describe('StepIterator', () => {
  it('reads the same through nextReady() as through next() alone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 20 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        async (steps, ready) => {
          const logA: string[] = [];
          const logB: string[] = [];
          const general = await readAll(new StepIterator<number>(body(steps, logA)), [false]);
          const fast = await readAll(new StepIterator<number>(body(steps, logB)), ready);
          expect(fast).toEqual(general);
          expect(logB).toEqual(logA);
          // …and as an async generator doing the same.
          async function* reference() {
            for (const s of steps) {
              if (s.kind === 'item') yield s.value;
              else if (s.kind === 'throw') throw new Error('boom');
              else {
                const settle = s.later ? new Promise((r) => setTimeout(r, 0)) : Promise.resolve();
                try {
                  await (s.fails ? settle.then(() => Promise.reject(new Error('no'))) : settle);
                } catch {
                  yield -1;
                }
              }
            }
          }
          const expected: string[] = [];
          try {
            for await (const v of reference()) expected.push(String(v));
            expected.push('end');
          } catch (error) {
            expected.push(`error ${(error as Error).message}`);
          }
          expect(general).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('nextReady() hands out what is ready without a turn, and undefined while it waits', () => {
    const log: string[] = [];
    const it = new StepIterator<number>(
      body(
        [
          { kind: 'item', value: 1 },
          { kind: 'wait', later: true, fails: false },
        ],
        log,
      ),
    );
    expect(it.nextReady()).toEqual({ done: false, value: 1 });
    expect(it.nextReady()).toBeUndefined();
    expect(it.nextReady()).toBeUndefined(); // nothing consumed while waiting
  });

  it('return() ends it at once, even while it waits: the finally runs, a pending next() ends', async () => {
    const log: string[] = [];
    const it = new StepIterator<number>(
      (function* () {
        try {
          yield 1;
          yield new Promise(() => undefined); // never settles
          yield 2;
        } finally {
          log.push('finally');
        }
      })(),
    );
    expect(await it.next()).toEqual({ done: false, value: 1 });
    const pending = it.next();
    await it.return();
    expect(log).toEqual(['finally']);
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(it.nextReady()).toEqual({ done: true, value: undefined });
  });
});
