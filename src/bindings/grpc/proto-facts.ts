/**
 * The wire facts of a proto file (message and field names, numbers, types, labels, oneofs,
 * `optional` presence, enums, rpcs), as plain JSON. Used to check `proto/a2a.proto` against the
 * facts recorded from the spec's file (`proto/spec-facts.json`, made by
 * `scripts/update-proto-facts.mjs`), so a wire-incompatible edit fails the tests.
 */
import { loadSync, type MessageTypeDefinition } from '@grpc/proto-loader';

/** One field as it travels. */
export interface FieldFact {
  number: number;
  type: string;
  label: string;
  typeName?: string;
  oneof?: string;
  optional?: true;
  required?: true;
}

/** Everything about a proto package that wire compatibility depends on. */
export interface ProtoFacts {
  messages: Record<string, Record<string, FieldFact>>;
  enums: Record<string, Record<string, number>>;
  rpcs: Record<string, { request: string; response: string; serverStreaming: boolean }>;
}

interface Descriptor {
  name?: string;
  package?: string;
  field?: {
    name: string;
    number: number;
    label: string;
    type: string;
    typeName?: string;
    oneofIndex?: number;
    proto3Optional?: boolean;
  }[];
  nestedType?: Descriptor[];
  enumType?: { name: string; value?: { name: string; number?: number }[] }[];
  oneofDecl?: { name: string }[];
  messageType?: Descriptor[];
  service?: {
    method?: { name: string; inputType: string; outputType: string; serverStreaming?: boolean }[];
  }[];
}

const short = (name: string) => name.split('.').pop() ?? name;

/** The facts of package `pkg` in `file` (looked up in `includeDirs`). */
export function protoFacts(file: string, includeDirs: string[], pkg: string): ProtoFacts {
  const definition = loadSync(file, { keepCase: true, includeDirs });
  const codec = loadSync('google/protobuf/descriptor.proto', {
    keepCase: false,
    defaults: false,
    enums: String,
    longs: Number,
  })['google.protobuf.FileDescriptorProto'] as MessageTypeDefinition<object, object> | undefined;
  const first = Object.values(definition).find((d) => 'fileDescriptorProtos' in d) as
    MessageTypeDefinition<object, object> | undefined;
  if (!codec || !first) throw new Error('cannot read descriptors');
  const facts: ProtoFacts = { messages: {}, enums: {}, rpcs: {} };
  for (const bytes of first.fileDescriptorProtos) {
    const fileDescriptor = codec.deserialize(bytes) as Descriptor;
    if (fileDescriptor.package !== pkg) continue;
    for (const m of fileDescriptor.messageType ?? []) addMessage(facts, '', m);
    for (const e of fileDescriptor.enumType ?? []) addEnum(facts, '', e);
    for (const s of fileDescriptor.service ?? []) {
      for (const m of s.method ?? []) {
        facts.rpcs[m.name] = {
          request: short(m.inputType),
          response: short(m.outputType),
          serverStreaming: m.serverStreaming === true,
        };
      }
    }
  }
  return facts;
}

function addMessage(facts: ProtoFacts, scope: string, m: Descriptor): void {
  const name = scope + (m.name ?? '');
  const fields: Record<string, FieldFact> = {};
  const oneofs = m.oneofDecl ?? [];
  for (const f of m.field ?? []) {
    const fact: FieldFact = { number: f.number, type: f.type, label: f.label };
    if (f.typeName) fact.typeName = short(f.typeName);
    const oneof = f.oneofIndex === undefined ? undefined : oneofs[f.oneofIndex]?.name;
    if (f.proto3Optional || oneof === `_${f.name}`) fact.optional = true;
    else if (oneof !== undefined) fact.oneof = oneof;
    fields[f.name] = fact;
  }
  facts.messages[name] = fields;
  for (const nested of m.nestedType ?? []) addMessage(facts, `${name}.`, nested);
  for (const e of m.enumType ?? []) addEnum(facts, `${name}.`, e);
}

function addEnum(facts: ProtoFacts, scope: string, e: NonNullable<Descriptor['enumType']>[0]) {
  facts.enums[scope + e.name] = Object.fromEntries(
    (e.value ?? []).map((v) => [v.name, v.number ?? 0]),
  );
}

/**
 * The fields marked `(google.api.field_behavior) = REQUIRED` in proto source text, by message
 * (snake_case names). A small scanner: enough for the spec's file, not a general proto parser.
 */
export function requiredFromSource(text: string): Record<string, string[]> {
  const source = text.replace(/\/\/[^\n]*/g, '');
  const required: Record<string, string[]> = {};
  const stack: (string | undefined)[] = [];
  let statement = '';
  for (const ch of source) {
    if (ch === '{') {
      stack.push(/message\s+(\w+)\s*$/.exec(statement)?.[1]);
      statement = '';
    } else if (ch === '}') {
      stack.pop();
      statement = '';
    } else if (ch === ';') {
      const field = /(\w+)\s*=\s*\d+\s*\[[^\]]*field_behavior\)\s*=\s*REQUIRED/.exec(statement);
      const owner = [...stack].reverse().find((s) => s !== undefined);
      if (field?.[1] && owner) (required[owner] ??= []).push(field[1]);
      statement = '';
    } else statement += ch;
  }
  return required;
}
