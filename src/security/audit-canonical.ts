/**
 * The RFC 8785 canonical text of an audit link `{ event, prev, seq }` (audit-chain.ts), written
 * fast for the shapes A2A events have (spec §3.1.6 StreamResponse: Task, Message, TaskStatus,
 * Part, Artifact, TaskStatusUpdateEvent, TaskArtifactUpdateEvent): their member names are known,
 * so each object is written in its sorted order directly, with no key list, no sort and no check
 * of the names. Anything else (an unknown member, metadata, a part's data, a value of another
 * type) is written by the general canonicalizer (jcs.ts) at the depth it has in the link, so the
 * text is byte for byte what `canonicalize({ event, prev, seq })` returns, and this throws
 * JcsError exactly when that does (src/security/audit-canonical.test.ts checks both with
 * fast-check). The audit chain writes four links per echo task: this is its hot path. The
 * message fingerprint writes a message's form with it too (`canonicalMessage`).
 * Runtime-neutral.
 */
import { PLAIN_STRING, isPlain, unpolluted } from '../core/plain-json.js';
import { canonicalize, canonicalizeAt } from './jcs.js';

/**
 * Strings found plain lately, by length and two characters: the ids of a task, its states and the
 * previous hash recur in every link, and comparing with an equal string (the same one, mostly)
 * costs a tenth of the check. Only short strings are kept (32 K characters at most). The middle
 * character is in the slot because ids of one length (a task's id and its context's, those of
 * the tasks running alongside) share their last character one time in 16: with the last alone,
 * an echo task ran the check 9.6 times (12.1 with 50 tasks at a time), now 7.1 (9.2), about the
 * number of its strings that are new (ids, timestamps, texts).
 */
const PROVEN: string[] = new Array<string>(256).fill('');
const PROVEN_MAX_LENGTH = 128;

function slot(s: string): number {
  const n = s.length;
  return n === 0 ? 0 : (n + s.charCodeAt(n - 1) * 7 + s.charCodeAt(n >> 1) * 31) & 255;
}

/** A string that is its own form in quotes (`"${s}"`): the fast paths below write it so. */
function plain(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  if (v.length > PROVEN_MAX_LENGTH) return PLAIN_STRING.test(v);
  const i = slot(v);
  if (PROVEN[i] === v) return true;
  if (!PLAIN_STRING.test(v)) return false;
  PROVEN[i] = v;
  return true;
}

/**
 * Notes a link's hash (URL-safe base64: plain by construction, never checked) as plain: it is the
 * next link's `prev`. Only for sha256Base64Url's output (audit-chain.ts).
 */
export function notePlainHash(hash: string): void {
  PROVEN[slot(hash)] = hash;
}

/** `"s"`, or the general form when `s` needs escapes or is not a string. */
function str(v: unknown, depth: number): string {
  return plain(v) ? `"${v}"` : canonicalizeAt(v, depth);
}

/** Absent, or a boolean (`append`, `lastChunk`). */
function flag(v: unknown): v is boolean | undefined {
  return v === undefined || typeof v === 'boolean';
}

/** Absent, or a string written as itself (`plain`). */
function optional(v: unknown): v is string | undefined {
  return v === undefined || plain(v);
}

/** The members written so far plus one more (`name` is `"key":`). */
function add(out: string, name: string, text: string): string {
  return out.length > 1 ? `${out},${name}${text}` : out + name + text;
}

/** `[…]` of `items`, each written by `item`; the general form for anything but an array. */
function list(v: unknown, depth: number, item: (v: unknown, depth: number) => string): string {
  if (!Array.isArray(v)) return canonicalizeAt(v, depth);
  if (v.length === 1) return '[' + item(v[0], depth + 1) + ']';
  let out = '[';
  for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + item(v[i], depth + 1);
  return out + ']';
}

const strs = (v: unknown, depth: number): string => list(v, depth, str);

/** The canonical text of link `{ event, prev, seq }`: `canonicalize({ event, prev, seq })`. */
export function canonicalLink(prev: unknown, seq: unknown, event: unknown): string {
  if (event === undefined || prev === undefined || seq === undefined || !unpolluted()) {
    return canonicalize({ event, prev, seq });
  }
  return linkAround(prev, seq, streamResponse(event, 1));
}

/**
 * The canonical text of a link's event, as {@link canonicalLink} writes it for its `event`
 * member (`canonicalize(event)`, valid JSON of the same value as `JSON.stringify(event)`); a
 * store may keep it as the event's JSON (CreateOptions.texts). Undefined where canonicalLink
 * takes the general path; throws JcsError as it does.
 */
export function canonicalEvent(event: unknown): string | undefined {
  return event === undefined || !unpolluted() ? undefined : streamResponse(event, 1);
}

/** Where a link's event text starts in {@link linkAround}'s text: after `{"event":`. */
const EVENT_AT = '{"event":'.length;

/** The event's text (of `length` characters) in a link's text written by {@link linkAround}. */
export function eventInLink(link: string, length: number): string {
  return link.slice(EVENT_AT, EVENT_AT + length);
}

/** The link's text around its event's canonical text `e` (canonicalEvent's). */
export function linkAround(prev: unknown, seq: unknown, e: string): string {
  const n = typeof seq === 'number' && Number.isFinite(seq) ? String(seq) : canonicalizeAt(seq, 1);
  // Each fast path writes a string's quotes with the text around it: half the concatenations.
  if (plain(prev)) return '{"event":' + e + ',"prev":"' + prev + '","seq":' + n + '}';
  return `{"event":${e},"prev":${str(prev, 1)},"seq":${n}}`;
}

/**
 * The canonical text of a message: `canonicalize(message)`, written by the same fast path (the
 * message fingerprint of server/fingerprint.ts, one per incoming message).
 */
export function canonicalMessage(message: unknown): string {
  return unpolluted() ? msg(message, 0) : canonicalize(message);
}

function streamResponse(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let artifactUpdate, message, statusUpdate, task: unknown;
  for (const k in v) {
    if (k === 'statusUpdate') statusUpdate = v[k];
    else if (k === 'artifactUpdate') artifactUpdate = v[k];
    else if (k === 'task') task = v[k];
    else if (k === 'message') message = v[k];
    else return canonicalizeAt(v, d);
  }
  // One payload (spec §3.1.6: it is a oneof): no separator to decide.
  if (artifactUpdate === undefined && message === undefined && task === undefined) {
    if (statusUpdate !== undefined)
      return '{"statusUpdate":' + statusUpdateEvent(statusUpdate, d + 1) + '}';
  } else if (artifactUpdate === undefined && message === undefined && statusUpdate === undefined) {
    return '{"task":' + taskObject(task, d + 1) + '}';
  } else if (message === undefined && statusUpdate === undefined && task === undefined) {
    return '{"artifactUpdate":' + artifactUpdateEvent(artifactUpdate, d + 1) + '}';
  }
  let out = '{';
  if (artifactUpdate !== undefined)
    out = add(out, '"artifactUpdate":', artifactUpdateEvent(artifactUpdate, d + 1));
  if (message !== undefined) out = add(out, '"message":', msg(message, d + 1));
  if (statusUpdate !== undefined)
    out = add(out, '"statusUpdate":', statusUpdateEvent(statusUpdate, d + 1));
  if (task !== undefined) out = add(out, '"task":', taskObject(task, d + 1));
  return out + '}';
}

function statusUpdateEvent(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let contextId, generation, metadata, status, taskId: unknown;
  for (const k in v) {
    switch (k) {
      case 'taskId':
        taskId = v[k];
        break;
      case 'contextId':
        contextId = v[k];
        break;
      case 'status':
        status = v[k];
        break;
      case 'metadata':
        metadata = v[k];
        break;
      case 'generation':
        generation = v[k];
        break;
      default:
        return canonicalizeAt(v, d);
    }
  }
  if (generation === undefined && metadata === undefined && status !== undefined) {
    if (plain(contextId) && plain(taskId)) {
      return (
        '{"contextId":"' +
        contextId +
        '","status":' +
        taskStatus(status, d + 1) +
        ',"taskId":"' +
        taskId +
        '"}'
      );
    }
  }
  let out = '{';
  if (contextId !== undefined) out = add(out, '"contextId":', str(contextId, d + 1));
  if (generation !== undefined) out = add(out, '"generation":', canonicalizeAt(generation, d + 1));
  if (metadata !== undefined) out = add(out, '"metadata":', canonicalizeAt(metadata, d + 1));
  if (status !== undefined) out = add(out, '"status":', taskStatus(status, d + 1));
  if (taskId !== undefined) out = add(out, '"taskId":', str(taskId, d + 1));
  return out + '}';
}

function artifactUpdateEvent(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let append, artifact, contextId, generation, lastChunk, metadata, taskId: unknown;
  for (const k in v) {
    switch (k) {
      case 'taskId':
        taskId = v[k];
        break;
      case 'contextId':
        contextId = v[k];
        break;
      case 'artifact':
        artifact = v[k];
        break;
      case 'append':
        append = v[k];
        break;
      case 'lastChunk':
        lastChunk = v[k];
        break;
      case 'metadata':
        metadata = v[k];
        break;
      case 'generation':
        generation = v[k];
        break;
      default:
        return canonicalizeAt(v, d);
    }
  }
  if (metadata === undefined && generation === undefined && artifact !== undefined) {
    if (plain(contextId) && plain(taskId) && flag(append) && flag(lastChunk)) {
      const flags =
        (append === true ? '{"append":true,' : append === false ? '{"append":false,' : '{') +
        '"artifact":' +
        artifactObject(artifact, d + 1) +
        ',"contextId":"' +
        contextId;
      if (lastChunk === undefined) return flags + '","taskId":"' + taskId + '"}';
      return flags + '","lastChunk":' + String(lastChunk) + ',"taskId":"' + taskId + '"}';
    }
  }
  let out = '{';
  if (append !== undefined) out = add(out, '"append":', canonicalizeAt(append, d + 1));
  if (artifact !== undefined) out = add(out, '"artifact":', artifactObject(artifact, d + 1));
  if (contextId !== undefined) out = add(out, '"contextId":', str(contextId, d + 1));
  if (generation !== undefined) out = add(out, '"generation":', canonicalizeAt(generation, d + 1));
  if (lastChunk !== undefined) out = add(out, '"lastChunk":', canonicalizeAt(lastChunk, d + 1));
  if (metadata !== undefined) out = add(out, '"metadata":', canonicalizeAt(metadata, d + 1));
  if (taskId !== undefined) out = add(out, '"taskId":', str(taskId, d + 1));
  return out + '}';
}

function taskObject(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let artifacts, contextId, generation, history, id, metadata, status: unknown;
  for (const k in v) {
    switch (k) {
      case 'id':
        id = v[k];
        break;
      case 'contextId':
        contextId = v[k];
        break;
      case 'status':
        status = v[k];
        break;
      case 'history':
        history = v[k];
        break;
      case 'artifacts':
        artifacts = v[k];
        break;
      case 'metadata':
        metadata = v[k];
        break;
      case 'generation':
        generation = v[k];
        break;
      default:
        return canonicalizeAt(v, d);
    }
  }
  if (generation === undefined && metadata === undefined && status !== undefined) {
    if (plain(contextId) && plain(id)) {
      return (
        (artifacts === undefined
          ? '{"contextId":"'
          : '{"artifacts":' + list(artifacts, d + 1, artifactObject) + ',"contextId":"') +
        contextId +
        (history === undefined
          ? '","id":"'
          : '","history":' + list(history, d + 1, msg) + ',"id":"') +
        id +
        '","status":' +
        taskStatus(status, d + 1) +
        '}'
      );
    }
  }
  let out = '{';
  if (artifacts !== undefined)
    out = add(out, '"artifacts":', list(artifacts, d + 1, artifactObject));
  if (contextId !== undefined) out = add(out, '"contextId":', str(contextId, d + 1));
  if (generation !== undefined) out = add(out, '"generation":', canonicalizeAt(generation, d + 1));
  if (history !== undefined) out = add(out, '"history":', list(history, d + 1, msg));
  if (id !== undefined) out = add(out, '"id":', str(id, d + 1));
  if (metadata !== undefined) out = add(out, '"metadata":', canonicalizeAt(metadata, d + 1));
  if (status !== undefined) out = add(out, '"status":', taskStatus(status, d + 1));
  return out + '}';
}

function taskStatus(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let message, state, timestamp: unknown;
  for (const k in v) {
    if (k === 'state') state = v[k];
    else if (k === 'timestamp') timestamp = v[k];
    else if (k === 'message') message = v[k];
    else return canonicalizeAt(v, d);
  }
  if (message === undefined && plain(state)) {
    if (plain(timestamp)) return '{"state":"' + state + '","timestamp":"' + timestamp + '"}';
    if (timestamp === undefined) return '{"state":"' + state + '"}';
  }
  let out = '{';
  if (message !== undefined) out = add(out, '"message":', msg(message, d + 1));
  if (state !== undefined) out = add(out, '"state":', str(state, d + 1));
  if (timestamp !== undefined) out = add(out, '"timestamp":', str(timestamp, d + 1));
  return out + '}';
}

function msg(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let contextId, extensions, messageId, metadata, parts, referenceTaskIds, role, taskId: unknown;
  for (const k in v) {
    switch (k) {
      case 'messageId':
        messageId = v[k];
        break;
      case 'contextId':
        contextId = v[k];
        break;
      case 'taskId':
        taskId = v[k];
        break;
      case 'role':
        role = v[k];
        break;
      case 'parts':
        parts = v[k];
        break;
      case 'metadata':
        metadata = v[k];
        break;
      case 'extensions':
        extensions = v[k];
        break;
      case 'referenceTaskIds':
        referenceTaskIds = v[k];
        break;
      default:
        return canonicalizeAt(v, d);
    }
  }
  if (extensions === undefined && metadata === undefined && referenceTaskIds === undefined) {
    if (
      plain(messageId) &&
      plain(role) &&
      parts !== undefined &&
      optional(contextId) &&
      optional(taskId)
    ) {
      return (
        (contextId === undefined
          ? '{"messageId":"'
          : '{"contextId":"' + contextId + '","messageId":"') +
        messageId +
        '","parts":' +
        list(parts, d + 1, part) +
        ',"role":"' +
        role +
        (taskId === undefined ? '"}' : '","taskId":"' + taskId + '"}')
      );
    }
  }
  let out = '{';
  if (contextId !== undefined) out = add(out, '"contextId":', str(contextId, d + 1));
  if (extensions !== undefined) out = add(out, '"extensions":', strs(extensions, d + 1));
  if (messageId !== undefined) out = add(out, '"messageId":', str(messageId, d + 1));
  if (metadata !== undefined) out = add(out, '"metadata":', canonicalizeAt(metadata, d + 1));
  if (parts !== undefined) out = add(out, '"parts":', list(parts, d + 1, part));
  if (referenceTaskIds !== undefined)
    out = add(out, '"referenceTaskIds":', strs(referenceTaskIds, d + 1));
  if (role !== undefined) out = add(out, '"role":', str(role, d + 1));
  if (taskId !== undefined) out = add(out, '"taskId":', str(taskId, d + 1));
  return out + '}';
}

function artifactObject(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let artifactId, description, extensions, metadata, name, parts: unknown;
  for (const k in v) {
    switch (k) {
      case 'artifactId':
        artifactId = v[k];
        break;
      case 'name':
        name = v[k];
        break;
      case 'description':
        description = v[k];
        break;
      case 'parts':
        parts = v[k];
        break;
      case 'metadata':
        metadata = v[k];
        break;
      case 'extensions':
        extensions = v[k];
        break;
      default:
        return canonicalizeAt(v, d);
    }
  }
  if (description === undefined && extensions === undefined && metadata === undefined) {
    if (plain(artifactId) && optional(name) && parts !== undefined) {
      return (
        '{"artifactId":"' +
        artifactId +
        (name === undefined ? '","parts":' : '","name":"' + name + '","parts":') +
        list(parts, d + 1, part) +
        '}'
      );
    }
  }
  let out = '{';
  if (artifactId !== undefined) out = add(out, '"artifactId":', str(artifactId, d + 1));
  if (description !== undefined) out = add(out, '"description":', str(description, d + 1));
  if (extensions !== undefined) out = add(out, '"extensions":', strs(extensions, d + 1));
  if (metadata !== undefined) out = add(out, '"metadata":', canonicalizeAt(metadata, d + 1));
  if (name !== undefined) out = add(out, '"name":', str(name, d + 1));
  if (parts !== undefined) out = add(out, '"parts":', list(parts, d + 1, part));
  return out + '}';
}

function part(v: unknown, d: number): string {
  if (!isPlain(v)) return canonicalizeAt(v, d);
  let data, filename, mediaType, metadata, raw, text, url: unknown;
  for (const k in v) {
    switch (k) {
      case 'text':
        text = v[k];
        break;
      case 'data':
        data = v[k];
        break;
      case 'raw':
        raw = v[k];
        break;
      case 'url':
        url = v[k];
        break;
      case 'mediaType':
        mediaType = v[k];
        break;
      case 'filename':
        filename = v[k];
        break;
      case 'metadata':
        metadata = v[k];
        break;
      default:
        return canonicalizeAt(v, d);
    }
  }
  if (data === undefined && filename === undefined && mediaType === undefined) {
    if (metadata === undefined && raw === undefined && url === undefined && plain(text))
      return '{"text":"' + text + '"}';
  }
  let out = '{';
  if (data !== undefined) out = add(out, '"data":', canonicalizeAt(data, d + 1));
  if (filename !== undefined) out = add(out, '"filename":', str(filename, d + 1));
  if (mediaType !== undefined) out = add(out, '"mediaType":', str(mediaType, d + 1));
  if (metadata !== undefined) out = add(out, '"metadata":', canonicalizeAt(metadata, d + 1));
  if (raw !== undefined) out = add(out, '"raw":', str(raw, d + 1));
  if (text !== undefined) out = add(out, '"text":', str(text, d + 1));
  if (url !== undefined) out = add(out, '"url":', str(url, d + 1));
  return out + '}';
}
