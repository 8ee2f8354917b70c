/**
 * `a2a-kit/schema`: the A2A 1.0 wire objects as JSON Schema (draft 2020-12), generated from the
 * same zod schemas that validate every request, response and Agent Card in a2a-kit (and that
 * `a2a card validate` uses). For tools in other languages, editors and API gateways.
 *
 * The schemas describe the canonical ProtoJSON form a2a-kit writes (spec §5.5: camelCase
 * names, enum names as strings). Readers, ours included, also accept snake_case names and
 * integer enums, and ignore unknown fields (spec §5.7), so objects may carry more properties
 * than a schema lists (`additionalProperties` is left open). Proto oneofs are `oneOf` of
 * `required` members.
 */
import { z } from 'zod';
import { OPERATIONS, type OperationName } from '../core/operations.js';
import * as wire from '../core/schemas/index.js';

/** The named wire objects with a schema (spec §4 data model, §3.1 requests and responses). */
export const WIRE_OBJECTS = {
  AgentCard: wire.AgentCard,
  AgentCapabilities: wire.AgentCapabilities,
  AgentExtension: wire.AgentExtension,
  AgentInterface: wire.AgentInterface,
  AgentProvider: wire.AgentProvider,
  AgentSkill: wire.AgentSkill,
  AgentCardSignature: wire.AgentCardSignature,
  SecurityScheme: wire.SecurityScheme,
  SecurityRequirement: wire.SecurityRequirement,
  Message: wire.Message,
  Part: wire.Part,
  Task: wire.Task,
  TaskStatus: wire.TaskStatus,
  Artifact: wire.Artifact,
  TaskStatusUpdateEvent: wire.TaskStatusUpdateEvent,
  TaskArtifactUpdateEvent: wire.TaskArtifactUpdateEvent,
  StreamResponse: wire.StreamResponse,
  TaskPushNotificationConfig: wire.TaskPushNotificationConfig,
  AuthenticationInfo: wire.AuthenticationInfo,
  SendMessageConfiguration: wire.SendMessageConfiguration,
  SendMessageRequest: wire.SendMessageRequest,
  SendMessageResponse: wire.SendMessageResponse,
  GetTaskRequest: wire.GetTaskRequest,
  ListTasksRequest: wire.ListTasksRequest,
  ListTasksResponse: wire.ListTasksResponse,
  CancelTaskRequest: wire.CancelTaskRequest,
  SubscribeToTaskRequest: wire.SubscribeToTaskRequest,
  CreateTaskPushNotificationConfigRequest: wire.CreateTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest: wire.GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest: wire.ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse: wire.ListTaskPushNotificationConfigsResponse,
  DeleteTaskPushNotificationConfigRequest: wire.DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest: wire.GetExtendedAgentCardRequest,
} as const satisfies Record<string, z.ZodType>;

/** The name of a wire object with a schema (`AgentCard`, `SendMessageRequest`, …). */
export type WireObjectName = keyof typeof WIRE_OBJECTS;

/** A JSON Schema document (draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

const cache = new Map<WireObjectName, JsonSchema>();

/** True for a name of {@link WIRE_OBJECTS}. */
export function isWireObjectName(name: unknown): name is WireObjectName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(WIRE_OBJECTS, name);
}

/** The JSON Schema of one wire object, with `$id` `urn:a2a-kit:schema:1.0:<name>`. */
export function jsonSchema(name: WireObjectName): JsonSchema {
  let schema = cache.get(name);
  if (schema === undefined) {
    const generated = z.toJSONSchema(WIRE_OBJECTS[name], {
      target: 'draft-2020-12',
      io: 'output',
      // Preprocessing (snake_case renames) and transforms are reading conveniences; the schema
      // describes the canonical form they produce.
      unrepresentable: 'any',
    }) as JsonSchema;
    schema = { ...openObjects(generated), $id: `urn:a2a-kit:schema:1.0:${name}`, title: name };
    cache.set(name, schema);
  }
  return schema;
}

/** The request and response schemas of one operation (spec §3.1). */
export function operationSchemas(operation: OperationName): {
  request: JsonSchema;
  response: JsonSchema;
} {
  const { params, result } = OPERATIONS[operation];
  return { request: schemaOf(params), response: schemaOf(result) };
}

function schemaOf(type: z.ZodType): JsonSchema {
  const name = (Object.keys(WIRE_OBJECTS) as WireObjectName[]).find(
    (n) => WIRE_OBJECTS[n] === type,
  );
  if (name !== undefined) return jsonSchema(name);
  // Empty (DeleteTaskPushNotificationConfig's response): an object with no fields.
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' };
}

/** Removes the `additionalProperties: false` zod writes for objects (spec §5.7). */
function openObjects(value: unknown): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === 'additionalProperties' && child === false) continue;
      out[key] = walk(child);
    }
    return out;
  };
  return walk(value) as JsonSchema;
}
