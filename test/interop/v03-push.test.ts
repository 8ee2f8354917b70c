/**
 * Push over both versions (issue 14 point 3): a webhook registered over 0.3 receives 0.3
 * payloads (the bare Task or event with its `kind`, `application/json`), one registered over 1.0
 * receives StreamResponses (`application/a2a+json`, spec §4.3.3). The config remembers the
 * version it was registered over, in the store: after a restart on the same SQLite file, the
 * 0.3 webhook still gets 0.3 payloads, even for a turn sent over 1.0. The 0.3 registrations are
 * made by the real 0.3 client (@a2a-js/sdk 0.3.14, `a2a-sdk-03`) over JSON-RPC, HTTP+JSON and
 * gRPC (`a2a.v1.A2AService`),
 * with `tasks/pushNotificationConfig/set` and inline in `message/send`; the webhook is a real
 * HTTP server on loopback.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, MessageSendParams, Task } from 'a2a-sdk-03';
import { ClientFactory, ClientFactoryOptions, type Client } from 'a2a-sdk-03/client';
import { GrpcTransportFactory } from 'a2a-sdk-03/client/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/serve.js';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import { startWebhook, waitFor, type WebhookCall } from '../integration/push-helpers.js';
import { Gates, taskOf } from './helpers.js';
import { createInteropAgent } from './our-agent.js';

type Webhook = Awaited<ReturnType<typeof startWebhook>>;

let dir: string;
let path: string;
let ours: ServeResult | undefined;
let webhook: Webhook;
const gates = new Gates();

const start = async () =>
  (ours = await serve(createInteropAgent(gates), {
    logger: null,
    compat: ['0.3'],
    grpc: true,
    store: new SqliteTaskStore({ path }),
    push: { allowHosts: ['127.0.0.1'], logger: null, retry: { maxAttempts: 3 } },
  }));
const running = () => {
  if (!ours) throw new Error('not serving');
  return ours;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-v03-push-'));
  path = join(dir, 'tasks.db');
  webhook = await startWebhook();
  await start();
});
afterAll(async () => {
  await ours?.close();
  await webhook.close();
  await rm(dir, { recursive: true, force: true });
});

const message = (text: string, extra: Partial<Message> = {}): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});

async function sdkClient(transport: 'JSONRPC' | 'HTTP+JSON' | 'GRPC'): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: [transport],
    }),
  );
  return factory.createFromUrl(running().url);
}

/** The calls to `hook`, once `count` have arrived. */
async function callsTo(hook: string, count: number): Promise<WebhookCall[]> {
  const mine = () => webhook.calls.filter((c) => c.path === hook);
  await waitFor(() => mine().length >= count, 10_000, `${count} deliveries to ${hook}`);
  return mine();
}

const bodies = (calls: WebhookCall[]) => calls.map((c) => JSON.parse(c.body) as unknown);

/**
 * The 0.3 payloads of a task answered after `ask`: submitted (the answer is taken), working, the
 * artifact, completed (final).
 */
function expect03(calls: WebhookCall[], taskId: string): void {
  for (const call of calls) {
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['x-a2a-notification-token']).toBe('tok');
  }
  expect(bodies(calls)).toMatchObject([
    { kind: 'status-update', taskId, status: { state: 'submitted' }, final: false },
    { kind: 'status-update', taskId, status: { state: 'working' }, final: false },
    {
      kind: 'artifact-update',
      taskId,
      artifact: { parts: [{ kind: 'text', text: 'thanks, Ada' }] },
    },
    { kind: 'status-update', taskId, status: { state: 'completed' }, final: true },
  ]);
}

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const)(
  'push registered over 0.3 %s',
  (binding) => {
    it('tasks/pushNotificationConfig/set: the webhook gets the 0.3 events with their kind', async () => {
      const client = await sdkClient(binding);
      const first = (await client.sendMessage({ message: message('ask') })) as Task;
      expect(first.status.state).toBe('input-required');
      const hook = `/set-${binding}`;
      await client.setTaskPushNotificationConfig({
        taskId: first.id,
        pushNotificationConfig: { id: 'c1', url: `${webhook.url}${hook}`, token: 'tok' },
      });
      await client.sendMessage({
        message: message('Ada', { taskId: first.id, contextId: first.contextId }),
      });
      expect03(await callsTo(hook, 4), first.id);
    });

    it('inline in message/send: the first events already come in 0.3 form', async () => {
      const client = await sdkClient(binding);
      const hook = `/inline-${binding}`;
      const params: MessageSendParams = {
        message: message('hello'),
        configuration: {
          blocking: true,
          pushNotificationConfig: { url: `${webhook.url}${hook}`, token: 'tok' },
        },
      };
      const task = (await client.sendMessage(params)) as Task;
      const calls = await callsTo(hook, 3);
      expect(bodies(calls)).toMatchObject([
        { kind: 'status-update', taskId: task.id, status: { state: 'working' } },
        { kind: 'artifact-update', taskId: task.id },
        { kind: 'status-update', taskId: task.id, status: { state: 'completed' }, final: true },
      ]);
    });
  },
);

describe('push registered over 1.0', () => {
  it('the webhook gets StreamResponses as application/a2a+json', async () => {
    const client = await A2AClient.connect(running().url, { protocolVersions: ['1.0'] });
    const first = taskOf(await client.sendMessage({ message: userMessage('ask') }));
    const hook = '/v1';
    await client.createTaskPushNotificationConfig({
      taskId: first.id,
      url: `${webhook.url}${hook}`,
      token: 'tok',
    });
    await client.sendMessage({ message: userMessage('Ada', { taskId: first.id }) });
    const calls = await callsTo(hook, 4);
    for (const call of calls) expect(call.headers['content-type']).toBe('application/a2a+json');
    expect(bodies(calls)).toMatchObject([
      { statusUpdate: { taskId: first.id, status: { state: 'TASK_STATE_SUBMITTED' } } },
      { statusUpdate: { taskId: first.id, status: { state: 'TASK_STATE_WORKING' } } },
      { artifactUpdate: { taskId: first.id, artifact: { parts: [{ text: 'thanks, Ada' }] } } },
      { statusUpdate: { taskId: first.id, status: { state: 'TASK_STATE_COMPLETED' } } },
    ]);
    expect(JSON.parse(calls[0]?.body ?? '{}')).not.toHaveProperty('kind');
    // Reading the config back over 1.0 shows the spec object only.
    const listed = await client.listTaskPushNotificationConfigs({ taskId: first.id });
    expect(Object.keys(listed.configs?.[0] ?? {}).sort()).toEqual(['id', 'taskId', 'token', 'url']);
  });
});

describe('the version is kept with the config', () => {
  it('after a restart on the same SQLite file a 0.3 webhook still gets 0.3 payloads, whoever sends the next turn', async () => {
    const sdk = await sdkClient('JSONRPC');
    const first = (await sdk.sendMessage({ message: message('ask') })) as Task;
    const hook = '/restart';
    await sdk.setTaskPushNotificationConfig({
      taskId: first.id,
      pushNotificationConfig: { id: 'kept', url: `${webhook.url}${hook}`, token: 'tok' },
    });
    await running().close();
    await start();
    // The answer comes over 1.0 this time: the payload form follows the config, not the call.
    const client = await A2AClient.connect(running().url, { protocolVersions: ['1.0'] });
    await client.sendMessage({ message: userMessage('Ada', { taskId: first.id }) });
    expect03(await callsTo(hook, 4), first.id);
  });
});
