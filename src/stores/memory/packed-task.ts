/**
 * The compact form of a finished task. A finished task never changes, so its log is kept as ONE
 * JSON string (flat, one byte per character for Latin-1 text) instead of a tree of objects, and
 * its snapshot is rebuilt from it on demand.
 *
 * The text is shortened by what the store keeps anyway: the task id, the context id, the final
 * status timestamp and the user's messageId become one control character (a mark) each, and so
 * does the text around them that every server-made event repeats
 * (`{"statusUpdate":{"taskId":"…","contextId":"…","status":{"state":"TASK_STATE_`). An echo
 * task's log shrinks from about 1,000 characters to 200. JSON.stringify escapes every character
 * below U+0020, so no mark occurs in its output: each replacement is undone exactly by the
 * reverse one, whatever the task holds.
 *
 * The packed text is written directly from the objects (`write` below), not found afterwards in
 * `JSON.stringify`'s output: the writer emits the JSON text as a list of pieces, exactly as
 * `JSON.stringify` would, and replaces a run of pieces by a mark only where the run's text is the
 * mark's template, so unpacking (templates and values back in place of the marks) gives
 * `JSON.stringify(events)` byte for byte (packed-task.test.ts checks it with fast-check). Anything
 * the writer does not know to be plain JSON (a toJSON, another prototype, a bigint, deep nesting)
 * is kept as `JSON.stringify`'s text without marks. Packing an echo task this way allocates about
 * a tenth of what searching the stringified log with regular expressions did.
 *
 * Long logs also keep their snapshot text, so reading the task stays O(size of the task) instead
 * of O(number of events).
 */
import { PLAIN_STRING, isPlain, unpolluted } from '../../core/plain-json.js';
import { TASK_STATES, type StreamResponse, type Task } from '../../core/schemas/index.js';
import { TaskProjection } from '../../core/task-state.js';

/** The values a packed text refers to, kept by the store entry. */
export interface PackKeys {
  readonly id: string;
  readonly contextId: string | undefined;
  /** The final status timestamp (`''` when none). */
  readonly ts: string;
  /** The first user messageId indexed for the task, if any. */
  readonly messageId: string | undefined;
}

/** A packed log, plus the packed snapshot when the log is long. */
export type PackedTask = string | { readonly log: string; readonly task: string };

/** Logs longer than this also keep their snapshot. */
const SNAPSHOT_FROM_EVENTS = 16;

/** Marks of the values, in the order they are replaced. */
const ID = '\u0001';
const CONTEXT_ID = '\u0002';
const TIMESTAMP = '\u0003';
const MESSAGE_ID = '\u0004';

/**
 * The texts of the composite marks: U+0005 + i unpacks to the i-th. Each is text that
 * server-made events repeat, with the marks of the values in it.
 */
const TEMPLATES = [
  `{"statusUpdate":{"taskId":"${ID}","contextId":"${CONTEXT_ID}","status":{"state":"TASK_STATE_`,
  `{"artifactUpdate":{"taskId":"${ID}","contextId":"${CONTEXT_ID}","artifact":{"artifactId":"`,
  `{"task":{"id":"${ID}","contextId":"${CONTEXT_ID}","status":{"state":"TASK_STATE_`,
  `"taskId":"${ID}","contextId":"${CONTEXT_ID}"`,
  `","timestamp":"${TIMESTAMP}"}`,
  `"messageId":"${MESSAGE_ID}"`,
  // The text before a timestamp other than the final one.
  '","timestamp":"',
];
const FIRST_COMPOSITE = 5;
const STATUS_UPDATE = '\u0005';
const ARTIFACT_UPDATE = '\u0006';
const TASK = '\u0007';
const TASK_AND_CONTEXT = '\u0008';
const FINAL_TIMESTAMP = '\u0009';
const MESSAGE_ID_MEMBER = '\u000a';
const OTHER_TIMESTAMP = '\u000b';
// eslint-disable-next-line no-control-regex -- the marks are control characters by design
const COMPOSITE_MARK = /[\u0005-\u000b]/g;

/**
 * Packs the log of a finished task (`task` is its projected snapshot). Throws what JSON.stringify
 * throws for values JSON cannot hold (the caller then keeps the task as it is).
 */
export function packTask(
  events: readonly StreamResponse[],
  task: Task,
  keys: PackKeys,
): PackedTask {
  const values = usableValues(keys);
  const log = packText(events, values);
  return events.length > SNAPSHOT_FROM_EVENTS ? { log, task: packText(task, values) } : log;
}

/** The log of a packed task, as fresh objects. */
export function unpackEvents(packed: PackedTask, keys: PackKeys): StreamResponse[] {
  const text = typeof packed === 'string' ? packed : packed.log;
  return JSON.parse(unpack(text, usableValues(keys))) as StreamResponse[];
}

/** The snapshot of a packed task, as a fresh object. */
export function unpackTask(packed: PackedTask, keys: PackKeys): Task {
  if (typeof packed !== 'string')
    return JSON.parse(unpack(packed.task, usableValues(keys))) as Task;
  const events = unpackEvents(packed, keys);
  const first = events[0];
  if (first === undefined || !('task' in first)) throw new Error('a packed log starts with a task');
  const projection = new TaskProjection(first.task);
  for (let i = 1; i < events.length; i++) projection.apply(events[i] as StreamResponse);
  return projection.task;
}

/** The values that get a mark: `undefined` when empty or not plain (see {@link usable}). */
interface Values {
  readonly id: string | undefined;
  readonly contextId: string | undefined;
  readonly ts: string | undefined;
  readonly messageId: string | undefined;
}

function usableValues(keys: PackKeys): Values {
  return {
    id: usable(keys.id),
    contextId: usable(keys.contextId),
    ts: usable(keys.ts),
    messageId: usable(keys.messageId),
  };
}

/**
 * Values JSON writes as themselves in quotes: a mark then stands for exactly the text it replaced,
 * and (no control characters) never straddles another mark, so the steps below undo exactly.
 */
function usable(value: string | undefined): string | undefined {
  return value && PLAIN_STRING.test(value) ? value : undefined;
}

/** The inverse of {@link packText}: composite marks to their templates, then the value marks back. */
function unpack(text: string, values: Values): string {
  const { id, contextId, ts, messageId } = values;
  text = text.replace(COMPOSITE_MARK, expandComposite);
  if (messageId) text = swap(text, MESSAGE_ID, messageId);
  if (ts) text = swap(text, TIMESTAMP, ts);
  if (contextId) text = swap(text, CONTEXT_ID, contextId);
  return id ? swap(text, ID, id) : text;
}

function expandComposite(mark: string): string {
  return TEMPLATES[mark.charCodeAt(0) - FIRST_COMPOSITE] as string;
}

/**
 * Replaces every `from` by `to`. split/join, not replaceAll: `to` may hold `$` patterns, and
 * replaceAll returns a tree of string pieces where join returns one flat string.
 */
function swap(text: string, from: string, to: string): string {
  return text.includes(from) ? text.split(from).join(to) : text;
}

// The writer. One text is written at a time (nothing it calls can start another), into `out`.

/** The pieces written so far (kept between texts: its slots are reused, not reallocated). */
const out: string[] = [];
/** How many pieces of `out` the text being written has. */
let n = 0;
/** The usable values of the text being written (see {@link usable}). */
let values: Values = { id: undefined, contextId: undefined, ts: undefined, messageId: undefined };

/** Thrown inside the writer for a value it leaves to `JSON.stringify` (made once: no stack). */
const GENERAL = new Error('left to JSON.stringify');
/** Deeper than this, the text is `JSON.stringify`'s (which also reports cycles). */
const MAX_DEPTH = 100;
/** A text of more pieces than this does not keep its slots for the next one. */
const KEEP_PIECES = 4096;

/**
 * The packed text of `value`: `JSON.stringify(value)` with marks, or without any for a value the
 * writer leaves to it. Throws what JSON.stringify throws.
 */
function packText(value: unknown, usableValues: Values): string {
  if (!unpolluted()) return JSON.stringify(value);
  values = usableValues;
  n = 0;
  try {
    write(value, 0);
  } catch (error) {
    n = 0;
    out.length = 0;
    if (error !== GENERAL) throw error;
    return JSON.stringify(value);
  }
  const used = n;
  n = 0;
  if (out.length > used) out.fill('', used);
  const text = out.join('');
  // No piece stays referenced; slots of a large text are not kept.
  if (out.length > KEEP_PIECES) out.length = 0;
  else out.fill('', 0, used);
  return text;
}

function write(v: unknown, depth: number): void {
  switch (typeof v) {
    case 'string':
      return string(v);
    case 'number':
      out[n++] = Number.isFinite(v) ? String(v) : 'null';
      return;
    case 'boolean':
      out[n++] = v ? 'true' : 'false';
      return;
    case 'object':
      if (v === null) {
        out[n++] = 'null';
        return;
      }
      if (depth >= MAX_DEPTH) throw GENERAL;
      if (Array.isArray(v)) return array(v, depth);
      if (!isPlain(v)) throw GENERAL;
      return object(v, depth);
    case 'bigint':
    case 'undefined':
    case 'function':
    case 'symbol':
      // A bigint (JSON.stringify throws); the others are handled by the callers (skipped
      // members, `null` items) and only reach here as the whole value.
      throw GENERAL;
  }
}

/** What stands between a string's quotes: its mark, itself, or undefined when it needs escapes. */
function content(s: string): string | undefined {
  const { id, contextId, ts, messageId } = values;
  if (s === id) return ID;
  if (s === contextId) return CONTEXT_ID;
  if (s === ts) return TIMESTAMP;
  if (s === messageId) return MESSAGE_ID;
  return PLAIN_STRING.test(s) ? s : undefined;
}

/** A string as three pieces (quote, content, quote), or JSON.stringify's one when it escapes. */
function string(s: string): void {
  const c = content(s);
  if (c === undefined) {
    out[n++] = JSON.stringify(s);
    return;
  }
  out[n++] = '"';
  out[n++] = c;
  out[n++] = '"';
}

function array(v: readonly unknown[], depth: number): void {
  if (Object.getPrototypeOf(v) !== Array.prototype || (v as { toJSON?: unknown }).toJSON)
    throw GENERAL;
  out[n++] = '[';
  for (let i = 0; i < v.length; i++) {
    if (i > 0) out[n++] = ',';
    const item = v[i];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol')
      out[n++] = 'null';
    else write(item, depth + 1);
  }
  out[n++] = ']';
}

/**
 * The pieces a member name is written as, with what comes before it (`{` for the first member,
 * `,` for the others) and, for a string value, its opening quote: `{"name":`, `,"name":`,
 * `{"name":"`, `,"name":"`. One piece instead of up to four keeps the list short (an echo log is
 * about 60 pieces to join, not 85).
 */
type NamePieces = readonly [string, string, string, string];
const FIRST = 0;
const NEXT = 1;
const QUOTED = 2;
const NAMES: ReadonlyMap<string, NamePieces> = new Map(
  ['statusUpdate', 'artifactUpdate', 'task', 'message', 'id', 'taskId', 'contextId', 'status']
    .concat(['state', 'timestamp', 'artifact', 'artifactId', 'messageId', 'role', 'parts'])
    .concat(['text', 'data', 'raw', 'url', 'filename', 'mediaType', 'name', 'description'])
    .concat(['metadata', 'extensions', 'history', 'artifacts', 'append', 'lastChunk'])
    .concat(['referenceTaskIds'])
    .map((name) => [name, [`{"${name}":`, `,"${name}":`, `{"${name}":"`, `,"${name}":"`]]),
);
const piece = (member: string, at: number) => (NAMES.get(member) as NamePieces)[at] as string;

/** Writes a member's name with the `{` or `,` before it, and a string value's opening quote. */
function memberName(key: string, first: boolean, quoted: boolean): void {
  const known = NAMES.get(key);
  if (known !== undefined) {
    out[n++] = known[(first ? FIRST : NEXT) + (quoted ? QUOTED : 0)] as string;
  } else if (PLAIN_STRING.test(key)) {
    out[n++] = first ? '{"' : ',"';
    out[n++] = key;
    out[n++] = quoted ? '":"' : '":';
  } else {
    out[n++] = first ? '{' : ',';
    out[n++] = JSON.stringify(key);
    out[n++] = quoted ? ':"' : ':';
  }
}

/**
 * The pieces each composite mark stands for (its template's text, with the value marks): those
 * written before the member whose start completes it (TASK_AND_CONTEXT: those it replaces, after
 * the taskId's piece, whose `{` or `,` it keeps).
 */
const TASK_AND_CONTEXT_RUN = [ID, '"', piece('contextId', NEXT + QUOTED), CONTEXT_ID, '"'];
const OPEN_TASK_ID = piece('taskId', FIRST + QUOTED);
const NEXT_TASK_ID = piece('taskId', NEXT + QUOTED);
const OPEN_TASK_AND_CONTEXT = `{${TASK_AND_CONTEXT}`;
const NEXT_TASK_AND_CONTEXT = `,${TASK_AND_CONTEXT}`;
const OPEN_MESSAGE_ID_MEMBER = `{${MESSAGE_ID_MEMBER}`;
const NEXT_MESSAGE_ID_MEMBER = `,${MESSAGE_ID_MEMBER}`;
const STATUS_UPDATE_RUN = [
  piece('statusUpdate', FIRST),
  OPEN_TASK_AND_CONTEXT,
  piece('status', NEXT),
];
const TASK_RUN = [piece('task', FIRST), piece('id', FIRST + QUOTED), ID, '"'].concat([
  piece('contextId', NEXT + QUOTED),
  CONTEXT_ID,
  '"',
  piece('status', NEXT),
]);
const ARTIFACT_UPDATE_RUN = [
  piece('artifactUpdate', FIRST),
  OPEN_TASK_AND_CONTEXT,
  piece('artifact', NEXT),
];
const STATE_PREFIX = 'TASK_STATE_';

/** True when the last pieces written are `run`. */
function endsWith(run: readonly string[]): boolean {
  const from = n - run.length;
  if (from < 0) return false;
  for (let i = 0; i < run.length; i++) if (out[from + i] !== run[i]) return false;
  return true;
}

/** Replaces the last `count` pieces by `mark`. */
function replaceLast(count: number, mark: string): void {
  n -= count;
  out[n++] = mark;
}

function object(v: Record<string, unknown>, depth: number): void {
  // Counted, not found from `n`: a composite mark may replace pieces written before the `{`.
  let members = 0;
  for (const key in v) {
    const member = v[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol')
      continue;
    const first = members++ === 0;
    if (typeof member === 'string') {
      stringMember(key, member, first);
      continue;
    }
    memberName(key, first, false);
    write(member, depth + 1);
  }
  if (members === 0) {
    out[n++] = '{}';
    return;
  }
  // `","timestamp":"<final>"}`: the timestamp member written last (its pieces are the last ones).
  if (out[n - 3] === OTHER_TIMESTAMP && out[n - 2] === TIMESTAMP && out[n - 1] === '"') {
    replaceLast(3, FINAL_TIMESTAMP);
    return;
  }
  out[n++] = '}';
}

/** A member whose value is a string. */
function stringMember(key: string, member: string, first: boolean): void {
  const c = content(member);
  if (c === undefined) {
    memberName(key, first, false);
    out[n++] = JSON.stringify(member);
    return;
  }
  // `","timestamp":"` after a string member (its closing quote is the last piece).
  if (!first && key === 'timestamp' && out[n - 1] === '"') {
    out[n - 1] = OTHER_TIMESTAMP;
    out[n++] = c;
    out[n++] = '"';
    return;
  }
  if (key === 'messageId' && member === values.messageId) {
    out[n++] = first ? OPEN_MESSAGE_ID_MEMBER : NEXT_MESSAGE_ID_MEMBER;
    return;
  }
  if (first && compositeStart(key, member, c)) return;
  memberName(key, first, true);
  out[n++] = c;
  out[n++] = '"';
  if (key === 'contextId' && endsWith(TASK_AND_CONTEXT_RUN)) {
    const at = n - TASK_AND_CONTEXT_RUN.length - 1;
    const taskId = out[at];
    if (taskId === OPEN_TASK_ID || taskId === NEXT_TASK_ID) {
      n = at;
      out[n++] = taskId === OPEN_TASK_ID ? OPEN_TASK_AND_CONTEXT : NEXT_TASK_AND_CONTEXT;
    }
  }
}

/**
 * The first member of an object, when it completes the text of an event's start (a status
 * update's or a task's state, an artifact update's artifactId): that text becomes one mark.
 */
function compositeStart(key: string, member: string, c: string): boolean {
  if (key === 'state') {
    if (c !== member || !member.startsWith(STATE_PREFIX)) return false;
    if (endsWith(STATUS_UPDATE_RUN)) replaceLast(STATUS_UPDATE_RUN.length, STATUS_UPDATE);
    else if (endsWith(TASK_RUN)) replaceLast(TASK_RUN.length, TASK);
    else return false;
    out[n++] = stateSuffix(member);
    out[n++] = '"';
    return true;
  }
  if (key === 'artifactId' && endsWith(ARTIFACT_UPDATE_RUN)) {
    replaceLast(ARTIFACT_UPDATE_RUN.length, ARTIFACT_UPDATE);
    out[n++] = c;
    out[n++] = '"';
    return true;
  }
  return false;
}

/** A state without its `TASK_STATE_` prefix (the states of the spec without a new string). */
const SUFFIXES: ReadonlyMap<string, string> = new Map(
  TASK_STATES.map((state) => [state, state.slice(STATE_PREFIX.length)]),
);
function stateSuffix(state: string): string {
  return SUFFIXES.get(state) ?? state.slice(STATE_PREFIX.length);
}
