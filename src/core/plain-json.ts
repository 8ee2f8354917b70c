/**
 * What hand-written JSON writers may assume of a value before writing it themselves instead of
 * handing it to `JSON.stringify` or the RFC 8785 canonicalizer: an ordinary object (for…in yields
 * exactly its own enumerable names, no toJSON), and a string with nothing to escape. Used by the
 * audit chain's canonical writer (security/audit-canonical.ts) and the memory store's packed
 * tasks (stores/memory/packed-task.ts).
 */

/**
 * A string with no character JSON escapes and no surrogate (RFC 8785 checks their pairing;
 * `JSON.stringify` escapes lone ones): its JSON form is itself in quotes. Anchored and negated:
 * a third faster than searching for one.
 */
// eslint-disable-next-line no-control-regex -- matching the C0 controls is the point
export const PLAIN_STRING = /^[^\u0000-\u001f"\\\ud800-\udfff]*$/;

/** An ordinary object: `for…in` then yields exactly its own enumerable names (see `unpolluted`). */
export function isPlain(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.getPrototypeOf(v) === Object.prototype &&
    // An own toJSON that for…in does not show (not enumerable): the general writers call it.
    (v as { toJSON?: unknown }).toJSON === undefined
  );
}

const PROBE: object = {};

/**
 * Object.prototype holds no enumerable member (for…in would yield it for every object) and no
 * toJSON (the general writers would call it for every object).
 */
export function unpolluted(): boolean {
  for (const _ in PROBE) return false;
  return !('toJSON' in PROBE);
}
