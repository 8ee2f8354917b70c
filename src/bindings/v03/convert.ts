/**
 * The 0.3 ⇄ 1.0 conversions of the task model, written once for both 0.3 dialects (`wire.ts`):
 * parts, messages, statuses, artifacts, tasks and stream events. JSON-RPC 0.3 tags every object
 * with `kind` and spells parts `{kind:'file', file:{bytes|uri}}`; proto-JSON 0.3 (REST, gRPC)
 * names a message's parts `content` and a file `{fileWithUri|fileWithBytes}`. The 1.0 side is
 * ProtoJSON as in `core/schemas` (spec §4.1). Conversions from 0.3 are lenient (what they cannot
 * place they drop, and the 1.0 schema then validates the result); conversions to 0.3 assume valid
 * 1.0 input. Losses are documented in docs/interop.md.
 */
import { isSettled } from '../../core/task-state.js';
import type { StreamResponse, TaskState } from '../../core/schemas/index.js';
import { stateFrom03, stateTo03, type Dialect } from './wire.js';
import { withFields } from '../../core/with-fields.js';

/** A JSON object. */
export type Json = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `v` when it is a JSON object, else a fresh `{}`. */
export const obj = (v: unknown): Json => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Copies the listed fields of `from` that are set (not undefined) onto `to`. */
function copy(to: Json, from: Json, fields: readonly string[]): Json {
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    const value = from[f];
    if (value !== undefined) to[f] = value;
  }
  return to;
}

// The optional fields each object copies as they are (built once: this runs per request).
const METADATA = ['metadata'] as const;
const TIMESTAMP = ['timestamp'] as const;
const MESSAGE_FIELDS = [
  'contextId',
  'taskId',
  'referenceTaskIds',
  'extensions',
  'metadata',
] as const;
const ARTIFACT_FIELDS = ['name', 'description', 'metadata', 'extensions'] as const;
const UPDATE_FIELDS = ['append', 'lastChunk', 'metadata'] as const;

// ---------------------------------------------------------------- parts

/** A 1.0 part in 0.3 form. A 1.0 `data` that is not an object is wrapped as `{value}`. */
export function partTo03(part: Json, dialect: Dialect): Json {
  const out: Json = {};
  if (typeof part.text === 'string') {
    if (dialect === 'jsonrpc') out.kind = 'text';
    out.text = part.text;
  } else if (part.raw !== undefined || part.url !== undefined) {
    const file: Json = {};
    if (dialect === 'jsonrpc') {
      if (part.raw !== undefined) file.bytes = part.raw;
      else file.uri = part.url;
      if (part.filename !== undefined) file.name = part.filename;
      if (part.mediaType !== undefined) file.mimeType = part.mediaType;
      out.kind = 'file';
    } else {
      if (part.raw !== undefined) file.fileWithBytes = part.raw;
      else file.fileWithUri = part.url;
      if (part.mediaType !== undefined) file.mimeType = part.mediaType;
      if (part.filename !== undefined) file.name = part.filename;
    }
    out.file = file;
  } else {
    const data = isObject(part.data) ? part.data : { value: part.data ?? null };
    if (dialect === 'jsonrpc') {
      out.kind = 'data';
      out.data = data;
    } else out.data = { data };
  }
  return copy(out, part, METADATA);
}

/** A 0.3 part (either dialect) in 1.0 form. */
export function partFrom03(raw: unknown): Json {
  const part = obj(raw);
  const out: Json = {};
  if (typeof part.text === 'string') out.text = part.text;
  else if (isObject(part.file)) {
    const file = part.file;
    const bytes = file.bytes ?? file.fileWithBytes ?? file.file_with_bytes;
    const uri = file.uri ?? file.fileWithUri ?? file.file_with_uri;
    if (bytes !== undefined) out.raw = bytes;
    else out.url = uri;
    const mime = file.mimeType ?? file.mime_type;
    if (typeof mime === 'string' && mime !== '') out.mediaType = mime;
    if (typeof file.name === 'string' && file.name !== '') out.filename = file.name;
  } else if (part.data !== undefined) {
    // proto-JSON wraps the Struct once more: `{data: {data: {...}}}`.
    const data = part.kind === 'data' ? part.data : (obj(part.data).data ?? part.data);
    out.data = data;
  } else return part; // no content: the 1.0 schema names what is missing
  return copy(out, part, METADATA);
}

// ---------------------------------------------------------------- messages

const ROLE_TO_03: Readonly<Record<string, string>> = { ROLE_USER: 'user', ROLE_AGENT: 'agent' };
const ROLE_FROM_03: Readonly<Record<string, string>> = { user: 'ROLE_USER', agent: 'ROLE_AGENT' };

/** The JSON-RPC 0.3 role of a 1.0 role (`ROLE_USER` → `user`); others pass through. */
export const roleTo03 = (role: unknown): unknown => ROLE_TO_03[String(role)] ?? role;

/** A 1.0 message in 0.3 form. */
export function messageTo03(message: Json, dialect: Dialect): Json {
  const parts = list(message.parts).map((p) => partTo03(obj(p), dialect));
  const out: Json =
    dialect === 'jsonrpc'
      ? {
          kind: 'message',
          messageId: message.messageId,
          role: roleTo03(message.role),
          parts,
        }
      : { messageId: message.messageId, role: message.role, content: parts };
  return copy(out, message, MESSAGE_FIELDS);
}

/** A 0.3 message (either dialect) in 1.0 form. */
export function messageFrom03(raw: unknown): Json {
  const message = obj(raw);
  const out: Json = {};
  let source: unknown;
  // One pass over the fields (no rest spread: this runs for every 0.3 message).
  for (const key in message) {
    if (!Object.hasOwn(message, key)) continue;
    const value = message[key];
    switch (key) {
      case 'kind':
        break;
      case 'parts':
        source = value ?? source;
        break;
      case 'content':
        source ??= value;
        break;
      case 'role':
        out.role = typeof value === 'string' ? (ROLE_FROM_03[value] ?? value) : value;
        break;
      case 'contextId':
      case 'taskId':
        // proto-JSON writes empty strings for unset ids; 1.0 says "absent".
        if (value !== '') out[key] = value;
        break;
      default:
        out[key] = value;
    }
  }
  out.parts = Array.isArray(source) ? source.map(partFrom03) : source;
  return out;
}

// ---------------------------------------------------------------- tasks

function statusTo03(status: Json, dialect: Dialect): Json {
  const out: Json = { state: stateTo03(status.state as TaskState, dialect) };
  if (isObject(status.message)) out.message = messageTo03(status.message, dialect);
  return copy(out, status, TIMESTAMP);
}

function statusFrom03(raw: unknown): Json {
  const status = obj(raw);
  const out: Json = { state: stateFrom03(status.state) };
  const message = status.message ?? status.update;
  if (isObject(message)) out.message = messageFrom03(message);
  return copy(out, status, TIMESTAMP);
}

function artifactTo03(artifact: Json, dialect: Dialect): Json {
  const out: Json = {
    artifactId: artifact.artifactId,
    parts: list(artifact.parts).map((p) => partTo03(obj(p), dialect)),
  };
  return copy(out, artifact, ARTIFACT_FIELDS);
}

function artifactFrom03(raw: unknown): Json {
  const artifact = obj(raw);
  const out: Json = { ...artifact };
  if (Array.isArray(artifact.parts)) out.parts = artifact.parts.map(partFrom03);
  for (const f of ['name', 'description'] as const) if (out[f] === '') delete out[f];
  return out;
}

/** A 1.0 task in 0.3 form. */
export function taskTo03(task: Json, dialect: Dialect): Json {
  const out: Json = dialect === 'jsonrpc' ? { kind: 'task', id: task.id } : { id: task.id };
  if (task.contextId !== undefined) out.contextId = task.contextId;
  out.status = statusTo03(obj(task.status), dialect);
  if (Array.isArray(task.artifacts)) {
    out.artifacts = task.artifacts.map((a) => artifactTo03(obj(a), dialect));
  }
  if (Array.isArray(task.history)) {
    out.history = task.history.map((m) => messageTo03(obj(m), dialect));
  }
  return copy(out, task, METADATA);
}

/** A 0.3 task (either dialect) in 1.0 form. */
export function taskFrom03(raw: unknown): Json {
  const { kind: _kind, ...task } = obj(raw);
  const out: Json = withFields(task, { status: statusFrom03(task.status) });
  if (Array.isArray(task.artifacts)) out.artifacts = task.artifacts.map(artifactFrom03);
  if (Array.isArray(task.history)) out.history = task.history.map(messageFrom03);
  return out;
}

// ---------------------------------------------------------------- events

/**
 * A 1.0 stream event in 0.3 form: in JSON-RPC the bare object with its `kind`, in proto-JSON the
 * `{task|message|statusUpdate|artifactUpdate}` wrapper. `final` (removed in 1.0, where the end of
 * the stream is its close) is true exactly when the 1.0 stream ends after this status: a terminal
 * or interrupted state (spec §3.1.2).
 */
export function eventTo03(event: StreamResponse, dialect: Dialect): Json {
  const rpc = dialect === 'jsonrpc';
  if ('task' in event) {
    const task = taskTo03(event.task, dialect);
    return rpc ? task : { task };
  }
  if ('message' in event) {
    const message = messageTo03(event.message, dialect);
    return rpc ? message : { message };
  }
  if ('statusUpdate' in event) {
    const u = event.statusUpdate;
    const state = u.status.state;
    const out: Json = rpc ? { kind: 'status-update' } : {};
    out.taskId = u.taskId;
    out.contextId = u.contextId;
    out.status = statusTo03(u.status, dialect);
    out.final = isSettled(state);
    copy(out, u, METADATA);
    return rpc ? out : { statusUpdate: out };
  }
  const u = event.artifactUpdate;
  const out: Json = rpc ? { kind: 'artifact-update' } : {};
  out.taskId = u.taskId;
  out.contextId = u.contextId;
  out.artifact = artifactTo03(u.artifact, dialect);
  copy(out, u, UPDATE_FIELDS);
  return rpc ? out : { artifactUpdate: out };
}

/** A 0.3 stream event or send result (either dialect) as a 1.0 StreamResponse (unvalidated). */
export function eventFrom03(raw: unknown): Json {
  const value = obj(raw);
  switch (value.kind) {
    case 'task':
      return { task: taskFrom03(value) };
    case 'message':
      return { message: messageFrom03(value) };
    case 'status-update':
      return { statusUpdate: updateFrom03(value) };
    case 'artifact-update':
      return { artifactUpdate: updateFrom03(value) };
    default:
  }
  if (value.task !== undefined) return { task: taskFrom03(value.task) };
  const message = value.message ?? value.msg;
  if (message !== undefined) return { message: messageFrom03(message) };
  const status = value.statusUpdate ?? value.status_update;
  if (status !== undefined) return { statusUpdate: updateFrom03(status) };
  const artifact = value.artifactUpdate ?? value.artifact_update;
  if (artifact !== undefined) return { artifactUpdate: updateFrom03(artifact) };
  return value;
}

function updateFrom03(raw: unknown): Json {
  const { kind: _kind, final: _final, ...update } = obj(raw);
  if (update.status !== undefined) update.status = statusFrom03(update.status);
  if (update.artifact !== undefined) update.artifact = artifactFrom03(update.artifact);
  return update;
}
