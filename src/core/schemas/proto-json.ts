/**
 * ProtoJSON building blocks (spec §5.5-5.7): camelCase out, snake_case accepted in, integer enums
 * accepted in, unknown fields ignored, int32 as number or decimal string.
 */
import { z } from 'zod';

const SNAKE = /_([a-z0-9])/g;

/** lowerCamelCase form of a proto field name (`context_id` → `contextId`). */
export function camelCase(name: string): string {
  return name.includes('_') ? name.replace(SNAKE, (_m, c: string) => c.toUpperCase()) : name;
}

/**
 * A proto message as a zod object. Input keys in snake_case are renamed to the camelCase names
 * of the shape (only this object's own keys: Struct contents stay untouched), unknown keys are
 * dropped (spec §5.7: unknown fields SHOULD be ignored).
 */
export function message<S extends z.ZodRawShape>(shape: S) {
  const known = new Set(Object.keys(shape));
  return z.preprocess((input) => renameSnakeKeys(input, known), z.object(shape));
}

function renameSnakeKeys(input: unknown, known: Set<string>): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  let out: Record<string, unknown> | undefined;
  for (const key in input) {
    if (!key.includes('_')) continue;
    const camel = camelCase(key);
    if (!known.has(camel)) continue;
    out ??= { ...(input as Record<string, unknown>) };
    if (!(camel in out)) out[camel] = out[key];
    delete out[key];
  }
  return out ?? input;
}

/**
 * A proto enum given as `[UNSPECIFIED, ...values]` in number order: accepts the string names or
 * (ProtoJSON readers) the integers; the UNSPECIFIED default reads as "not set".
 */
export function protoEnum<const T extends readonly [string, ...string[]]>(
  unspecified: string,
  values: T,
) {
  const byNumber = new Map<number, string>(values.map((n, i) => [i + 1, n]));
  return z.preprocess((v) => {
    if (v === 0 || v === unspecified) return undefined;
    return typeof v === 'number' && byNumber.has(v) ? byNumber.get(v) : v;
  }, z.enum(values));
}

/** int32: a JSON number or (ProtoJSON) a decimal string. */
export const int32 = z.preprocess(
  (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
  z.number().int().min(-2147483648).max(2147483647),
);

/**
 * int64 as a JavaScript number: a JSON number or (ProtoJSON) a decimal string in, a number out
 * (every ProtoJSON reader accepts one); values past 2^53 are refused, not rounded.
 */
export const int64 = z.preprocess(
  (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
  z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
);

/** google.protobuf.Struct: a JSON object, contents untouched. */
export const struct = z.record(z.string(), z.unknown());

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** True for an RFC 3339 timestamp that names a real instant. */
export function isRfc3339(s: string): boolean {
  return RFC3339.test(s) && !Number.isNaN(Date.parse(s));
}

/** True for a timestamp already in the form {@link timestamp} emits (UTC `Z`, milliseconds). */
export function isNormalTimestamp(s: string): boolean {
  return s.endsWith('Z') && s.length === 24;
}

/**
 * google.protobuf.Timestamp: RFC 3339 in, normalized to UTC `Z` with millisecond precision out
 * (spec §5.6.1: offsets other than Z MUST NOT be emitted).
 */
export const timestamp = z
  .string()
  .refine(isRfc3339, {
    message: 'must be an RFC 3339 timestamp such as 2025-10-28T10:30:00.000Z',
  })
  .transform((s) => (isNormalTimestamp(s) ? s : new Date(s).toISOString()));

/** A string field that must be non-empty (REQUIRED string fields). */
export const requiredString = z.string().min(1, 'is required');

/**
 * Longest identifier accepted, in characters (UTF-16 code units): task, context, message,
 * artifact and push config ids, and tenants. The spec sets no length (ids are opaque, §3.4); ours
 * are 36-character UUIDs, and 1024 leaves room for any real scheme while keeping ids out of the
 * size class that hurts, in store keys and in every error or header that names them.
 */
export const MAX_ID_LENGTH = 1024;

/** Longest page token accepted (ours hold a timestamp and an id, base64url). */
export const MAX_PAGE_TOKEN_LENGTH = 4096;

/** An optional identifier (see {@link MAX_ID_LENGTH}). */
export const id = z.string().max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`);

/** A REQUIRED identifier: non-empty, at most {@link MAX_ID_LENGTH} characters. */
export const requiredId = id.min(1, 'is required');

/** An opaque page token (see {@link MAX_PAGE_TOKEN_LENGTH}). */
export const pageToken = z
  .string()
  .max(MAX_PAGE_TOKEN_LENGTH, `must be at most ${MAX_PAGE_TOKEN_LENGTH} characters`);

/**
 * A proto oneof on a message schema: exactly one of `members` is set. Checked by
 * {@link exactlyOne}, and stated in the schema's metadata as JSON Schema's `oneOf`, so the
 * JSON Schema of `a2a-kit/schema` (zod's output) carries the rule too. Use as
 * `message({...}).apply(oneof(members, name))`.
 */
export function oneof(members: readonly string[], name: string) {
  return <S extends z.ZodType<Record<string, unknown>>>(schema: S): S =>
    schema
      .superRefine(exactlyOne(members, name))
      .meta({ oneOf: members.map((m) => ({ required: [m] })) });
}

/** Adds an "exactly one of" rule for a proto oneof to an object schema's refinement. */
export function exactlyOne(members: readonly string[], oneofName: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    let present = 0;
    for (const m of members) if (value[m] !== undefined) present++;
    if (present !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present === 0
            ? `one of ${members.join(', ')} is required (oneof ${oneofName})`
            : `only one of ${members.join(', ')} may be set (oneof ${oneofName})`,
        path: [],
      });
    }
  };
}
