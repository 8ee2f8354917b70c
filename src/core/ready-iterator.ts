/**
 * Streams read without a promise per item while their items are already there: an async
 * iterator may also offer `nextReady()`, the result its `next()` would give when that is known
 * now. A server stream of a task whose events are all in the store (a memory store, an agent
 * whose steps were ready) is then encoded and written in one synchronous pass; everything else
 * goes through `next()` as before. {@link StepIterator} runs a stream body written once, as a
 * generator, for both ways of reading it (the `T | Promise<T>` seam of core/maybe-async.ts).
 */

/** An async iterator that may hand out results synchronously. */
export interface ReadyIterator<T> extends AsyncIterator<T> {
  /**
   * The result `next()` would resolve to, when it is known now (it is then consumed); undefined
   * when it is not (nothing is consumed: call `next()`). Throws what `next()` would reject with.
   * Not to be called while a `next()` is pending.
   */
  nextReady?(): IteratorResult<T> | undefined;
}

/** `iterator.nextReady()` when it has one, else undefined (read it with `next()`). */
export function nextReady<T>(iterator: AsyncIterator<T>): IteratorResult<T> | undefined {
  return (iterator as ReadyIterator<T>).nextReady?.();
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** How the promise a body waits on settled, handed back to the body at its `yield`. */
type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * An async iterator over a generator body that yields its items and, where it must wait, a
 * promise (items are never promises): the value the promise settles with (or its rejection) is
 * handed back at that `yield`. `nextReady()` steps the body while it does not wait; `next()`
 * waits where it does. `return()` ends the body at once (its `finally` runs), even while it waits.
 */
export class StepIterator<T> implements AsyncIterableIterator<T>, ReadyIterator<T> {
  /** Settles (never rejects) when the promise the body waits on did; set while it waits. */
  private blocked: Promise<void> | undefined;
  private settled: Settled | undefined;
  /** Settles `blocked` early: `return()` while a `next()` waits. */
  private unblock: (() => void) | undefined;
  private ended = false;

  constructor(private readonly body: Generator<unknown, void, unknown>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  nextReady(): IteratorResult<T> | undefined {
    if (this.ended) return DONE;
    let step: IteratorResult<unknown, void>;
    try {
      if (this.blocked === undefined) step = this.body.next();
      else {
        const settled = this.settled;
        if (settled === undefined) return undefined; // still waiting
        this.blocked = undefined;
        this.settled = undefined;
        this.unblock = undefined;
        step = settled.ok ? this.body.next(settled.value) : this.body.throw(settled.error);
      }
    } catch (error) {
      this.ended = true;
      throw error;
    }
    if (step.done === true) {
      this.ended = true;
      return DONE;
    }
    const value = step.value;
    if (value instanceof Promise) {
      this.blocked = new Promise<void>((resolve) => {
        this.unblock = resolve;
        value.then(
          (settledWith: unknown) => {
            this.settled = { ok: true, value: settledWith };
            resolve();
          },
          (error: unknown) => {
            this.settled = { ok: false, error };
            resolve();
          },
        );
      });
      return undefined;
    }
    return { done: false, value: value as T };
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      const result = this.nextReady();
      if (result !== undefined) return result;
      await this.blocked;
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.close();
    return DONE;
  }

  /** Ends the body now: its `finally` runs; a pending `next()` then finds the end. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    const unblock = this.unblock;
    this.blocked = undefined;
    this.settled = undefined;
    this.unblock = undefined;
    this.body.return(undefined);
    unblock?.();
  }
}
