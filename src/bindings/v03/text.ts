/**
 * The JSON text of a 1.0 result or stream event in 0.3 form, in either 0.3 dialect (`wire.ts`):
 * the JSON-RPC answer (0.3 spec §7, §6) and the proto-JSON body of HTTP+JSON (0.3 spec §3.2.3),
 * written directly from the 1.0 objects. It is exactly `JSON.stringify` of what `convert.ts`
 * makes of them (`taskTo03`, `messageTo03`, `eventTo03`, through `jsonRpcResultTo03` and
 * `protoResultTo03`), without building the 0.3 objects first. The converters read each 1.0
 * object by named fields and never walk its keys, so this reads the same fields in the same
 * order and writes the members in the order the converters insert them; a value it copies as it
 * is (metadata, a part's data, ids of another type than string, extensions) is written by
 * `JSON.stringify` itself, and left out when that writes nothing (undefined, a function). The
 * one difference: a `toJSON` of such a value is called with `''` instead of its member name.
 * src/bindings/v03/text.test.ts checks the text against the converters with fast-check. Issue 14
 * point 7 (0.3 within 10 % of 1.0): in a server warmed with every binding, converting then
 * stringifying an echo task took 2.9-3.8 µs, the JSON-RPC text 1.9-2.2 µs, and JSON.stringify of
 * the 1.0 answer 2.0-2.1 µs.
 */
import { PLAIN_STRING } from '../../core/plain-json.js';
import { isSettled } from '../../core/task-state.js';
import type { OperationName } from '../../core/operations.js';
import type { TaskState } from '../../core/schemas/index.js';
import { isObject, obj, roleTo03, type Json } from './convert.js';
import { jsonRpcResultTo03, protoResultTo03 } from './requests.js';
import { stateTo03, type Dialect } from './wire.js';

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
function array(
  items: unknown[],
  write: (item: Json, rpc: boolean) => string,
  rpc: boolean,
): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ',';
    text += i in items ? write(obj(items[i]), rpc) : 'null';
  }
  return `${text}]`;
}

/** `list(v)` of convert.ts, written. */
const list = (v: unknown, write: (item: Json, rpc: boolean) => string, rpc: boolean): string =>
  array(Array.isArray(v) ? v : [], write, rpc);

/** `partTo03(part, dialect)`, written (`rpc`: the JSON-RPC dialect, else proto-JSON). */
function part(p: Json, rpc: boolean): string {
  let text: string;
  if (typeof p.text === 'string') {
    text = `{${rpc ? '"kind":"text",' : ''}"text":${value(p.text) as string}`;
  } else if (p.raw !== undefined || p.url !== undefined) {
    let file: string;
    if (rpc) {
      file = p.raw !== undefined ? member(',"bytes":', p.raw) : member(',"uri":', p.url);
      file += member(',"name":', p.filename) + member(',"mimeType":', p.mediaType);
    } else {
      file =
        p.raw !== undefined ? member(',"fileWithBytes":', p.raw) : member(',"fileWithUri":', p.url);
      file += member(',"mimeType":', p.mediaType) + member(',"name":', p.filename);
    }
    text = rpc ? `{"kind":"file","file":${braces(file)}` : `{"file":${braces(file)}`;
  } else {
    // `,"data":` and the data: the part's object, else `{value}` (left out if JSON writes none).
    const data = isObject(p.data)
      ? member(',"data":', p.data)
      : `,"data":${braces(member(',"value":', p.data ?? null))}`;
    // proto-JSON wraps the Struct once more: `{data: {data: …}}`.
    text = rpc ? `{"kind":"data"${data}` : `{"data":${braces(data)}`;
  }
  return `${text + member(',"metadata":', p.metadata)}}`;
}

/** `messageTo03(message, dialect)`, written. */
function message(m: Json, rpc: boolean): string {
  // The converter maps the parts before it reads the role.
  const parts = list(m.parts, part, rpc);
  const head = rpc
    ? `,"kind":"message"${member(',"messageId":', m.messageId)}` +
      `${member(',"role":', roleTo03(m.role))},"parts":${parts}`
    : `${member(',"messageId":', m.messageId)}${member(',"role":', m.role)},"content":${parts}`;
  return (
    `{${head.slice(1)}` +
    member(',"contextId":', m.contextId) +
    member(',"taskId":', m.taskId) +
    member(',"referenceTaskIds":', m.referenceTaskIds) +
    member(',"extensions":', m.extensions) +
    `${member(',"metadata":', m.metadata)}}`
  );
}

/** `statusTo03(status, dialect)`, written. */
function status(s: Json, rpc: boolean): string {
  const state = stateTo03(s.state as TaskState, rpc ? 'jsonrpc' : 'proto');
  const said = isObject(s.message) ? `,"message":${message(s.message, rpc)}` : '';
  return braces(member(',"state":', state) + said + member(',"timestamp":', s.timestamp));
}

/** `artifactTo03(artifact, dialect)`, written. */
function artifact(a: Json, rpc: boolean): string {
  const id = member(',"artifactId":', a.artifactId);
  return (
    `{${id === '' ? '' : `${id.slice(1)},`}"parts":${list(a.parts, part, rpc)}` +
    member(',"name":', a.name) +
    member(',"description":', a.description) +
    member(',"metadata":', a.metadata) +
    `${member(',"extensions":', a.extensions)}}`
  );
}

/** `taskTo03(task, dialect)`, written. */
function task(t: Json, rpc: boolean): string {
  let text = `${rpc ? ',"kind":"task"' : ''}${member(',"id":', t.id)}`;
  text += `${member(',"contextId":', t.contextId)},"status":${status(obj(t.status), rpc)}`;
  if (Array.isArray(t.artifacts)) text += `,"artifacts":${array(t.artifacts, artifact, rpc)}`;
  if (Array.isArray(t.history)) text += `,"history":${array(t.history, message, rpc)}`;
  return `{${text.slice(1)}${member(',"metadata":', t.metadata)}}`;
}

/**
 * `eventTo03(event, dialect)`, written: in JSON-RPC the bare 0.3 event with its `kind`, in
 * proto-JSON the `{task|message|statusUpdate|artifactUpdate}` wrapper.
 */
export function eventText03(event: Json, dialect: Dialect): string {
  const rpc = dialect === 'jsonrpc';
  if ('task' in event) {
    const text = task(event.task as Json, rpc);
    return rpc ? text : `{"task":${text}}`;
  }
  if ('message' in event) {
    const text = message(event.message as Json, rpc);
    return rpc ? text : `{"message":${text}}`;
  }
  if ('statusUpdate' in event) {
    const u = event.statusUpdate as Json;
    const state = (u.status as Json).state;
    const text = braces(
      `${rpc ? ',"kind":"status-update"' : ''}${member(',"taskId":', u.taskId)}` +
        `${member(',"contextId":', u.contextId)},"status":${status(u.status as Json, rpc)}` +
        `,"final":${String(isSettled(state as TaskState))}${member(',"metadata":', u.metadata)}`,
    );
    return rpc ? text : `{"statusUpdate":${text}}`;
  }
  const u = event.artifactUpdate as Json;
  const text = braces(
    `${rpc ? ',"kind":"artifact-update"' : ''}${member(',"taskId":', u.taskId)}` +
      `${member(',"contextId":', u.contextId)},"artifact":${artifact(u.artifact as Json, rpc)}` +
      `${member(',"append":', u.append)}${member(',"lastChunk":', u.lastChunk)}` +
      member(',"metadata":', u.metadata),
  );
  return rpc ? text : `{"artifactUpdate":${text}}`;
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
      return 'task' in value ? task(obj(value.task), true) : message(obj(value.message), true);
    }
    case 'GetTask':
    case 'CancelTask':
      return task(obj(result), true);
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

/**
 * The proto-JSON body of a 0.3 HTTP+JSON answer to `operation`: what
 * `JSON.stringify(protoResultTo03(operation, result, card))` writes. Sends and task reads are
 * written directly; the rest, rare and small, go through the converter.
 */
export function protoResultText03(
  operation: OperationName,
  result: unknown,
  card: (card: Json) => Json,
): string {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      return eventText03(obj(result), 'proto');
    case 'GetTask':
    case 'CancelTask':
      return task(obj(result), false);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
    case 'ListTaskPushNotificationConfigs':
    case 'DeleteTaskPushNotificationConfig':
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return JSON.stringify(protoResultTo03(operation, result, card));
  }
}
