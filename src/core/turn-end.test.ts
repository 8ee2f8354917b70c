import { afterEach, describe, expect, it, vi } from 'vitest';
import { TurnStage, atTurnEnd } from './turn-end.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('atTurnEnd: the end of a turn in stages', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs the stages in order, whatever order they were asked for in', async () => {
    const order: string[] = [];
    atTurnEnd(TurnStage.replies, () => order.push('replies'));
    atTurnEnd(TurnStage.writes, () => order.push('writes'));
    atTurnEnd(TurnStage.reads, () => order.push('reads'));
    atTurnEnd(TurnStage.reads, () => order.push('more reads'));
    await Promise.resolve();
    expect(order).toEqual([]); // not on a microtask
    await nextTurn();
    expect(order).toEqual(['reads', 'more reads', 'writes', 'replies']);
  });

  it('runs the work that a stage answers lead to in the same turn', async () => {
    const order: string[] = [];
    const answered = new Promise<void>((resolve) => {
      atTurnEnd(TurnStage.reads, () => {
        order.push('reads');
        resolve();
      });
    });
    // Queued after the stages were reserved: it runs once they are done.
    setImmediate(() => order.push('later immediate'));
    // What the answer leads to, through a chain of promise callbacks.
    void answered
      .then(() => Promise.resolve())
      .then(() => {
        const written = new Promise<void>((resolve) => {
          atTurnEnd(TurnStage.writes, () => {
            order.push('writes');
            resolve();
          });
        });
        return written.then(() => atTurnEnd(TurnStage.replies, () => order.push('replies')));
      });
    await nextTurn();
    await nextTurn();
    expect(order).toEqual(['reads', 'writes', 'replies', 'later immediate']);
  });

  it('runs work asked for once the stages of the turn are spent at the end of the next turn', async () => {
    const order: string[] = [];
    // Each stage asks for the next; the third asks for a fourth run, which this turn has no
    // reserved immediate left for.
    atTurnEnd(TurnStage.reads, () => {
      order.push('reads');
      atTurnEnd(TurnStage.writes, () => {
        order.push('writes');
        atTurnEnd(TurnStage.replies, () => {
          order.push('replies');
          atTurnEnd(TurnStage.reads, () => order.push('reads, next turn'));
        });
      });
    });
    setImmediate(() => order.push('immediate of this turn'));
    await nextTurn();
    await nextTurn();
    expect(order).toEqual([
      'reads',
      'writes',
      'replies',
      'immediate of this turn',
      'reads, next turn',
    ]);
  });

  it('leaves no work behind when a turn needs more stage runs than it reserved', async () => {
    const order: string[] = [];
    atTurnEnd(TurnStage.writes, () => {
      order.push('writes');
      atTurnEnd(TurnStage.reads, () => {
        order.push('reads');
        atTurnEnd(TurnStage.writes, () => order.push('more writes'));
        atTurnEnd(TurnStage.replies, () => order.push('replies'));
      });
    });
    await nextTurn();
    await nextTurn();
    expect(order).toEqual(['writes', 'reads', 'more writes', 'replies']);
  });

  it('still runs the rest of a stage when one flush throws, and reports the error as uncaught', async () => {
    const reported: (() => void)[] = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((callback) => {
      reported.push(callback);
    });
    const order: string[] = [];
    const failure = new Error('flush failed');
    atTurnEnd(TurnStage.writes, () => {
      throw failure;
    });
    atTurnEnd(TurnStage.writes, () => order.push('other write'));
    atTurnEnd(TurnStage.replies, () => order.push('replies'));
    await nextTurn();
    expect(order).toEqual(['other write', 'replies']);
    expect(reported).toHaveLength(1);
    expect(() => reported[0]?.()).toThrow(failure);
  });
});
