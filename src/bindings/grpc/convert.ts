/**
 * Proto messages ⇄ our ProtoJSON domain objects, driven by the loaded descriptors (so it cannot
 * drift from `proto/a2a.proto`). Domain objects never see Buffers, `{seconds, nanos}`, Struct
 * wrappers, virtual oneof keys or proto defaults:
 * - enums travel by name; `*_UNSPECIFIED` / 0 reads as "not set";
 * - `bytes` are base64 in the domain (standard or URL-safe in, standard with padding out);
 * - fields without explicit presence drop their default (`""`, 0, false, empty list or map),
 *   while `optional` fields and oneof members keep whatever was sent, defaults included;
 * - fields the spec marks REQUIRED come back with their default when absent, so validation names
 *   them.
 */
import { PROTO_PACKAGE } from './wire.js';
import { proto, type FieldSpec, type ProtoObject } from './proto.js';
import {
  LIST_VALUE,
  STRUCT,
  TIMESTAMP,
  VALUE,
  listFromProto,
  structFromProto,
  structToProto,
  timestampFromProto,
  timestampToProto,
  valueFromProto,
  valueToProto,
} from './well-known.js';

/** The fully qualified name of an A2A message (`Task` → `lf.a2a.v1.Task`). */
export function a2aType(name: string): string {
  return name.includes('.') ? name : `${PROTO_PACKAGE}.${name}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A domain object (ProtoJSON shape) as a proto-loader object of message `type`. */
export function toProto(type: string, value: unknown, path = ''): ProtoObject {
  const spec = proto().message(a2aType(type));
  const out: ProtoObject = {};
  if (!isRecord(value)) return out;
  for (const field of spec.fields) {
    const item = value[field.json];
    if (item === undefined) continue;
    if (item === null && !(field.kind === 'message' && field.type === VALUE)) continue;
    const converted = fieldToProto(field, item, path ? `${path}.${field.json}` : field.json);
    if (converted !== undefined) out[field.key] = converted;
  }
  return out;
}

function fieldToProto(field: FieldSpec, item: unknown, path: string): unknown {
  if (field.kind === 'map') {
    const entry = field.value;
    if (!isRecord(item) || !entry) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(item)) {
      if (v !== undefined) out[key] = singleToProto(entry, v, `${path}.${key}`);
    }
    return out;
  }
  if (field.repeated) {
    return Array.isArray(item)
      ? item.map((v, i) => singleToProto(field, v, `${path}.${i}`))
      : undefined;
  }
  return singleToProto(field, item, path);
}

function singleToProto(field: FieldSpec, item: unknown, path: string): unknown {
  switch (field.kind) {
    case 'message':
      return messageToProto(field.type ?? '', item, path);
    case 'bytes':
      return Buffer.from(typeof item === 'string' ? item : '', 'base64');
    case 'enum':
    case 'scalar':
    case 'map':
      return item;
  }
}

function messageToProto(type: string, item: unknown, path: string): unknown {
  switch (type) {
    case STRUCT:
      return structToProto(isRecord(item) ? item : {});
    case VALUE:
      return valueToProto(item);
    case LIST_VALUE:
      return { values: Array.isArray(item) ? item.map(valueToProto) : [] };
    case TIMESTAMP:
      return timestampToProto(item, path);
    default:
      return toProto(type, item, path);
  }
}

/** A proto-loader object of message `type` as a domain object (ProtoJSON shape), unvalidated. */
export function fromProto(type: string, value: unknown): Record<string, unknown> {
  const spec = proto().message(a2aType(type));
  const source = isRecord(value) ? value : {};
  const out: Record<string, unknown> = {};
  for (const field of spec.fields) {
    const item = source[field.key];
    // A set `optional` field or oneof member shows up as the value of its (virtual) oneof key.
    const explicit = spec.oneofs.some((oneof) => source[oneof] === field.key);
    const converted =
      item === undefined || item === null ? undefined : fieldFromProto(field, item, explicit);
    if (converted !== undefined) out[field.json] = converted;
    else if (field.required) {
      const fallback = defaultOf(field);
      if (fallback !== undefined) out[field.json] = fallback;
    }
  }
  return out;
}

function fieldFromProto(field: FieldSpec, item: unknown, explicit: boolean): unknown {
  if (field.kind === 'map') {
    const entry = field.value;
    if (!isRecord(item) || !entry) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(item)) out[key] = singleFromProto(entry, v, true);
    return Object.keys(out).length > 0 ? out : undefined;
  }
  if (field.repeated) {
    if (!Array.isArray(item) || item.length === 0) return undefined;
    return item.map((v) => singleFromProto(field, v, true));
  }
  return singleFromProto(field, item, explicit);
}

function singleFromProto(field: FieldSpec, item: unknown, keepDefault: boolean): unknown {
  switch (field.kind) {
    case 'message':
      return messageFromProto(field.type ?? '', item);
    case 'bytes': {
      const bytes = item instanceof Uint8Array ? Buffer.from(item) : Buffer.alloc(0);
      return bytes.length === 0 && !keepDefault ? undefined : bytes.toString('base64');
    }
    case 'enum':
      return item === 0 || (typeof item === 'string' && item.endsWith('_UNSPECIFIED'))
        ? undefined
        : item;
    case 'scalar':
    case 'map':
      return !keepDefault && (item === '' || item === 0 || item === false) ? undefined : item;
  }
}

function messageFromProto(type: string, item: unknown): unknown {
  switch (type) {
    case STRUCT:
      return structFromProto(item);
    case VALUE:
      return valueFromProto(item);
    case LIST_VALUE:
      return listFromProto(item);
    case TIMESTAMP:
      return timestampFromProto(item);
    default:
      return fromProto(type, item);
  }
}

function defaultOf(field: FieldSpec): unknown {
  if (field.kind === 'map') return {};
  if (field.repeated) return [];
  switch (field.kind) {
    case 'message':
      return field.type === STRUCT ? {} : fromProto(field.type ?? '', {});
    case 'bytes':
    case 'scalar':
      return field.zero;
    case 'enum':
      return undefined;
  }
}

/** A domain object serialized as message `type` (binary protobuf). */
export function encodeMessage(type: string, value: unknown): Buffer {
  return proto().message(a2aType(type)).serialize(toProto(type, value));
}

/** Binary protobuf of message `type` as a domain object (unvalidated). */
export function decodeMessage(type: string, bytes: Uint8Array): Record<string, unknown> {
  return fromProto(type, proto().message(a2aType(type)).deserialize(Buffer.from(bytes)));
}
