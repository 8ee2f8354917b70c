/**
 * Bad A2A 0.3 gRPC input (issue 14 point 7), against `serve({ compat: ['0.3'], grpc: true })`:
 * raw grpc-js calls on `a2a.v1.A2AService` with requests encoded by @grpc/proto-loader from
 * proto/v03/a2a.proto (or hand-made bytes), independently of src/. A table with the exact 0.3
 * status of each case (undecodable bytes, wrong wire types, invalid UTF-8, bad resource names,
 * unknown ids, an rpc 0.3 does not have, push on a server without push), then fast-check over
 * random bytes and mutated requests on every rpc: each call ends with a status in the set 0.3
 * callers can get (never UNKNOWN, never a hang), and the server still answers afterwards.
 */
import { fileURLToPath } from 'node:url';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { loadSync, type MessageTypeDefinition } from '@grpc/proto-loader';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/server/agent.js';
import { serve, type ServeResult } from '../../src/node/serve.js';
import { GRPC_CODES } from '../helpers/wire.js';

const agent = createAgent({
  card: { name: 'fuzz 0.3 gRPC', description: 'echo', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.completed('ok');
  },
});

const definition = loadSync('v03/a2a.proto', {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: false,
  oneofs: true,
  includeDirs: [fileURLToPath(new URL('../../proto/', import.meta.url))],
});
const encode = (type: string, value: object): Buffer =>
  Buffer.from(
    (definition[`a2a.v1.${type}`] as MessageTypeDefinition<object, object>).serialize(value),
  );

let server: ServeResult;
let client: Client;
beforeAll(async () => {
  server = await serve(agent, { logger: null, compat: ['0.3'], grpc: true });
  client = new Client(server.grpcUrl ?? '', credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  await server.close();
});

const STREAMS = new Set(['SendStreamingMessage', 'TaskSubscription']);

/** The status a call of `rpc` with request `bytes` ends with (unary or streaming). */
function statusOf(rpc: string, bytes: Buffer): Promise<number> {
  const path = `/a2a.v1.A2AService/${rpc}`;
  const options = { deadline: Date.now() + 10_000 };
  return new Promise((resolve) => {
    if (STREAMS.has(rpc)) {
      const call = client.makeServerStreamRequest(
        path,
        () => bytes,
        (b: Buffer) => b,
        {},
        new Metadata(),
        options,
      );
      call.on('data', () => undefined);
      call.on('error', () => undefined);
      call.on('status', (status: { code: number }) => resolve(status.code));
      return;
    }
    client.makeUnaryRequest(
      path,
      () => bytes,
      (b: Buffer) => b,
      {},
      options,
      (error: ServiceError | null) => resolve(error ? error.code : GRPC_CODES.OK),
    );
  });
}

const message = { messageId: 'm1', role: 'ROLE_USER', content: [{ text: 'hi' }] };
const S = GRPC_CODES;

// prettier-ignore
const CASES: [string, string, () => Buffer, number][] = [
  ['undecodable bytes', 'GetTask', () => Buffer.from([0xff, 0xff, 0xff]), S.INVALID_ARGUMENT],
  ['a string field sent as a varint (wrong wire type)', 'GetTask', () => Buffer.from([0x08, 0x01]), S.INVALID_ARGUMENT],
  ['historyLength sent as bytes (wrong type)', 'GetTask', () => Buffer.from([0x12, 0x01, 0x41]), S.INVALID_ARGUMENT],
  ['a name that is not UTF-8', 'GetTask', () => Buffer.from([0x0a, 0x08, ...Buffer.from('tasks/'), 0xc3, 0x28]), S.INVALID_ARGUMENT],
  ['a name that is no tasks/{id}', 'GetTask', () => encode('GetTaskRequest', { name: 'nope' }), S.INVALID_ARGUMENT],
  ['an empty request', 'GetTask', () => Buffer.alloc(0), S.INVALID_ARGUMENT],
  ['an unknown task', 'GetTask', () => encode('GetTaskRequest', { name: 'tasks/nope' }), S.NOT_FOUND],
  ['cancel of an unknown task', 'CancelTask', () => encode('CancelTaskRequest', { name: 'tasks/nope' }), S.NOT_FOUND],
  ['subscribe to an unknown task', 'TaskSubscription', () => encode('TaskSubscriptionRequest', { name: 'tasks/nope' }), S.NOT_FOUND],
  ['send without a message', 'SendMessage', () => encode('SendMessageRequest', {}), S.INVALID_ARGUMENT],
  ['a message without content', 'SendMessage', () => encode('SendMessageRequest', { request: { ...message, content: [] } }), S.INVALID_ARGUMENT],
  ['a message without a role', 'SendMessage', () => encode('SendMessageRequest', { request: { ...message, role: 'ROLE_UNSPECIFIED' } }), S.INVALID_ARGUMENT],
  ['a part without content', 'SendMessage', () => encode('SendMessageRequest', { request: { ...message, content: [{}] } }), S.INVALID_ARGUMENT],
  ['a stream without a message', 'SendStreamingMessage', () => encode('SendMessageRequest', {}), S.INVALID_ARGUMENT],
  ['a config name without the config id', 'GetTaskPushNotificationConfig', () => encode('GetTaskPushNotificationConfigRequest', { name: 'tasks/x/pushNotificationConfigs/' }), S.INVALID_ARGUMENT],
  ['push on a server without push', 'CreateTaskPushNotificationConfig', () => encode('CreateTaskPushNotificationConfigRequest', { parent: 'tasks/x', configId: 'c', config: { pushNotificationConfig: { url: 'https://example.com/h' } } }), S.UNIMPLEMENTED],
  ['an extended card the agent does not offer (UnsupportedOperation)', 'GetAgentCard', () => encode('GetAgentCardRequest', {}), S.UNIMPLEMENTED],
  ['ListTasks (no 0.3 rpc)', 'ListTasks', () => Buffer.alloc(0), S.UNIMPLEMENTED],
  ['an rpc that does not exist', 'Frobnicate', () => Buffer.alloc(0), S.UNIMPLEMENTED],
];

describe('bad 0.3 gRPC input gets the 0.3 status', () => {
  it.each(CASES)('%s', async (_name, rpc, bytes, code) => {
    expect(await statusOf(rpc, bytes())).toBe(code);
  });

  it('a valid send still succeeds', async () => {
    expect(await statusOf('SendMessage', encode('SendMessageRequest', { request: message }))).toBe(
      S.OK,
    );
  });
});

const RPCS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'CancelTask',
  'TaskSubscription',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfig',
  'GetAgentCard',
  'DeleteTaskPushNotificationConfig',
];
const REQUEST_OF: Readonly<Record<string, string>> = {
  SendMessage: 'SendMessageRequest',
  SendStreamingMessage: 'SendMessageRequest',
  GetTask: 'GetTaskRequest',
  CancelTask: 'CancelTaskRequest',
  TaskSubscription: 'TaskSubscriptionRequest',
  CreateTaskPushNotificationConfig: 'CreateTaskPushNotificationConfigRequest',
  GetTaskPushNotificationConfig: 'GetTaskPushNotificationConfigRequest',
  ListTaskPushNotificationConfig: 'ListTaskPushNotificationConfigRequest',
  GetAgentCard: 'GetAgentCardRequest',
  DeleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfigRequest',
};
/** What a 0.3 caller may get: success or an error status of the 0.3 mapping (no UNKNOWN). */
const ALLOWED = new Set<number>([
  S.OK,
  S.INVALID_ARGUMENT,
  S.NOT_FOUND,
  S.FAILED_PRECONDITION,
  S.UNIMPLEMENTED,
  S.RESOURCE_EXHAUSTED,
]);
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('tasks/', 'tasks/x', 'tasks/x/pushNotificationConfigs/c', ''),
);
const requests = fc.oneof(
  fc.record({ name: text, historyLength: fc.integer({ min: -5, max: 5 }) }, { requiredKeys: [] }),
  fc.record(
    { parent: text, configId: text, config: fc.record({ name: text }) },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      request: fc.record(
        {
          messageId: fc.string(),
          taskId: text,
          contextId: fc.string(),
          role: fc.constantFrom('ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED'),
          content: fc.array(fc.oneof(fc.record({ text: fc.string() }), fc.constant({}))),
        },
        { requiredKeys: [] },
      ),
      configuration: fc.record(
        { blocking: fc.boolean(), historyLength: fc.integer() },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
);

describe('fuzzed 0.3 gRPC requests', () => {
  it('random bytes on every rpc end with a 0.3 status, never UNKNOWN or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RPCS),
        fc.uint8Array({ maxLength: 64 }),
        async (rpc, bytes) => {
          expect(ALLOWED.has(await statusOf(rpc, Buffer.from(bytes)))).toBe(true);
        },
      ),
      { numRuns: 200, interruptAfterTimeLimit: 15_000 },
    );
    expect(await statusOf('GetTask', encode('GetTaskRequest', { name: 'tasks/nope' }))).toBe(
      S.NOT_FOUND,
    );
  }, 60_000);

  it('mutated requests of any rpc end with a 0.3 status, and the server still answers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RPCS), requests, async (rpc, value) => {
        const type = REQUEST_OF[rpc] ?? 'GetTaskRequest';
        let bytes: Buffer;
        try {
          bytes = encode(type, value);
        } catch {
          bytes = Buffer.from(JSON.stringify(value)); // not protobuf at all
        }
        expect(ALLOWED.has(await statusOf(rpc, bytes))).toBe(true);
      }),
      { numRuns: 200, interruptAfterTimeLimit: 15_000 },
    );
    expect(await statusOf('SendMessage', encode('SendMessageRequest', { request: message }))).toBe(
      S.OK,
    );
  }, 60_000);
});
