/**
 * The JSON text of a 1.0 result or stream event in 0.3 JSON-RPC form (0.3 spec §7, §6), written
 * directly from the 1.0 objects: exactly `JSON.stringify` of what `convert.ts` makes of them
 * (`taskTo03`, `messageTo03`, `eventTo03` in the `jsonrpc` dialect), without building the 0.3
 * objects first. The converters read each 1.0 object by named fields and never walk its keys, so
 * this reads the same fields in the same order and writes the members in the order the
 * converters insert them; a value it copies as it is (metadata, a part's data, ids of another
 * type than string, extensions) is written by `JSON.stringify` itself, and left out when that
 * writes nothing (undefined, a function). The one difference: a `toJSON` of such a value is
 * called with `''` instead of its member name. src/bindings/v03/jsonrpc-text.test.ts checks the
 * text against the converters with fast-check. Issue 14 point 7 (0.3 within 10 % of 1.0): in a
 * server warmed with every binding, converting then stringifying an echo task took 2.9-3.8 µs,
 * this 1.9-2.2 µs, and JSON.stringify of the 1.0 answer 2.0-2.1 µs.
 */
import { isSettled } from '../../core/task-state.js';
import type { OperationName } from '../../core/operations.js';
import type { TaskState } from '../../core/schemas/index.js';
import { isObject, obj, roleTo03, type Json } from './convert.js';
import { jsonRpcResultTo03 } from './requests.js';
import { stateTo03 } from './wire.js';

// A string with no character JSON escapes and no surrogate: JSON.stringify writes it in quotes.
// eslint-disable-next-line no-control-regex -- matching the C0 controls is the point
const PLAIN_STRING = /^[^\u0000-\u001f"\\\ud800-\udfff]*$/;

/** What JSON.stringify writes for `v` as a member's value (undefined: the member is left out). */
function value(v: unknown): string | undefined {
  return typeof v === 'string' && PLAIN_STRING.test(v) ? `"${v}"` : JSON.stringify(v);
}

/** `<key>value` (`key` is `,"name":`), or `''` when JSON leaves the member out. */
function member(key: string, v: unknown): string {
  if (v === undefined) return '';
  const text = value(v);
  return text === undefined ? '' : key + text;
}

/** `{…}` of members each written with a leading comma. */
const braces = (members: string): string => (members === '' ? '{}' : `{${members.slice(1)}}`);

/** An array as `.map(write)` then JSON.stringify give it: holes (skipped by map) are `null`. */
function array(items: unknown[], write: (item: Json) => string): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ',';
    text += i in items ? write(obj(items[i])) : 'null';
  }
  return `${text}]`;
}

/** `list(v)` of convert.ts, written. */
const list = (v: unknown, write: (item: Json) => string): string =>
  array(Array.isArray(v) ? v : [], write);

/** `partTo03(part, 'jsonrpc')`, written. */
function part(p: Json): string {
  let text: string;
  if (typeof p.text === 'string') {
    text = `{"kind":"text","text":${value(p.text) as string}`;
  } else if (p.raw !== undefined || p.url !== undefined) {
    const content = p.raw !== undefined ? member(',"bytes":', p.raw) : member(',"uri":', p.url);
    const file = content + member(',"name":', p.filename) + member(',"mimeType":', p.mediaType);
    text = `{"kind":"file","file":${braces(file)}`;
  } else if (isObject(p.data)) {
    text = `{"kind":"data"${member(',"data":', p.data)}`;
  } else {
    text = `{"kind":"data","data":${braces(member(',"value":', p.data ?? null))}`;
  }
  return `${text + member(',"metadata":', p.metadata)}}`;
}

/** `messageTo03(message, 'jsonrpc')`, written. */
function message(m: Json): string {
  // The converter maps the parts before it reads the role.
  const parts = list(m.parts, part);
  return (
    `{"kind":"message"${member(',"messageId":', m.messageId)}` +
    `${member(',"role":', roleTo03(m.role))},"parts":${parts}` +
    member(',"contextId":', m.contextId) +
    member(',"taskId":', m.taskId) +
    member(',"referenceTaskIds":', m.referenceTaskIds) +
    member(',"extensions":', m.extensions) +
    `${member(',"metadata":', m.metadata)}}`
  );
}

/** `statusTo03(status, 'jsonrpc')`, written. */
function status(s: Json): string {
  const state = member(',"state":', stateTo03(s.state as TaskState, 'jsonrpc'));
  const said = isObject(s.message) ? `,"message":${message(s.message)}` : '';
  return braces(state + said + member(',"timestamp":', s.timestamp));
}

/** `artifactTo03(artifact, 'jsonrpc')`, written. */
function artifact(a: Json): string {
  const id = member(',"artifactId":', a.artifactId);
  return (
    `{${id === '' ? '' : `${id.slice(1)},`}"parts":${list(a.parts, part)}` +
    member(',"name":', a.name) +
    member(',"description":', a.description) +
    member(',"metadata":', a.metadata) +
    `${member(',"extensions":', a.extensions)}}`
  );
}

/** `taskTo03(task, 'jsonrpc')`, written. */
function task(t: Json): string {
  let text = `{"kind":"task"${member(',"id":', t.id)}${member(',"contextId":', t.contextId)}`;
  text += `,"status":${status(obj(t.status))}`;
  if (Array.isArray(t.artifacts)) text += `,"artifacts":${array(t.artifacts, artifact)}`;
  if (Array.isArray(t.history)) text += `,"history":${array(t.history, message)}`;
  return `${text + member(',"metadata":', t.metadata)}}`;
}

/** `eventTo03(event, 'jsonrpc')`, written: the bare 0.3 event with its `kind`. */
export function jsonRpcEventText03(event: Json): string {
  if ('task' in event) return task(event.task as Json);
  if ('message' in event) return message(event.message as Json);
  if ('statusUpdate' in event) {
    const u = event.statusUpdate as Json;
    const state = (u.status as Json).state;
    return (
      `{"kind":"status-update"${member(',"taskId":', u.taskId)}${member(',"contextId":', u.contextId)}` +
      `,"status":${status(u.status as Json)},"final":${String(isSettled(state as TaskState))}` +
      `${member(',"metadata":', u.metadata)}}`
    );
  }
  const u = event.artifactUpdate as Json;
  return (
    `{"kind":"artifact-update"${member(',"taskId":', u.taskId)}${member(',"contextId":', u.contextId)}` +
    `,"artifact":${artifact(u.artifact as Json)}${member(',"append":', u.append)}` +
    `${member(',"lastChunk":', u.lastChunk)}${member(',"metadata":', u.metadata)}}`
  );
}

/**
 * The `result` text of a 0.3 JSON-RPC answer to `operation`: what
 * `JSON.stringify(jsonRpcResultTo03(operation, result))` writes (`{}` when that writes nothing,
 * as the 1.0 binding answers Empty). Sends and task reads are written directly; the rest, rare
 * and small, go through the converter.
 */
export function jsonRpcResultText03(operation: OperationName, result: unknown): string {
  switch (operation) {
    case 'SendMessage': {
      const value = obj(result);
      return 'task' in value ? task(obj(value.task)) : message(obj(value.message));
    }
    case 'GetTask':
    case 'CancelTask':
      return task(obj(result));
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
    case 'ListTaskPushNotificationConfigs':
    case 'DeleteTaskPushNotificationConfig':
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return JSON.stringify(jsonRpcResultTo03(operation, result)) ?? '{}';
  }
}
