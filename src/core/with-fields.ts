/**
 * `{ ...base, ...fields }` as an object V8 can give a shared hidden class.
 *
 * On Node 20 (V8 11.3) an object literal that starts with a spread and then adds a member the
 * spread object does not have (`{ ...base, key: value }`, `{ ...a, ...b }`), like a spread copy
 * given a new member afterwards, gets a hidden class (map) of its own every time once the code is
 * warm. Each costs ~0.8 µs to make; the map and its descriptors are allocated in the old
 * generation and stay there until a full collection; `for…in` over the object builds a key cache
 * of its own (Node's `writeHead` does that over the reply's headers); and every property access
 * site that sees such objects goes megamorphic. `Object.assign` onto `{}` follows the ordinary
 * map transitions: the same shapes share one map, at 60–80 ns. Measured in docs/benchmarks.md
 * ("One hidden class per spread object"); src/server/shared-shapes.test.ts checks that the
 * request path's objects share theirs. A member that `base` already has is replaced in place, as
 * the spread does.
 */
export function withFields<T extends object, U extends object>(
  base: T | undefined,
  fields: U,
): WithFields<T, U> {
  // Object.assign sets members, where the spread defines them: an own `__proto__` member (JSON.parse
  // makes them from a client's JSON) would set the copy's prototype instead of being copied.
  if (
    (base !== undefined && Object.hasOwn(base, '__proto__')) ||
    Object.hasOwn(fields, '__proto__')
  ) {
    return { ...base, ...fields } as WithFields<T, U>;
  }
  return Object.assign({}, base, fields) as unknown as WithFields<T, U>;
}

/** What `{ ...base, ...fields }` is typed as, for each member of a union `base` type. */
export type WithFields<T, U> = T extends unknown ? Omit<T, keyof U> & U : never;
