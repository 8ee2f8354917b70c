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
 * Long logs also keep their snapshot text, so reading the task stays O(size of the task) instead
 * of O(number of events).
 */
import { TaskProjection } from '../../core/task-state.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';

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

/** A JSON string's content without escapes: what a value can be matched against. */
const V = '([^"\\\\]*)';
/**
 * Text around the values (captured, replaced only when they are this task's): longer first. The
 * mark of the i-th is U+0005 + i and unpacks to the i-th template.
 */
const COMPOSITES = new RegExp(
  [
    `\\{"statusUpdate":\\{"taskId":"${V}","contextId":"${V}","status":\\{"state":"TASK_STATE_`,
    `\\{"artifactUpdate":\\{"taskId":"${V}","contextId":"${V}","artifact":\\{"artifactId":"`,
    `\\{"task":\\{"id":"${V}","contextId":"${V}","status":\\{"state":"TASK_STATE_`,
    `"taskId":"${V}","contextId":"${V}"`,
    `","timestamp":"${V}"\\}`,
    `"messageId":"${V}"`,
  ].join('|'),
  'g',
);
const TEMPLATES = [
  `{"statusUpdate":{"taskId":"${ID}","contextId":"${CONTEXT_ID}","status":{"state":"TASK_STATE_`,
  `{"artifactUpdate":{"taskId":"${ID}","contextId":"${CONTEXT_ID}","artifact":{"artifactId":"`,
  `{"task":{"id":"${ID}","contextId":"${CONTEXT_ID}","status":{"state":"TASK_STATE_`,
  `"taskId":"${ID}","contextId":"${CONTEXT_ID}"`,
  `","timestamp":"${TIMESTAMP}"}`,
  `"messageId":"${MESSAGE_ID}"`,
  // Not a composite of its own: the text before a timestamp other than the final one.
  '","timestamp":"',
];
const FIRST_COMPOSITE = 5;
// eslint-disable-next-line no-control-regex -- the marks are control characters by design
const COMPOSITE_MARK = /[\u0005-\u000b]/g;
const OTHER_TIMESTAMP = '\u000b';
// eslint-disable-next-line no-control-regex -- matching the C0 controls is the point
const CONTROL = /[\u0000-\u001f]/;

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
  const log = pack(JSON.stringify(events), values);
  return events.length > SNAPSHOT_FROM_EVENTS
    ? { log, task: pack(JSON.stringify(task), values) }
    : log;
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

/** The values that get a mark: `undefined` when empty or holding a control character. */
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

/** Values without control characters never straddle a mark, so the steps below undo exactly. */
function usable(value: string | undefined): string | undefined {
  return value && !CONTROL.test(value) ? value : undefined;
}

/**
 * Composites first (one pass: a mark each where the captured values are this task's), then
 * every value left, in the order of their marks. Each mark is new to the text when it goes in.
 */
function pack(text: string, values: Values): string {
  const { id, contextId, ts, messageId } = values;
  text = text.replace(COMPOSITES, (match: string, ...groups: unknown[]) =>
    compositeMark(match, groups, values),
  );
  if (id) text = swap(text, id, ID);
  if (contextId) text = swap(text, contextId, CONTEXT_ID);
  if (ts) text = swap(text, ts, TIMESTAMP);
  if (messageId) text = swap(text, messageId, MESSAGE_ID);
  return text;
}

/**
 * What one composite match becomes. Captures: (id, contextId) for each of the first four
 * composites, then the timestamp, then the messageId. A captured value is always a string, so
 * an `undefined` value matches nothing.
 */
function compositeMark(match: string, groups: readonly unknown[], values: Values): string {
  for (let i = 0; i < 4; i++) {
    if (groups[2 * i] === undefined) continue;
    const same = groups[2 * i] === values.id && groups[2 * i + 1] === values.contextId;
    return same ? String.fromCharCode(FIRST_COMPOSITE + i) : match;
  }
  const ts = groups[8];
  if (typeof ts === 'string') {
    return ts === values.ts
      ? String.fromCharCode(FIRST_COMPOSITE + 4)
      : `${OTHER_TIMESTAMP}${ts}"}`;
  }
  return groups[9] === values.messageId ? String.fromCharCode(FIRST_COMPOSITE + 5) : match;
}

/** The inverse of {@link pack}: composite marks to their templates, then the value marks back. */
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
