import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../client/client.js';
import { AgentCardResolver } from '../client/card-resolver.js';
import { A2AError } from '../core/errors.js';
import { userMessage } from '../core/parts.js';
import { createA2AHandler } from '../bindings/a2a-handler.js';
import { toNodeListener } from '../node/listener.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { PUSH_JWKS_PATH, createPushJwksHandler } from './jwks.js';
import type { PushNotifierHandle } from './notifier.js';
import { receivePushNotifications, type PushReceiverServer } from './receive-server.js';
import type { PushRejected, VerifiedPush } from './receiver.js';
import { PushSigner } from './signing.js';
import { testNotifier, waitFor } from '../../test/integration/push-helpers.js';

const agent = createAgent({
  card: { name: 'Reporter', description: 'writes a report', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.working('starting');
    yield task.artifact([{ text: 'part one' }], { artifactId: 'report' });
    yield task.artifact([{ text: 'part two' }], { artifactId: 'report', append: true });
    yield task.completed('done');
  },
});

/** The agent served over HTTP with its push JWKS mounted next to the A2A routes. */
let baseUrl = '';
let http: Server;
let server: A2AServer;
let notifier: PushNotifierHandle;
let receiver: PushReceiverServer;
const received: VerifiedPush[] = [];
const rejected: PushRejected[] = [];

beforeAll(async () => {
  http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const store = new MemoryTaskStore();
  const signer = await PushSigner.generate({ issuer: baseUrl });
  ({ notifier } = testNotifier({ store, signer }));
  server = new A2AServer({ agent, store, push: { notifier } });
  const a2a = createA2AHandler(server, { baseUrl });
  const jwks = createPushJwksHandler(signer);
  http.on(
    'request',
    toNodeListener((req) => (req.url.split('?')[0] === PUSH_JWKS_PATH ? jwks(req) : a2a(req))),
  );
  receiver = await receivePushNotifications({
    jwks: `${baseUrl}${PUSH_JWKS_PATH}`,
    allowInsecure: true,
    issuer: baseUrl,
    token: 'tok-e2e',
    path: '/hook',
    onEvent: (push) => void received.push(push),
    onReject: (error) => void rejected.push(error),
  });
});

afterAll(async () => {
  await notifier.close();
  await server.close();
  await receiver.close();
  await new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
});

describe('push notifications end to end', () => {
  it('[128,139,151] pushes signed status and artifact updates of a task created with an inline config, in order', async () => {
    const client = await A2AClient.connect(baseUrl, { cardResolver: new AgentCardResolver() });
    expect(client.card.capabilities.pushNotifications).toBe(true);
    const reply = await client.sendMessage({
      message: userMessage('write it'),
      configuration: {
        taskPushNotificationConfig: { url: `${receiver.url}/hook`, token: 'tok-e2e' },
      },
    });
    const taskId = 'task' in reply ? reply.task.id : '';
    await waitFor(() => received.length === 4, 5_000, 'four notifications');
    expect(rejected).toEqual([]);
    expect(received.map((p) => p.taskId)).toEqual([taskId, taskId, taskId, taskId]);
    const summary = received.map(({ event }) =>
      'statusUpdate' in event
        ? event.statusUpdate.status.state
        : 'artifactUpdate' in event
          ? `${event.artifactUpdate.artifact.parts[0]?.text ?? ''}`
          : 'other',
    );
    expect(summary).toEqual(['TASK_STATE_WORKING', 'part one', 'part two', 'TASK_STATE_COMPLETED']);
    for (const push of received) {
      expect(push.claims).toMatchObject({ iss: baseUrl, aud: `${receiver.url}/hook`, taskId });
    }
    const { configs } = await client.listTaskPushNotificationConfigs({ taskId });
    expect(configs).toEqual([
      expect.objectContaining({ taskId, url: `${receiver.url}/hook`, id: expect.any(String) }),
    ]);
  });

  it('[147] refuses a webhook URL inside the network when a config is created over the wire', async () => {
    const client = await A2AClient.connect(baseUrl, { cardResolver: new AgentCardResolver() });
    const reply = await client.sendMessage({
      message: userMessage('again'),
      configuration: { returnImmediately: true },
    });
    const taskId = 'task' in reply ? reply.task.id : '';
    const error = await client
      .createTaskPushNotificationConfig({ taskId, url: 'https://169.254.169.254/latest' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe('INVALID_PARAMS');
    expect((error as A2AError).message).toMatch(/link-local/);
    const inline = await client
      .sendMessage({
        message: userMessage('inline'),
        configuration: { taskPushNotificationConfig: { url: 'https://localhost/hook' } },
      })
      .catch((e: unknown) => e);
    expect((inline as A2AError).code).toBe('INVALID_PARAMS');
  });
});
