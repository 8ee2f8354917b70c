/**
 * Helpers of the hot paths that return a promise without being async functions (an async
 * function costs a promise and a microtask turn of its own): a synchronous failure becomes a
 * rejected promise, as an async function would have made it.
 */

/** A promise rejected with `error` as it is (any value a function threw). */
export function rejected(error: unknown): Promise<never> {
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rethrows what was thrown, as an async function would
  return Promise.reject(error);
}
