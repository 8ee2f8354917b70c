/**
 * A bound on the UTF-8 size of a value's JSON text, found without writing the text: the request
 * limits (security/limits/message-limits.ts, spec §13.4) only need to know that a message is
 * well within its byte limit, and serializing every message to measure it cost a second copy of
 * it per send.
 */

/** Deepest nesting walked; deeper values are left to the exact measure. */
const MAX_WALK_DEPTH = 64;

/**
 * True when the UTF-8 size of `JSON.stringify(value)` is certainly at most `max` bytes. False
 * means "not known" (larger, or a value this bound does not read: a `toJSON`, a class instance,
 * a bigint, nesting past 64 levels): measure it exactly then.
 *
 * Each UTF-16 unit of a string is at most 6 bytes of JSON (`\u001f`, a lone surrogate
 * `\udc00`; UTF-8 needs at most 3 per unit), a number at most 25 characters
 * (`-0.0000016117580766915445`), `false` and `null` 5, and each member or element adds its
 * punctuation; members JSON leaves out are counted anyway.
 */
export function jsonSizeAtMost(value: unknown, max: number): boolean {
  const size = bound(value, max, 0);
  return size >= 0 && size <= max;
}

/** An upper bound of the JSON size of `v`, or -1 when past `max` or not known. */
function bound(v: unknown, max: number, depth: number): number {
  switch (typeof v) {
    case 'string':
      return v.length * 6 + 2;
    case 'number':
      return 25;
    case 'boolean':
    case 'undefined':
    case 'function':
    case 'symbol':
      return 5;
    case 'bigint':
      return -1; // JSON.stringify throws: the exact measure says so
    case 'object':
      return v === null ? 4 : container(v, max, depth + 1);
  }
}

function container(v: object, max: number, depth: number): number {
  if (depth > MAX_WALK_DEPTH || (v as { toJSON?: unknown }).toJSON !== undefined) return -1;
  let size = 2;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item = bound(v[i] as unknown, max, depth);
      if (item < 0) return -1;
      size += item + 1;
      if (size > max) return -1;
    }
    return size;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return -1;
  const record = v as Record<string, unknown>;
  for (const key in record) {
    // Own members only, as JSON.stringify writes them.
    if (!Object.hasOwn(record, key)) continue;
    const member = bound(record[key], max, depth);
    if (member < 0) return -1;
    size += key.length * 6 + 4 + member; // "key": and the comma
    if (size > max) return -1;
  }
  return size;
}
