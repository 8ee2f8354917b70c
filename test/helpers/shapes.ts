/**
 * Strict oracles of the ProtoJSON the server must EMIT (spec §5.5-5.7): camelCase
 * names only (unknown keys such as `kind` or `context_id` are rejected), string enums, UTC `Z`
 * timestamps with millisecond precision, REQUIRED fields present, exactly-one-of for oneofs.
 * Written from the spec, independently of src/core/schemas (which are lenient on input).
 */
import { expect } from 'vitest';
import { z } from 'zod';

/** `2025-10-28T10:30:00.000Z`: UTC, `Z`, milliseconds (spec §5.6.1). */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export type WireState = (typeof TASK_STATES)[number];
export const TERMINAL: readonly WireState[] = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

const id = z.string().min(1);
const struct = z.record(z.string(), z.unknown());
const strings = z.array(z.string());
const timestamp = z.string().regex(TIMESTAMP, 'must be UTC with Z and milliseconds');

function exactlyOne(members: readonly string[]) {
  return (value: object) => members.filter((m) => m in value).length === 1;
}

export const WirePart = z
  .strictObject({
    text: z.string().optional(),
    raw: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be standard base64')
      .optional(),
    url: z.string().optional(),
    data: z.unknown().optional(),
    metadata: struct.optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
  })
  .refine(exactlyOne(['text', 'raw', 'url', 'data']), 'exactly one of text, raw, url, data');

export const WireMessage = z.strictObject({
  messageId: id,
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
  parts: z.array(WirePart).min(1),
  metadata: struct.optional(),
  extensions: strings.optional(),
  referenceTaskIds: strings.optional(),
});
export type WireMessage = z.infer<typeof WireMessage>;

export const WireStatus = z.strictObject({
  state: z.enum(TASK_STATES),
  message: WireMessage.optional(),
  timestamp: timestamp.optional(),
});

export const WireArtifact = z.strictObject({
  artifactId: id,
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(WirePart).min(1),
  metadata: struct.optional(),
  extensions: strings.optional(),
});

/**
 * The A2A 1.1 draft `generation` (spec dev-1.1 §3.2.7), sent by a server with `generations: true`:
 * an int64, so a JSON number or (ProtoJSON) a decimal string.
 */
const generation = z.union([z.number().int().min(1), z.string().regex(/^[1-9]\d*$/)]).optional();

/** A Task as a server emits it: `contextId` is always set by this server (spec §3.4.1). */
export const WireTask = z.strictObject({
  id,
  contextId: id,
  status: WireStatus,
  artifacts: z.array(WireArtifact).optional(),
  history: z.array(WireMessage).optional(),
  metadata: struct.optional(),
  generation,
});
export type WireTask = z.infer<typeof WireTask>;

export const WireStatusUpdate = z.strictObject({
  taskId: id,
  contextId: id,
  status: WireStatus,
  metadata: struct.optional(),
  generation,
});

export const WireArtifactUpdate = z.strictObject({
  taskId: id,
  contextId: id,
  artifact: WireArtifact,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: struct.optional(),
  generation,
});

export const WireStreamResponse = z.union([
  z.strictObject({ task: WireTask }),
  z.strictObject({ message: WireMessage }),
  z.strictObject({ statusUpdate: WireStatusUpdate }),
  z.strictObject({ artifactUpdate: WireArtifactUpdate }),
]);
export type WireStreamResponse = z.infer<typeof WireStreamResponse>;

export const WireSendMessageResponse = z.union([
  z.strictObject({ task: WireTask }),
  z.strictObject({ message: WireMessage }),
]);

export const WireListTasksResponse = z.strictObject({
  tasks: z.array(WireTask),
  nextPageToken: z.string(),
  pageSize: z.number().int(),
  totalSize: z.number().int(),
});

const WireInterface = z.strictObject({
  url: id,
  protocolBinding: id,
  tenant: z.string().optional(),
  protocolVersion: z.string().regex(/^\d+\.\d+$/, 'Major.Minor, no patch'),
});

const WireSkill = z.strictObject({
  id,
  name: id,
  description: id,
  tags: z.array(z.string()).min(1),
  examples: strings.optional(),
  inputModes: strings.optional(),
  outputModes: strings.optional(),
  securityRequirements: z.array(z.unknown()).optional(),
});

/** The public card: every REQUIRED field, REQUIRED arrays non-empty (spec §5.7, requirements 3–6 of test/conformance/requirements.ts). */
export const WireAgentCard = z.strictObject({
  name: id,
  description: id,
  supportedInterfaces: z.array(WireInterface).min(1),
  provider: z.strictObject({ url: id, organization: id }).optional(),
  version: id,
  documentationUrl: z.string().optional(),
  capabilities: z.strictObject({
    streaming: z.boolean().optional(),
    pushNotifications: z.boolean().optional(),
    extensions: z
      .array(
        z.strictObject({
          uri: id,
          description: z.string().optional(),
          required: z.boolean().optional(),
          params: struct.optional(),
        }),
      )
      .optional(),
    extendedAgentCard: z.boolean().optional(),
  }),
  securitySchemes: struct.optional(),
  securityRequirements: z.array(z.unknown()).optional(),
  defaultInputModes: z.array(z.string()).min(1),
  defaultOutputModes: z.array(z.string()).min(1),
  skills: z.array(WireSkill).min(1),
  signatures: z.array(z.unknown()).optional(),
  iconUrl: z.string().optional(),
});
export type WireAgentCard = z.infer<typeof WireAgentCard>;

/** Parses `value` with a wire oracle; fails the test naming every violation. */
export function shape<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    expect.fail(`wire shape violated:\n  ${issues.join('\n  ')}\nin ${JSON.stringify(value)}`);
  }
  return parsed.data;
}

/** The task of a `{task}` result (SendMessage), checked against the oracle. */
export function taskOf(result: unknown): WireTask {
  const parsed = shape(WireSendMessageResponse, result);
  if (!('task' in parsed)) return expect.fail(`expected {task}, got ${JSON.stringify(result)}`);
  return parsed.task;
}

/** The message of a `{message}` result (SendMessage), checked against the oracle. */
export function messageOf(result: unknown): WireMessage {
  const parsed = shape(WireSendMessageResponse, result);
  if (!('message' in parsed))
    return expect.fail(`expected {message}, got ${JSON.stringify(result)}`);
  return parsed.message;
}

/** The text parts of a message or artifact joined by newlines. */
export function textOf(source: { parts: readonly { text?: string | undefined }[] }): string {
  return source.parts
    .map((p) => p.text)
    .filter((t): t is string => t !== undefined)
    .join('\n');
}
