/**
 * The common SendMessage request checked by hand: a user message of text parts, with optional
 * tenant, taskId, contextId, metadata and a configuration of accepted output modes and
 * `returnImmediately` (what most clients and the 0.3 converters send), all members in camelCase. For such a request this
 * returns exactly what the Zod schema (`SendMessageRequest` of requests.ts) returns: new objects
 * with the members in the schema's order, the same strings, metadata copied one level as
 * `z.record` copies it. Anything else (another part kind, a push config or history length in the
 * configuration, snake_case names, a
 * value the schema would refuse or convert) returns undefined, and the caller parses with Zod,
 * which also names what is wrong. Zod's parse allocated about 3 KB per echo request (a result per
 * member); this allocates the output only. send-message-fast.test.ts checks it against the schema
 * with fast-check.
 */
import type { SendMessageRequest } from './requests.js';
import { MAX_ID_LENGTH } from './proto-json.js';

type Json = Record<string, unknown>;

/** A plain object (JSON.parse's kind): anything else is left to Zod. */
function record(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

const id = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_ID_LENGTH;

/** The parsed request, or undefined when it is not the common case (then parse with Zod). */
export function fastSendMessageRequest(input: unknown): SendMessageRequest | undefined {
  if (!record(input)) return undefined;
  let tenant: unknown, message: unknown, configuration: unknown, metadata: unknown;
  for (const key in input) {
    const v = input[key];
    // A member present as undefined is kept as such by the schema: left to it.
    if (v === undefined) return undefined;
    if (key === 'message') message = v;
    else if (key === 'tenant') tenant = v;
    else if (key === 'configuration') configuration = v;
    else if (key === 'metadata') metadata = v;
    // Unknown members are dropped by the schema, but a snake_case one may be renamed.
    else if (key.includes('_')) return undefined;
  }
  if (tenant !== undefined && !id(tenant)) return undefined;
  const m = userMessage(message);
  if (m === undefined) return undefined;
  const config = configuration === undefined ? undefined : sendConfiguration(configuration);
  if (configuration !== undefined && config === undefined) return undefined;
  const meta = metadata === undefined ? undefined : struct(metadata);
  if (metadata !== undefined && meta === undefined) return undefined;
  const out: Json = {};
  if (tenant !== undefined) out['tenant'] = tenant;
  out['message'] = m;
  if (config !== undefined) out['configuration'] = config;
  if (meta !== undefined) out['metadata'] = meta;
  return out as SendMessageRequest;
}

function userMessage(v: unknown): Json | undefined {
  if (!record(v)) return undefined;
  let messageId: unknown, contextId: unknown, taskId: unknown, role: unknown, parts: unknown;
  let metadata: unknown;
  for (const key in v) {
    const member = v[key];
    if (member === undefined) return undefined;
    switch (key) {
      case 'messageId':
        messageId = member;
        break;
      case 'contextId':
        contextId = member;
        break;
      case 'taskId':
        taskId = member;
        break;
      case 'role':
        role = member;
        break;
      case 'parts':
        parts = member;
        break;
      case 'metadata':
        metadata = member;
        break;
      default:
        if (key.includes('_')) return undefined;
        if (key === 'extensions' || key === 'referenceTaskIds') return undefined;
    }
  }
  if (!id(messageId) || messageId.length === 0 || role !== 'ROLE_USER') return undefined;
  if (contextId !== undefined && !id(contextId)) return undefined;
  if (taskId !== undefined && !id(taskId)) return undefined;
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  const outParts: Json[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = textPart(parts[i]);
    if (part === undefined) return undefined;
    outParts.push(part);
  }
  const meta = metadata === undefined ? undefined : struct(metadata);
  if (metadata !== undefined && meta === undefined) return undefined;
  const out: Json = { messageId };
  if (contextId !== undefined) out['contextId'] = contextId;
  if (taskId !== undefined) out['taskId'] = taskId;
  out['role'] = role;
  out['parts'] = outParts;
  if (meta !== undefined) out['metadata'] = meta;
  return out;
}

/** `acceptedOutputModes` (strings) and `returnImmediately` only; anything else is Zod's. */
function sendConfiguration(v: unknown): Json | undefined {
  if (!record(v)) return undefined;
  let modes: unknown, immediately: unknown;
  for (const key in v) {
    const member = v[key];
    if (member === undefined) return undefined;
    if (key === 'acceptedOutputModes') modes = member;
    else if (key === 'returnImmediately') immediately = member;
    else return undefined;
  }
  if (immediately !== undefined && typeof immediately !== 'boolean') return undefined;
  const out: Json = {};
  if (modes !== undefined) {
    if (!Array.isArray(modes)) return undefined;
    const copy: string[] = [];
    for (let i = 0; i < modes.length; i++) {
      const mode: unknown = modes[i];
      if (typeof mode !== 'string') return undefined;
      copy.push(mode);
    }
    out['acceptedOutputModes'] = copy;
  }
  if (immediately !== undefined) out['returnImmediately'] = immediately;
  return out;
}

/** `{text}` only (other members and kinds are left to Zod). */
function textPart(v: unknown): Json | undefined {
  if (!record(v)) return undefined;
  let text: unknown;
  for (const key in v) {
    if (key === 'text') text = v[key];
    else return undefined;
  }
  return typeof text === 'string' ? { text } : undefined;
}

/** google.protobuf.Struct as `z.record(z.string(), z.unknown())` gives it: a copy, one level. */
function struct(v: unknown): Json | undefined {
  if (!record(v)) return undefined;
  const out: Json = {};
  for (const key in v) {
    const member = v[key];
    // z.record leaves out nothing, but a member named like this is a special case for it.
    if (member === undefined || key === '__proto__') return undefined;
    out[key] = member;
  }
  return out;
}
