/** A bound on JSON nesting: deeper input is refused before it can exhaust the stack (spec §13.4). */

/** Deepest nesting of arrays and objects accepted in a request (Struct values included). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` nests arrays/objects deeper than `max` levels. A walk that recurses at most
 * `max` + 1 levels (it stops there), with no list of children or stack of pairs: it runs on every
 * request.
 */
export function exceedsDepth(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return typeof value === 'object' && value !== null && deeper(value, 1, max);
}

function deeper(node: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child === 'object' && child !== null && deeper(child, depth + 1, max)) return true;
    }
    return false;
  }
  const record = node as Record<string, unknown>;
  for (const key in record) {
    // Own members only, as Object.values gives them.
    if (!Object.hasOwn(record, key)) continue;
    const child = record[key];
    if (typeof child === 'object' && child !== null && deeper(child, depth + 1, max)) return true;
  }
  return false;
}
