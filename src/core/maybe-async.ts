/**
 * The `T | Promise<T>` seam of the hot paths: code written once that runs synchronously when
 * what it waits for is already there (the memory store answers at once) and asynchronously
 * otherwise, without a second implementation for either case.
 *
 * - {@link MaybePromise} is what such code returns; a function returning one may also throw
 *   synchronously (its callers `await` it in a `try`, or go through {@link after}).
 * - {@link run} drives a generator written like an async function, `yield` in place of `await`
 *   (`const record = yield* wait(store.get(…))`): a yielded promise is waited for, any other
 *   value is handed back at once, so the whole body runs in one go when nothing it waits for is
 *   pending, with no promise and no microtask turn. The hot paths write the same wait without
 *   the wrapper's generator object: `const x = (yield value) as Awaited<typeof value>` (a value
 *   is handed back by {@link run} as it is, a promise's settlement is what `yield` returns), or
 *   a plain `yield x;` where the value is not needed.
 * - {@link runPromise} and {@link rejected} turn a synchronous outcome into a promise where a
 *   caller needs one, as an async function would have made it.
 */

/** A value, or the promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** A body run by {@link run}: what it yields is waited for when it is a promise. */
export type Flow<T> = Generator<unknown, T, unknown>;

/** True when `value` must be waited for. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * `value` waited for inside a {@link run} body, typed: `const x = yield* wait(maybePromise)`.
 * A rejection is thrown at the `yield`, where a `try` around it catches it.
 */
export function* wait<T>(value: MaybePromise<T>): Generator<unknown, T, unknown> {
  return (isPromise(value) ? yield value : value) as T;
}

/**
 * Runs a {@link Flow} to its end: synchronously as long as it yields no promise (its result is
 * then returned as it is, and what it throws is thrown), then on each promise's settlement (the
 * result is then a promise, rejected with what the body threw).
 */
export function run<T>(flow: Flow<T>): MaybePromise<T> {
  return resume(flow, flow.next(), undefined);
}

/**
 * What a flow resumes with once a promise it yielded settles: made at its first promise and
 * reused for every one after it (a flow that waits many times, such as the runner's drive over
 * the agent's steps, makes two callbacks in all instead of two per wait).
 */
class Continuation<T> {
  readonly fulfilled: (value: unknown) => MaybePromise<T>;
  readonly rejected: (error: unknown) => MaybePromise<T>;

  constructor(flow: Flow<T>) {
    this.fulfilled = (value) => resume(flow, flow.next(value), this);
    this.rejected = (error) => resume(flow, flow.throw(error), this);
  }
}

function resume<T>(
  flow: Flow<T>,
  step: IteratorResult<unknown, T>,
  continuation: Continuation<T> | undefined,
): MaybePromise<T> {
  for (;;) {
    if (step.done) return step.value;
    const value = step.value;
    if (!(value instanceof Promise)) {
      step = flow.next(value);
      continue;
    }
    const k = continuation ?? new Continuation(flow);
    return (value as Promise<unknown>).then(k.fulfilled, k.rejected);
  }
}

/**
 * `f` applied to `value` once it is there: at once when it is, else on the promise. (Not named
 * `then`: a module exporting `then` is a thenable, and `import()` of it would call it.)
 */
export function after<T, U>(
  value: MaybePromise<T>,
  f: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return isPromise(value) ? value.then(f) : f(value);
}

/**
 * {@link run} for a caller that needs a promise (a public async API): a synchronous result is
 * resolved, a synchronous throw rejected, as an async function would have made them.
 */
export function runPromise<T>(flow: Flow<T>): Promise<T> {
  try {
    const value = run(flow);
    return isPromise(value) ? value : Promise.resolve(value);
  } catch (error) {
    return rejected(error);
  }
}

/** A promise rejected with `error` as it is (any value a function threw). */
export function rejected(error: unknown): Promise<never> {
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rethrows what was thrown, as an async function would
  return Promise.reject(error);
}
