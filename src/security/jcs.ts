/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): object members sorted by the UTF-16 code units of
 * their names, ECMAScript number and string serialization, no whitespace. Runtime-neutral.
 *
 * Input is a JSON value built from plain objects, arrays, strings, finite numbers, booleans and
 * null. Object members whose value is `undefined` are skipped (as `JSON.stringify` does); anything
 * that has no JSON form (NaN, Infinity, bigint, functions, `undefined` in arrays, lone surrogates,
 * cycles) throws a `JcsError` instead of being silently rewritten.
 */

/** Thrown when a value has no RFC 8785 canonical form. */
export class JcsError extends Error {
  override readonly name = 'JcsError';
}

// Far beyond any real document; turns a hostile, deeply nested input into a JcsError rather
// than a stack overflow.
const MAX_DEPTH = 512;

/** RFC 8785 canonical JSON text of `value`. */
export function canonicalize(value: unknown): string {
  // The fast walk keeps no ancestors nor path; anything it refuses (or a cycle, which runs into
  // the depth limit) is walked again by the careful one, whose error names where and why.
  const text = fast(value, 0);
  return text ?? write(value, new Set<object>(), [], 0);
}

/**
 * The canonical text of `value` found `depth` levels down in a larger value: exactly what
 * {@link canonicalize} writes for it there, refusing it where that would (the depth limit counts
 * from the outer value). For writers that do the outer levels themselves (audit-canonical.ts).
 */
export function canonicalizeAt(value: unknown, depth: number): string {
  return fast(value, depth) ?? write(value, new Set<object>(), [], depth);
}

/** The canonical text, or undefined for any value that needs the careful walk's error. */
function fast(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return NEEDS_WORK.test(value) ? serializeStringOrUndefined(value) : `"${value}"`;
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= MAX_DEPTH) return undefined;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = fast(value[i], depth + 1);
          if (item === undefined) return undefined;
          out += i > 0 ? `,${item}` : item;
        }
        return out + ']';
      }
      if ('toJSON' in value) return undefined;
      const record = value as Record<string, unknown>;
      const keys = sortKeys(Object.keys(record));
      let out = '{';
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        const name = NEEDS_WORK.test(key) ? serializeStringOrUndefined(key) : `"${key}"`;
        const text = fast(member, depth + 1);
        if (name === undefined || text === undefined) return undefined;
        out += out.length > 1 ? `,${name}:${text}` : `${name}:${text}`;
      }
      return out + '}';
    }
    case 'undefined':
    case 'bigint':
    case 'function':
    case 'symbol':
      return undefined;
  }
}

function serializeStringOrUndefined(s: string): string | undefined {
  try {
    return serializeString(s, []);
  } catch {
    return undefined;
  }
}

/** RFC 8785 canonical form of `value` as UTF-8 bytes (the form that gets hashed or signed). */
export function canonicalizeToBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalize(value));
}

/**
 * The path of the value being written, as segments (`.name` or `[i]`), joined only for an error
 * message: the common case builds no path strings.
 */
type Path = (string | number)[];

function pathText(path: Path): string {
  return '$' + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
}

function write(value: unknown, ancestors: Set<object>, path: Path, base: number): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value, path);
    case 'number':
      return serializeNumber(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (ancestors.has(value)) throw new JcsError(`${pathText(path)}: cyclic structure`);
      if (base + ancestors.size >= MAX_DEPTH)
        throw new JcsError(`${pathText(path)}: nested deeper than ${MAX_DEPTH}`);
      ancestors.add(value);
      const text = Array.isArray(value)
        ? writeArray(value, ancestors, path, base)
        : writeObject(value, ancestors, path, base);
      ancestors.delete(value);
      return text;
    }
    case 'undefined':
    case 'bigint':
    case 'function':
    case 'symbol':
      throw new JcsError(`${pathText(path)}: ${typeof value} has no JSON form`);
  }
}

function writeArray(items: unknown[], ancestors: Set<object>, path: Path, base: number): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    path.push(i);
    out += write(items[i], ancestors, path, base);
    path.pop();
  }
  return out + ']';
}

function writeObject(obj: object, ancestors: Set<object>, path: Path, base: number): string {
  if ('toJSON' in obj && typeof obj.toJSON === 'function') {
    throw new JcsError(
      `${pathText(path)}: objects with toJSON() are not plain JSON; convert them first`,
    );
  }
  const record = obj as Record<string, unknown>;
  // RFC 8785 §3.2.3: sort by UTF-16 code units, which is exactly what `<` does on JS strings.
  const keys = sortKeys(Object.keys(record));
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += serializeString(key, path) + ':';
    path.push(key);
    out += write(member, ancestors, path, base);
    path.pop();
  }
  return out + '}';
}

/**
 * The keys in UTF-16 order, sorted in place: insertion sort for the few keys of most objects
 * (no allocation, and nothing to do when already sorted), the built-in sort beyond.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort(compareUtf16);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** Orders strings by their UTF-16 code units (RFC 8785 §3.2.3), not by code points or locale. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * ECMAScript Number::toString (RFC 8785 §3.2.2.3): shortest round-trip digits, exponent form
 * below 1e-6 and from 1e21 on, `-0` as `0`. NaN and the infinities have no JSON form.
 */
function serializeNumber(n: number, path: Path): string {
  if (!Number.isFinite(n)) throw new JcsError(`${pathText(path)}: ${String(n)} has no JSON form`);
  // String() implements the ECMAScript algorithm RFC 8785 adopts verbatim; String(-0) is "0".
  return String(n);
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

// Anything that may need an escape or a surrogate check; the common case skips the loop.
// eslint-disable-next-line no-control-regex -- matching the C0 controls is the point
const NEEDS_WORK = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * RFC 8785 §3.2.2.2: only `"`, `\` and the C0 controls are escaped (short forms where JSON has
 * them, else `\u00xx` in lowercase hex); everything else, including non-ASCII, stays literal.
 * Lone surrogates are not I-JSON (RFC 7493 §2.1) and are rejected.
 */
function serializeString(s: string, path: Path): string {
  if (!NEEDS_WORK.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const short = SHORT_ESCAPES[c];
    if (short !== undefined) out += short;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw loneSurrogate(path, c);
      out += s.slice(i, i + 2);
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) throw loneSurrogate(path, c);
    else out += s.charAt(i);
  }
  return out + '"';
}

function loneSurrogate(path: Path, unit: number): JcsError {
  return new JcsError(
    `${pathText(path)}: lone surrogate \\u${unit.toString(16)} is not valid I-JSON`,
  );
}
