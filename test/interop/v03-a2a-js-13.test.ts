/**
 * Interop, 0.3, with @a2a-js/sdk 1.3.0 in its `legacyCompat` mode, both ways and over JSON-RPC
 * and HTTP+JSON (issue 14 point 6):
 * - our client limited to 0.3 (`protocolVersions: ['0.3']`) against their server with
 *   `legacyCompat: { enabled: true }`: send, stream, get, cancel, resubscribe, multi-turn;
 * - their client with `legacyCompat` transport factories, given only the 0.3 entries of our
 *   card, against our server with `compat: ['0.3']`: the same list.
 */
import { randomUUID } from 'node:crypto';
import { AgentCard as TheirCard, Role, TaskState, type Message as TheirMessage } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { textOf, userMessage } from '../../src/core/parts.js';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import { serve, type ServeResult } from '../../src/node/serve.js';
import { startTheirServer, type TheirServer } from './a2a-js-server.js';
import { Gates, QUESTION, eventKinds, taskOf } from './helpers.js';
import { createInteropAgent } from './our-agent.js';

let theirs: TheirServer;
let ours: ServeResult;
beforeAll(async () => {
  theirs = await startTheirServer(true);
  ours = await serve(createInteropAgent(new Gates()), { logger: null, compat: ['0.3'] });
});
afterAll(async () => {
  await theirs.close();
  await ours.close();
});

const BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;
const artifactText = (task: Task) => (task.artifacts ?? []).map((a) => textOf(a.parts)).join('|');

describe.each(BINDINGS)(
  'our 0.3 client → @a2a-js/sdk 1.3 legacyCompat server over %s',
  (binding) => {
    let client: A2AClient;
    beforeAll(async () => {
      client = await A2AClient.connect(theirs.url, {
        preferredBinding: binding,
        protocolVersions: ['0.3'],
      });
    });

    it('uses their 0.3 interface', () => {
      expect(client.selectedInterface.protocolVersion).toBe('0.3');
      expect(client.selectedInterface.protocolBinding).toBe(binding);
    });

    it('send, stream and multi-turn', async () => {
      const done = taskOf(await client.sendMessage({ message: userMessage('hello') }));
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(artifactText(done)).toBe('echo: hello');
      const events: StreamResponse[] = [];
      for await (const e of client.sendStreamingMessage({ message: userMessage('go') }))
        events.push(e);
      expect(eventKinds(events).at(-1)).toBe('status:TASK_STATE_COMPLETED');
      const asked = taskOf(await client.sendMessage({ message: userMessage('ask') }));
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(textOf(asked.status.message?.parts ?? [])).toBe(QUESTION);
      const answered = taskOf(
        await client.sendMessage({
          message: userMessage('Ada', { taskId: asked.id, contextId: asked.contextId }),
        }),
      );
      expect(answered.id).toBe(asked.id);
      expect(artifactText(answered)).toBe('thanks, Ada');
    });

    it('get, resubscribe and cancel one task', async () => {
      const started = taskOf(
        await client.sendMessage({
          message: userMessage('slow'),
          configuration: { returnImmediately: true },
        }),
      );
      expect((await client.getTask({ id: started.id })).id).toBe(started.id);
      const events: StreamResponse[] = [];
      const subscribed = (async () => {
        for await (const e of client.subscribeToTask({ id: started.id })) events.push(e);
      })();
      while (events.length === 0) await new Promise((r) => setTimeout(r, 10));
      await client.cancelTask({ id: started.id });
      await subscribed;
      expect(eventKinds(events).at(-1)).toBe('status:TASK_STATE_CANCELED');
    });
  },
);

const theirMessage = (text: string, extra: Partial<TheirMessage> = {}): TheirMessage => ({
  messageId: randomUUID(),
  role: Role.ROLE_USER,
  parts: [
    { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
  ],
  contextId: '',
  taskId: '',
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
  ...extra,
});
const request = (message: TheirMessage, returnImmediately = false) => ({
  tenant: '',
  message,
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately,
  },
  metadata: undefined,
});
type TheirTask = { id: string; contextId: string; status?: { state: TaskState } };
const asTheirTask = (value: unknown) => {
  expect(value).toHaveProperty('status');
  return value as TheirTask;
};

describe.each(BINDINGS)(
  '@a2a-js/sdk 1.3 legacyCompat client → our compat server over %s',
  (binding) => {
    let client: Client;
    beforeAll(async () => {
      // Their resolver asks with A2A-Version 1.0; keep only our 0.3 entries so their factory
      // builds its 0.3 transport.
      const cardJson = (await (
        await fetch(`${ours.url}/.well-known/agent-card.json`, {
          headers: { 'A2A-Version': '1.0' },
        })
      ).json()) as { supportedInterfaces: { protocolVersion: string; protocolBinding: string }[] };
      cardJson.supportedInterfaces = cardJson.supportedInterfaces.filter(
        (i) => i.protocolVersion === '0.3' && i.protocolBinding === binding,
      );
      const compat = { legacyCompat: { enabled: true } };
      const factory = new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory(compat), new RestTransportFactory(compat)],
        }),
      );
      client = await factory.createFromAgentCard(TheirCard.fromJSON(cardJson));
    });

    it('send, stream and multi-turn', async () => {
      const done = asTheirTask(await client.sendMessage(request(theirMessage('hello'))));
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const states: TaskState[] = [];
      for await (const e of client.sendMessageStream(request(theirMessage('go')))) {
        if (e.payload?.$case === 'statusUpdate') states.push(e.payload.value.status?.state ?? 0);
      }
      expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
      const asked = asTheirTask(await client.sendMessage(request(theirMessage('ask'))));
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const answered = asTheirTask(
        await client.sendMessage(
          request(theirMessage('Ada', { taskId: asked.id, contextId: asked.contextId })),
        ),
      );
      expect(answered.id).toBe(asked.id);
      expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('get, resubscribe and cancel one task', async () => {
      const started = asTheirTask(await client.sendMessage(request(theirMessage('slow'), true)));
      const got = asTheirTask(
        await client.getTask({ tenant: '', id: started.id, historyLength: 0 }),
      );
      expect(got.id).toBe(started.id);
      const states: TaskState[] = [];
      let opened = false;
      const subscribed = (async () => {
        for await (const e of client.resubscribeTask({ tenant: '', id: started.id })) {
          opened = true;
          if (e.payload?.$case === 'statusUpdate') states.push(e.payload.value.status?.state ?? 0);
        }
      })();
      while (!opened) await new Promise((r) => setTimeout(r, 10));
      const canceled = asTheirTask(
        await client.cancelTask({ tenant: '', id: started.id, metadata: undefined }),
      );
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      await subscribed;
      expect(states.at(-1)).toBe(TaskState.TASK_STATE_CANCELED);
    });
  },
);
