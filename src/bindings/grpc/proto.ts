/**
 * Loads our `proto/` files with @grpc/proto-loader (once, lazily) and describes each message in
 * the small form the converters need. Objects use proto-loader's camelCase keys, enum names,
 * numbers for 64-bit integers, Buffers for bytes, and virtual oneof keys (`content: 'text'`), which
 * is how explicit presence (`optional`, oneof members) is seen after decoding.
 */
import { loadSync, type MessageTypeDefinition, type PackageDefinition } from '@grpc/proto-loader';
import { PROTO_PACKAGE, REQUIRED_FIELDS, SERVICE_NAME } from './wire.js';

/** A proto message as a plain object (proto-loader's representation). */
export type ProtoObject = Record<string, unknown>;

/** How one field is represented. */
export interface FieldSpec {
  /** proto-loader key (camelCase). */
  readonly key: string;
  /** The ProtoJSON name: the key, unless the proto renames it with `json_name`. */
  readonly json: string;
  readonly kind: 'scalar' | 'bytes' | 'enum' | 'message' | 'map';
  readonly repeated: boolean;
  /** Fully qualified message type (kind `message`). */
  readonly type?: string | undefined;
  /** The value of a map entry (kind `map`). */
  readonly value?: FieldSpec | undefined;
  /** REQUIRED by the spec: filled with its default when absent after decoding. */
  readonly required: boolean;
  /** The proto3 default of a scalar or bytes field, in domain form (`''`, `0`, `false`). */
  readonly zero?: string | number | boolean | undefined;
}

/** One message type: its fields, oneof names and binary codec. */
export interface MessageSpec {
  readonly name: string;
  readonly fields: readonly FieldSpec[];
  /** Names of the oneofs (real and the synthetic `_x` of `optional` fields). */
  readonly oneofs: readonly string[];
  serialize(value: ProtoObject): Buffer;
  deserialize(bytes: Buffer): ProtoObject;
}

interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName: string;
}

interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
  oneofDecl: { name: string }[];
  options: { mapEntry?: boolean } | null;
}

/** The loader options: keep them in one place, both sides depend on them. */
export const LOADER_OPTIONS = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: false,
  oneofs: true,
} as const;

const FILES = ['a2a.proto', 'google/rpc/status.proto', 'google/rpc/error_details.proto'];

/** One field as the binary wire sees it (for checks that read encoded bytes). */
export interface WireField {
  /** proto-loader key (camelCase). */
  readonly key: string;
  /** descriptor.proto type name: `TYPE_STRING`, `TYPE_MESSAGE`, `TYPE_INT32`, … */
  readonly type: string;
  readonly repeated: boolean;
  /** Fully qualified message type (`TYPE_MESSAGE`), with whether it is a map entry. */
  readonly message?: { readonly name: string; readonly mapEntry: boolean } | undefined;
}

/** The loaded proto files: package definition, message specs and the service. */
export interface LoadedProto {
  readonly definition: PackageDefinition;
  /** True when these files define message `name`. */
  has(name: string): boolean;
  message(name: string): MessageSpec;
  /** The fields of a message (nested ones too) by field number. */
  wireFields(name: string): ReadonlyMap<number, WireField>;
}

let loaded: LoadedProto | undefined;

/**
 * Other proto packages loaded next to 1.0 (the 0.3 `a2a.v1`, see v03-proto.ts): the messages of
 * {@link proto} fall back to them, so the converters and checks work on their types too.
 */
const others: LoadedProto[] = [];

/** The proto files, loaded on first use. */
export function proto(): LoadedProto {
  loaded ??= load(FILES, SERVICE_NAME);
  return loaded;
}

/** Makes the messages of `files` (with `service`) known next to 1.0's; returns them. */
export function loadOtherProto(
  files: readonly string[],
  service: string,
  jsonNames: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): LoadedProto {
  const other = load(files, service, jsonNames);
  others.push(other);
  return other;
}

function otherWith(name: string): LoadedProto | undefined {
  for (const other of others) if (other.has(name)) return other;
  return undefined;
}

/** The `proto/` folder: two levels up from the sources, three from the compiled `dist/src`. */
function protoDirs(): string[] {
  return ['../../../proto/', '../../../../proto/'].map((rel) =>
    pathOf(new URL(rel, import.meta.url)),
  );
}

function pathOf(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  return /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

function load(
  files: readonly string[],
  service: string,
  jsonNames: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): LoadedProto {
  const definition = loadSync([...files], { ...LOADER_OPTIONS, includeDirs: protoDirs() });
  if (!(service in definition)) throw new Error(`${service} missing from proto/${files[0]}`);
  const descriptors = new Map<string, MessageDescriptor>();
  const codecs = new Map<string, MessageTypeDefinition<ProtoObject, ProtoObject>>();
  for (const [name, entry] of Object.entries(definition)) {
    if (!('format' in entry) || entry.format !== 'Protocol Buffer 3 DescriptorProto') continue;
    const typed = entry as MessageTypeDefinition<ProtoObject, ProtoObject>;
    codecs.set(name, typed);
    register(descriptors, name, typed.type as MessageDescriptor);
  }
  const specs = new Map<string, MessageSpec>();
  const message = (name: string): MessageSpec => {
    let spec = specs.get(name);
    if (spec) return spec;
    const descriptor = descriptors.get(name);
    if (!descriptor) {
      const other = otherWith(name);
      if (other) return other.message(name);
      throw new Error(`unknown proto message ${name}`);
    }
    spec = compile(name, descriptor, codecs.get(name), descriptors, jsonNames[name]);
    specs.set(name, spec);
    return spec;
  };
  const wire = new Map<string, ReadonlyMap<number, WireField>>();
  const wireFields = (name: string): ReadonlyMap<number, WireField> => {
    let fields = wire.get(name);
    if (fields) return fields;
    const descriptor = descriptors.get(name);
    if (!descriptor) {
      const other = otherWith(name);
      if (other) return other.wireFields(name);
      throw new Error(`unknown proto message ${name}`);
    }
    fields = new Map(descriptor.field.map((f) => [f.number, wireField(name, f, descriptors)]));
    wire.set(name, fields);
    return fields;
  };
  return { definition, has: (name) => descriptors.has(name), message, wireFields };
}

function register(into: Map<string, MessageDescriptor>, name: string, d: MessageDescriptor): void {
  into.set(name, d);
  for (const nested of d.nestedType) register(into, `${name}.${nested.name}`, nested);
}

function compile(
  name: string,
  d: MessageDescriptor,
  codec: MessageTypeDefinition<ProtoObject, ProtoObject> | undefined,
  all: ReadonlyMap<string, MessageDescriptor>,
  renamed: Readonly<Record<string, string>> = {},
): MessageSpec {
  // Nested messages have no codec of their own: they are only ever encoded inside their parent.
  const codecOf = () => {
    if (!codec) throw new Error(`${name} is not a top-level proto message`);
    return codec;
  };
  const short = name.startsWith(`${PROTO_PACKAGE}.`) ? name.slice(PROTO_PACKAGE.length + 1) : '';
  const required = new Set(REQUIRED_FIELDS[short] ?? []);
  const fields = d.field.map((f) => ({
    ...fieldSpec(name, f, all, required.has(f.name)),
    json: renamed[f.name] ?? f.name,
  }));
  return {
    name,
    fields,
    oneofs: d.oneofDecl.map((o) => o.name),
    serialize: (value) => codecOf().serialize(value),
    deserialize: (bytes) => codecOf().deserialize(bytes),
  };
}

function fieldSpec(
  scope: string,
  f: FieldDescriptor,
  all: ReadonlyMap<string, MessageDescriptor>,
  required: boolean,
): FieldSpec {
  const repeated = f.label === 'LABEL_REPEATED';
  const key = f.name;
  if (f.type === 'TYPE_ENUM') return { key, json: key, kind: 'enum', repeated, required };
  if (f.type === 'TYPE_BYTES') {
    return { key, json: key, kind: 'bytes', repeated, required, zero: '' };
  }
  if (f.type !== 'TYPE_MESSAGE' && f.type !== 'TYPE_GROUP') {
    const zero = f.type === 'TYPE_STRING' ? '' : f.type === 'TYPE_BOOL' ? false : 0;
    return { key, json: key, kind: 'scalar', repeated, required, zero };
  }
  const type = resolve(scope, f.typeName, all);
  const entry = all.get(type);
  if (entry?.options?.mapEntry) {
    const valueField = entry.field.find((x) => x.name === 'value');
    if (!valueField) throw new Error(`map entry ${type} has no value field`);
    const value = fieldSpec(type, valueField, all, false);
    return { key, json: key, kind: 'map', repeated: false, value, required };
  }
  return { key, json: key, kind: 'message', repeated, type, required };
}

function wireField(
  scope: string,
  f: FieldDescriptor,
  all: ReadonlyMap<string, MessageDescriptor>,
): WireField {
  const repeated = f.label === 'LABEL_REPEATED';
  if (f.type !== 'TYPE_MESSAGE') return { key: f.name, type: f.type, repeated };
  const name = resolve(scope, f.typeName, all);
  const mapEntry = all.get(name)?.options?.mapEntry === true;
  return { key: f.name, type: f.type, repeated, message: { name, mapEntry } };
}

/** Resolves a (possibly relative) type name the way protobuf scoping does: innermost first. */
function resolve(scope: string, typeName: string, all: ReadonlyMap<string, MessageDescriptor>) {
  const name = typeName.startsWith('.') ? typeName.slice(1) : typeName;
  const parts = scope.split('.');
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), name].join('.');
    if (all.has(candidate)) return candidate;
  }
  throw new Error(`cannot resolve proto type ${typeName} from ${scope}`);
}
