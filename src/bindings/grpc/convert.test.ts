import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as S from '../../core/schemas/index.js';
import { parseParams } from '../../core/validate.js';
import { decodeMessage, encodeMessage, fromProto, toProto } from './convert.js';
import { proto } from './proto.js';

const parts = [
  { text: 'hello', mediaType: 'text/plain' },
  { text: '' },
  { raw: 'AAECAwT/', filename: 'b.bin', mediaType: 'application/octet-stream' },
  { raw: '' },
  { url: 'https://example.com/a.pdf', filename: 'a.pdf', mediaType: 'application/pdf' },
  { data: { n: 1.5, s: 'x', b: false, z: null, list: [1, 'two', [true]], o: { deep: {} } } },
  { data: null },
  { data: [1, 2] },
  { data: 'just a string', metadata: { k: 'v' } },
];
const message = {
  messageId: 'm1',
  contextId: 'c1',
  taskId: 't1',
  role: 'ROLE_AGENT',
  parts,
  metadata: { trace: { id: 7 } },
  extensions: ['https://ext.example/a'],
  referenceTaskIds: ['t0'],
};
const status = { state: 'TASK_STATE_WORKING', message, timestamp: '2025-10-28T10:30:00.123Z' };
const artifact = {
  artifactId: 'a1',
  name: 'result',
  description: 'the result',
  parts: [{ text: 'done' }],
  metadata: { size: 4 },
  extensions: ['urn:x'],
};
const task = {
  id: 't1',
  contextId: 'c1',
  status,
  artifacts: [artifact],
  history: [{ ...message, role: 'ROLE_USER' }],
  metadata: { a: 1 },
};
const flows = (scopes: Record<string, string>) => [
  {
    authorizationCode: {
      authorizationUrl: 'https://a',
      tokenUrl: 'https://t',
      refreshUrl: 'https://r',
      scopes,
      pkceRequired: true,
    },
  },
  { clientCredentials: { tokenUrl: 'https://t', scopes } },
  { implicit: { authorizationUrl: 'https://a', scopes } },
  { password: { tokenUrl: 'https://t', refreshUrl: 'https://r' } },
  { deviceCode: { deviceAuthorizationUrl: 'https://d', tokenUrl: 'https://t', scopes } },
];
const securitySchemes = {
  key: { apiKeySecurityScheme: { description: 'API key', location: 'header', name: 'X-Key' } },
  bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
  oidc: {
    openIdConnectSecurityScheme: {
      openIdConnectUrl: 'https://id/.well-known/openid-configuration',
    },
  },
  mtls: { mtlsSecurityScheme: { description: 'client certs' } },
  mtlsBare: { mtlsSecurityScheme: {} },
  ...Object.fromEntries(
    flows({ read: 'Read things', '': 'empty scope name' }).map((f, i) => [
      `oauth${i}`,
      { oauth2SecurityScheme: { flows: f, oauth2MetadataUrl: 'https://as/.well-known' } },
    ]),
  ),
};
const card = {
  name: 'Echo',
  description: 'Repeats you',
  supportedInterfaces: [
    { url: '127.0.0.1:50051', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'acme' },
  ],
  provider: { url: 'https://example.com', organization: 'Example' },
  version: '1.0.0',
  documentationUrl: '',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extendedAgentCard: false,
    extensions: [{ uri: 'urn:e', description: 'd', required: true, params: { x: [1] } }],
  },
  securitySchemes,
  securityRequirements: [{ schemes: { bearer: {}, oauth0: { list: ['read'] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Echo text',
      tags: ['demo'],
      examples: ['hi'],
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
      securityRequirements: [{ schemes: { key: {} } }],
    },
  ],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k1' } }],
  iconUrl: 'https://example.com/icon.png',
};
const pushConfig = {
  tenant: 'acme',
  id: 'p1',
  taskId: 't1',
  url: 'https://hooks.example/a2a',
  token: 'tok',
  authentication: { scheme: 'Bearer', credentials: 'secret' },
};

// [proto message, domain schema, canonical domain object]
// prettier-ignore
const CASES: [string, z.ZodType, unknown][] = [
  ['Part', S.Part, parts[0]],
  ['Message', S.Message, message],
  ['Task', S.Task, task],
  ['Task', S.Task, { id: 't2', status: { state: 'TASK_STATE_SUBMITTED' } }],
  ['AgentCard', S.AgentCard, card],
  ['TaskPushNotificationConfig', S.TaskPushNotificationConfig, pushConfig],
  ['SendMessageResponse', S.SendMessageResponse, { task }],
  ['SendMessageResponse', S.SendMessageResponse, { message }],
  ['StreamResponse', S.StreamResponse, { task }],
  ['StreamResponse', S.StreamResponse, { message }],
  ['StreamResponse', S.StreamResponse, { statusUpdate: { taskId: 't1', contextId: 'c1', status, metadata: { m: 1 } } }],
  ['StreamResponse', S.StreamResponse, { artifactUpdate: { taskId: 't1', contextId: 'c1', artifact, append: true, lastChunk: true, metadata: {} } }],
  ['SendMessageRequest', S.SendMessageRequest, {
    tenant: 'acme', message: { ...message, role: 'ROLE_USER' }, metadata: { k: 'v' },
    configuration: { acceptedOutputModes: ['text/plain'], taskPushNotificationConfig: { url: 'https://h' }, historyLength: 0, returnImmediately: true },
  }],
  ['GetTaskRequest', S.GetTaskRequest, { tenant: 'acme', id: 't1', historyLength: 0 }],
  ['ListTasksRequest', S.ListTasksRequest, {
    tenant: 'acme', contextId: 'c1', status: 'TASK_STATE_COMPLETED', pageSize: 10, pageToken: 'tok',
    historyLength: 2, statusTimestampAfter: '2025-01-01T00:00:00.000Z', includeArtifacts: false,
  }],
  ['ListTasksResponse', S.ListTasksResponse, { tasks: [task], nextPageToken: 'next', pageSize: 1, totalSize: 3 }],
  ['ListTasksResponse', S.ListTasksResponse, { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }],
  ['CancelTaskRequest', S.CancelTaskRequest, { tenant: 'acme', id: 't1', metadata: { why: 'bored' } }],
  ['SubscribeToTaskRequest', S.SubscribeToTaskRequest, { id: 't1' }],
  ['GetTaskPushNotificationConfigRequest', S.GetTaskPushNotificationConfigRequest, { tenant: 'a', taskId: 't1', id: 'p1' }],
  ['DeleteTaskPushNotificationConfigRequest', S.DeleteTaskPushNotificationConfigRequest, { taskId: 't1', id: 'p1' }],
  ['ListTaskPushNotificationConfigsRequest', S.ListTaskPushNotificationConfigsRequest, { tenant: 'a', taskId: 't1', pageSize: 5, pageToken: 'x' }],
  ['ListTaskPushNotificationConfigsResponse', S.ListTaskPushNotificationConfigsResponse, { configs: [pushConfig], nextPageToken: 'n' }],
  ['GetExtendedAgentCardRequest', S.GetExtendedAgentCardRequest, { tenant: 'acme' }],
  ['google.protobuf.Empty', S.Empty, {}],
];

describe('gRPC conversion', () => {
  it.each(CASES.map(([type, schema, value], i) => ({ i, type, schema, value })))(
    'round-trips $type #$i through binary protobuf unchanged',
    ({ type, schema, value }) => {
      // The fixture is canonical: what our schemas produce.
      expect(schema.parse(value)).toEqual(value);
      const back = decodeMessage(type, encodeMessage(type, value));
      expect(back).toEqual(value);
      expect(schema.parse(back)).toEqual(value);
    },
  );

  it('sends every Part kind as its oneof member', () => {
    const wire = proto()
      .message('lf.a2a.v1.Message')
      .deserialize(encodeMessage('Message', message));
    const kinds = (wire.parts as { content: string }[]).map((p) => p.content);
    expect(kinds).toEqual(['text', 'text', 'raw', 'raw', 'url', 'data', 'data', 'data', 'data']);
  });

  it('drops proto defaults of fields without presence and keeps optional ones', () => {
    const decoded = fromProto('Task', {
      id: 't',
      contextId: '',
      status: { state: 'TASK_STATE_UNSPECIFIED' },
      artifacts: [],
      metadata: { fields: {} },
    });
    expect(decoded).toEqual({ id: 't', status: {}, metadata: {} });
    const request = fromProto('GetTaskRequest', {
      id: 't',
      tenant: '',
      historyLength: 0,
      _historyLength: 'historyLength',
    });
    expect(request).toEqual({ id: 't', historyLength: 0 });
  });

  it('reads URL-safe base64 and writes standard base64 with padding', () => {
    const back = decodeMessage('Part', encodeMessage('Part', { raw: '-_8' }));
    expect(back).toEqual({ raw: '+/8=' });
  });

  it('reads enum numbers the proto does not know as numbers, which validation rejects', () => {
    const decoded = fromProto('TaskStatus', { state: 42 });
    expect(decoded).toEqual({ state: 42 });
    expect(S.TaskStatus.safeParse(decoded).success).toBe(false);
  });

  it('converts timestamps to and from seconds and nanos, normalized to UTC', () => {
    expect(
      toProto('TaskStatus', {
        state: 'TASK_STATE_WORKING',
        timestamp: '2025-10-28T12:30:00.5+02:00',
      }),
    ).toEqual({
      state: 'TASK_STATE_WORKING',
      timestamp: { seconds: 1761647400, nanos: 500_000_000 },
    });
    expect(
      fromProto('TaskStatus', { timestamp: { seconds: 1761647400, nanos: 999_999_999 } }),
    ).toEqual({
      timestamp: '2025-10-28T10:30:00.999Z',
    });
  });

  it('fills REQUIRED fields so validation names what is missing', () => {
    const decoded = fromProto('SendMessageRequest', {});
    expect(decoded).toEqual({ message: { messageId: '', parts: [] } });
    expect(() => parseParams('SendMessage', decoded)).toThrow(/message\.messageId: is required/);
    expect(fromProto('AgentCard', {})).toMatchObject({ skills: [], capabilities: {} });
  });

  it('leaves Struct contents alone, whatever their keys', () => {
    const value = { snake_case: { 'a.b': [null, { '': 0 }] } };
    expect(
      decodeMessage(
        'CancelTaskRequest',
        encodeMessage('CancelTaskRequest', { id: 'x', metadata: value }),
      ),
    ).toEqual({ id: 'x', metadata: value });
  });
});
