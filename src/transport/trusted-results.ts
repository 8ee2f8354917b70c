/**
 * A fast check of the results most calls return (SendMessageResponse, Task, Message,
 * StreamResponse, ListTasksResponse) in the form a 1.0 server writes them: camelCase keys, enum
 * names, timestamps in UTC with milliseconds, no unknown fields. Validating such a reply with the
 * zod schemas was the largest part of the client's own CPU per call (docs/benchmarks.md, "Issue
 * 16 point 6: the reply checked without zod").
 *
 * The check is one-sided: when it passes, the zod schema accepts the value and returns an equal
 * one, so the value itself is the result (the property test in trusted-results.test.ts holds it
 * to that). It never refuses anything: whatever it does not recognise — snake_case keys, integer
 * enums, other timestamp forms, unknown fields, and every malformed reply — goes to the zod schema
 * as before, with the same result and the same errors. A field added to a schema is unknown here
 * until it is added below, so it falls back to zod, never past it; a rule added to a field must
 * be added here too (the test compares the field lists with the schemas).
 */
import type { z } from 'zod';
import { ROLES } from '../core/schemas/message.js';
import { BASE64 } from '../core/schemas/part.js';
import { isNormalTimestamp, isRfc3339, MAX_ID_LENGTH } from '../core/schemas/proto-json.js';
import {
  ListTasksResponse,
  Message,
  SendMessageResponse,
  StreamResponse,
  Task,
  TASK_STATES,
} from '../core/schemas/index.js';

/** True when the zod schema would return the value unchanged. */
type Check = (value: unknown) => boolean;

/** A JSON object (what JSON.parse and the bindings' readers make), not an array or a class. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * A proto message: only the listed keys, each absent, `undefined` (zod keeps it) or passing its
 * check; the `required` ones present; then the message's own rule (a oneof).
 */
function message(
  fields: Record<string, Check>,
  required: readonly string[] = [],
  rule?: (value: Record<string, unknown>) => boolean,
): Check & { readonly keys: readonly string[] } {
  const known = Object.assign(Object.create(null) as Record<string, Check | undefined>, fields);
  const check = (value: unknown) => {
    if (!isRecord(value)) return false;
    for (const key in value) {
      const field = known[key];
      if (field === undefined) return false;
      const member = value[key];
      if (member !== undefined && !field(member)) return false;
    }
    for (const key of required) if (value[key] === undefined) return false;
    return rule === undefined || rule(value);
  };
  return Object.assign(check, { keys: Object.keys(fields) });
}

/** Exactly one of `members` set (proto-json.ts `exactlyOne`). */
function oneof(...members: string[]) {
  return (value: Record<string, unknown>) => {
    let present = 0;
    for (const m of members) if (value[m] !== undefined) present++;
    return present === 1;
  };
}

function arrayOf(item: Check, minLength = 0): Check {
  return (value) => {
    if (!Array.isArray(value) || value.length < minLength) return false;
    for (const v of value) if (!item(v)) return false;
    return true;
  };
}

function oneOfStrings(values: readonly string[]): Check {
  const set: ReadonlySet<unknown> = new Set(values);
  return (value) => set.has(value);
}

const string: Check = (value) => typeof value === 'string';
const boolean: Check = (value) => typeof value === 'boolean';
const anything: Check = () => true;
const id: Check = (value) => typeof value === 'string' && value.length <= MAX_ID_LENGTH;
const requiredId: Check = (value) => id(value) && (value as string).length > 0;
/** Struct: zod copies the keys of the record, leaving out an own `__proto__`. */
const struct: Check = (value) => isRecord(value) && !Object.hasOwn(value, '__proto__');
const timestamp: Check = (value) =>
  typeof value === 'string' && isNormalTimestamp(value) && isRfc3339(value);
const int32: Check = (value) =>
  Number.isSafeInteger(value) &&
  (value as number) >= -2147483648 &&
  (value as number) <= 2147483647;
/** `generation`: a non-negative int64 given as a number. */
const generation: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;

const part = message(
  {
    text: string,
    raw: (value) => typeof value === 'string' && BASE64.test(value),
    url: (value) => typeof value === 'string' && value.length > 0,
    data: anything,
    metadata: struct,
    filename: string,
    mediaType: string,
  },
  [],
  oneof('text', 'raw', 'url', 'data'),
);

const messageCheck = message(
  {
    messageId: requiredId,
    contextId: id,
    taskId: id,
    role: oneOfStrings(ROLES),
    parts: arrayOf(part, 1),
    metadata: struct,
    extensions: arrayOf(string),
    referenceTaskIds: arrayOf(id),
  },
  ['messageId', 'role', 'parts'],
);

const status = message({ state: oneOfStrings(TASK_STATES), message: messageCheck, timestamp }, [
  'state',
]);

const artifact = message(
  {
    artifactId: requiredId,
    name: string,
    description: string,
    parts: arrayOf(part, 1),
    metadata: struct,
    extensions: arrayOf(string),
  },
  ['artifactId', 'parts'],
);

const task = message(
  {
    id: requiredId,
    contextId: id,
    status,
    artifacts: arrayOf(artifact),
    history: arrayOf(messageCheck),
    metadata: struct,
    generation,
  },
  ['id', 'status'],
);

const statusUpdate = message(
  { taskId: requiredId, contextId: requiredId, status, metadata: struct, generation },
  ['taskId', 'contextId', 'status'],
);

const artifactUpdate = message(
  {
    taskId: requiredId,
    contextId: requiredId,
    artifact,
    append: boolean,
    lastChunk: boolean,
    metadata: struct,
    generation,
  },
  ['taskId', 'contextId', 'artifact'],
);

const streamResponse = message(
  { task, message: messageCheck, statusUpdate, artifactUpdate },
  [],
  oneof('task', 'message', 'statusUpdate', 'artifactUpdate'),
);

const sendMessageResponse = message({ task, message: messageCheck }, [], oneof('task', 'message'));

const listTasksResponse = message(
  { tasks: arrayOf(task), nextPageToken: string, pageSize: int32, totalSize: int32 },
  ['tasks', 'nextPageToken', 'pageSize', 'totalSize'],
);

/** The fast check of each schema that has one, with the nested messages (for the tests). */
export const TRUSTED_CHECKS = {
  SendMessageResponse: sendMessageResponse,
  StreamResponse: streamResponse,
  Task: task,
  Message: messageCheck,
  ListTasksResponse: listTasksResponse,
  TaskStatus: status,
  Artifact: artifact,
  Part: part,
  TaskStatusUpdateEvent: statusUpdate,
  TaskArtifactUpdateEvent: artifactUpdate,
} as const;

const BY_SCHEMA: ReadonlyMap<z.ZodType, Check> = new Map<z.ZodType, Check>([
  [SendMessageResponse, sendMessageResponse],
  [StreamResponse, streamResponse],
  [Task, task],
  [Message, messageCheck],
  [ListTasksResponse, listTasksResponse],
]);

/**
 * True when `value` is a result `schema` would return unchanged (so it may be used as is);
 * false when only the schema can tell (it may still be valid).
 */
export function isTrustedResult(schema: z.ZodType, value: unknown): boolean {
  const check = BY_SCHEMA.get(schema);
  return check !== undefined && check(value);
}
