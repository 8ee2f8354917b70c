/**
 * ProtoJSON ↔ the plain objects @grpc/proto-loader serializes, driven by the descriptors of our
 * proto files. Written for the conformance suite independently of src/bindings/grpc: strict on
 * the way out (a field or value protobuf cannot carry is a bug in the test, thrown), and on the
 * way in the ProtoJSON a client would print (well-known types in JSON form, enum names, base64).
 */
import { fileURLToPath } from 'node:url';
import { loadSync, type MessageTypeDefinition, type PackageDefinition } from '@grpc/proto-loader';
import { MalformedReply, isRecord } from './wire.js';

/** Loader options: camelCase keys, enum names, base64 bytes, no defaults, no virtual oneofs. */
const OPTIONS = {
  keepCase: false,
  longs: Number,
  enums: String,
  bytes: String,
  defaults: false,
  oneofs: false,
} as const;

const FILES = ['a2a.proto', 'google/rpc/status.proto', 'google/rpc/error_details.proto'];

/** The proto package of A2A 1.0 (spec §10). */
export const PACKAGE = 'lf.a2a.v1';

/**
 * Oneofs of request messages (spec §4.1.6: a Part carries exactly one content), which protobuf
 * cannot carry twice: the encoder refuses a request that sets two members.
 */
const ONEOFS: Readonly<Record<string, readonly string[]>> = {
  [`${PACKAGE}.Part`]: ['text', 'raw', 'url', 'data'],
};

/**
 * Fields the spec makes REQUIRED that proto3 cannot mark present when they hold their default
 * (spec §3.1.4: every ListTasksResponse field is always present): restored after decoding.
 */
const ALWAYS_PRESENT: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  [`${PACKAGE}.ListTasksResponse`]: { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 },
};

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}

interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
  options: { mapEntry?: boolean } | null;
}

type Kind =
  | { kind: 'scalar'; type: string }
  | { kind: 'bytes' }
  | { kind: 'enum'; names: ReadonlySet<string> }
  | { kind: 'message'; type: string; descriptor: MessageDescriptor }
  | { kind: 'map'; value: Kind };

/** A message of the loaded files: descriptor and codec. */
export type Definition = MessageTypeDefinition<object, object>;

let loaded: PackageDefinition | undefined;
let nested: Map<string, MessageDescriptor> | undefined;

/** The loaded proto files (once). */
export function protoDefinition(): PackageDefinition {
  loaded ??= loadSync(FILES, {
    ...OPTIONS,
    includeDirs: [fileURLToPath(new URL('../../proto/', import.meta.url))],
  });
  return loaded;
}

function topLevel(name: string): MessageDescriptor | undefined {
  const entry = protoDefinition()[name];
  if (!entry || !('format' in entry) || entry.format !== 'Protocol Buffer 3 DescriptorProto')
    return undefined;
  return entry.type as MessageDescriptor;
}

/** Messages declared inside others (google.rpc.BadRequest.FieldViolation), by full name. */
function nestedMessages(): Map<string, MessageDescriptor> {
  if (nested) return nested;
  const found = new Map<string, MessageDescriptor>();
  const visit = (name: string, d: MessageDescriptor) => {
    for (const inner of d.nestedType) {
      if (inner.options?.mapEntry) continue;
      found.set(`${name}.${inner.name}`, inner);
      visit(`${name}.${inner.name}`, inner);
    }
  };
  for (const name of Object.keys(protoDefinition())) {
    const d = topLevel(name);
    if (d) visit(name, d);
  }
  nested = found;
  return found;
}

function messageDescriptor(name: string): MessageDescriptor {
  const found = topLevel(name) ?? nestedMessages().get(name);
  if (!found) throw new Error(`no proto message ${name}`);
  return found;
}

/** A proto message codec of the loaded files. */
export function messageType(name: string): Definition {
  messageDescriptor(name);
  return protoDefinition()[name] as Definition;
}

/** Resolves a type name as protobuf scoping does: innermost scope first. */
function resolve(scope: string, typeName: string): string {
  const parts = scope.split('.');
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), typeName].join('.');
    if (protoDefinition()[candidate] ?? nestedMessages().get(candidate)) return candidate;
  }
  throw new Error(`cannot resolve ${typeName} from ${scope}`);
}

function kindOf(scope: string, parent: MessageDescriptor, field: FieldDescriptor): Kind {
  if (field.type === 'TYPE_BYTES') return { kind: 'bytes' };
  if (field.type === 'TYPE_ENUM') {
    const entry = protoDefinition()[resolve(scope, field.typeName)];
    const values = (entry as { type: { value: { name: string }[] } }).type.value;
    return { kind: 'enum', names: new Set(values.map((v) => v.name)) };
  }
  if (field.type !== 'TYPE_MESSAGE') return { kind: 'scalar', type: field.type };
  const nested = parent.nestedType.find((n) => n.name === field.typeName);
  if (nested?.options?.mapEntry) {
    const value = nested.field.find((f) => f.name === 'value');
    if (!value) throw new Error(`map entry ${field.typeName} has no value`);
    return { kind: 'map', value: kindOf(scope, nested, value) };
  }
  const type = resolve(scope, field.typeName);
  return { kind: 'message', type, descriptor: messageDescriptor(type) };
}

function fieldsOf(type: string, descriptor: MessageDescriptor) {
  return new Map(
    descriptor.field.map((f) => [
      f.name,
      { repeated: f.label === 'LABEL_REPEATED', kind: kindOf(type, descriptor, f) },
    ]),
  );
}

// ---------------------------------------------------------------- ProtoJSON → proto-loader

/** A request in ProtoJSON as the object proto-loader serializes; throws what protobuf cannot say. */
export function encode(type: string, json: unknown, path = type): Record<string, unknown> {
  if (!isRecord(json)) throw new Error(`${path}: a ${type} must be a JSON object`);
  const fields = fieldsOf(type, messageDescriptor(type));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    if (value === undefined) continue;
    const field = fields.get(key);
    if (!field) throw new Error(`${path}.${key}: ${type} has no such field (gRPC cannot send it)`);
    const at = `${path}.${key}`;
    if (field.repeated && field.kind.kind !== 'map') {
      if (!Array.isArray(value)) throw new Error(`${at}: a repeated field needs an array`);
      out[key] = value.map((item, i) => encodeValue(field.kind, item, `${at}[${i}]`));
    } else out[key] = encodeValue(field.kind, value, at);
  }
  const members = (ONEOFS[type] ?? []).filter((m) => m in out);
  if (members.length > 1) throw new Error(`${path}: protobuf carries one of ${members.join(', ')}`);
  return out;
}

function encodeValue(kind: Kind, value: unknown, path: string): unknown {
  switch (kind.kind) {
    case 'scalar':
      return scalar(kind.type, value, path);
    case 'bytes':
      if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
        throw new Error(`${path}: bytes must be standard base64 (gRPC sends raw bytes)`);
      return Buffer.from(value, 'base64');
    case 'enum':
      if (typeof value === 'string' && kind.names.has(value)) return value;
      if (Number.isInteger(value)) return value; // an unknown number is legal on the wire
      throw new Error(`${path}: ${JSON.stringify(value)} is not a value of the enum`);
    case 'map': {
      if (!isRecord(value)) throw new Error(`${path}: a map needs a JSON object`);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value))
        out[k] = encodeValue(kind.value, v, `${path}.${k}`);
      return out;
    }
    case 'message':
      return encodeMessage(kind.type, value, path);
  }
}

function scalar(type: string, value: unknown, path: string): unknown {
  const ok =
    type === 'TYPE_STRING'
      ? typeof value === 'string'
      : type === 'TYPE_BOOL'
        ? typeof value === 'boolean'
        : type === 'TYPE_DOUBLE' || type === 'TYPE_FLOAT'
          ? typeof value === 'number'
          : Number.isInteger(value);
  if (!ok) throw new Error(`${path}: ${JSON.stringify(value)} does not fit ${type}`);
  return value;
}

function encodeMessage(type: string, value: unknown, path: string): unknown {
  switch (type) {
    case 'google.protobuf.Struct':
      if (!isRecord(value)) throw new Error(`${path}: a Struct must be a JSON object`);
      return structOut(value);
    case 'google.protobuf.Value':
      return valueOut(value);
    case 'google.protobuf.Timestamp': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(ms)) throw new Error(`${path}: a Timestamp must be an RFC 3339 string`);
      const seconds = Math.floor(ms / 1000);
      return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
    }
    default:
      return encode(type, value, path);
  }
}

function structOut(value: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) fields[k] = valueOut(v);
  return { fields };
}

function valueOut(value: unknown): Record<string, unknown> {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(valueOut) } };
  if (isRecord(value)) return { structValue: structOut(value) };
  throw new Error(`${JSON.stringify(value)} has no JSON form`);
}

// ---------------------------------------------------------------- proto-loader → ProtoJSON

/** A decoded message as ProtoJSON; a well-known type without a valid form is a MalformedReply. */
export function decode(type: string, value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new MalformedReply(`${type} is not a message`);
  const fields = fieldsOf(type, messageDescriptor(type));
  const out: Record<string, unknown> = { ...ALWAYS_PRESENT[type] };
  for (const [key, item] of Object.entries(value)) {
    const field = fields.get(key);
    if (!field) throw new MalformedReply(`${type} decoded with unknown key ${key}`);
    out[key] =
      field.repeated && field.kind.kind !== 'map'
        ? (item as unknown[]).map((v) => decodeValue(field.kind, v))
        : decodeValue(field.kind, item);
  }
  return out;
}

function decodeValue(kind: Kind, value: unknown): unknown {
  if (kind.kind === 'map' && isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = decodeValue(kind.value, v);
    return out;
  }
  if (kind.kind !== 'message') return value;
  switch (kind.type) {
    case 'google.protobuf.Struct':
      return structIn(value);
    case 'google.protobuf.Value':
      return valueIn(value);
    case 'google.protobuf.Timestamp':
      return timestampIn(value);
    default:
      return decode(kind.type, value);
  }
}

function structIn(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = isRecord(value) && isRecord(value.fields) ? value.fields : {};
  for (const [k, v] of Object.entries(fields)) out[k] = valueIn(v);
  return out;
}

function valueIn(value: unknown): unknown {
  if (!isRecord(value)) throw new MalformedReply('google.protobuf.Value is not a message');
  if ('nullValue' in value) return null;
  if ('numberValue' in value) return value.numberValue;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('structValue' in value) return structIn(value.structValue);
  if ('listValue' in value) {
    const values = isRecord(value.listValue) ? value.listValue.values : undefined;
    return Array.isArray(values) ? values.map(valueIn) : [];
  }
  throw new MalformedReply('google.protobuf.Value without a kind');
}

/** ProtoJSON of a Timestamp: UTC `Z`, 3 fraction digits, or 9 when it is finer than that. */
function timestampIn(value: unknown): string {
  const seconds = isRecord(value) ? Number(value.seconds ?? 0) : Number.NaN;
  const nanos = isRecord(value) ? Number(value.nanos ?? 0) : 0;
  const base = new Date(seconds * 1000);
  if (Number.isNaN(base.getTime())) throw new MalformedReply('Timestamp out of range');
  const fraction =
    nanos % 1_000_000 === 0
      ? String(nanos / 1_000_000).padStart(3, '0')
      : String(nanos).padStart(9, '0');
  return base.toISOString().replace(/\.\d{3}Z$/, `.${fraction}Z`);
}
