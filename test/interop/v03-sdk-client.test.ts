/**
 * Interop, 0.3: the real 0.3 client (@a2a-js/sdk 0.3.14, installed as `a2a-sdk-03`) against our
 * server with `compat: ['0.3']`, over JSON-RPC, HTTP+JSON and gRPC (`a2a-sdk-03/client/grpc`
 * calling our `a2a.v1.A2AService`): send, stream, get, cancel,
 * resubscribe, push config set/get/list/delete, multi-turn, errors. One task model underneath:
 * a task created over 0.3 is read over 1.0 with the same id, and back (issue 14 points 1, 4, 6).
 */
import { randomUUID } from 'node:crypto';
import type { Message, MessageSendParams, Task, TaskStatusUpdateEvent } from 'a2a-sdk-03';
import {
  ClientFactory,
  ClientFactoryOptions,
  TaskNotCancelableError,
  TaskNotFoundError,
  type Client,
} from 'a2a-sdk-03/client';
import { GrpcTransportFactory } from 'a2a-sdk-03/client/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { userMessage as ourUserMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/serve.js';
import { Gates, QUESTION } from './helpers.js';
import { createInteropAgent } from './our-agent.js';

const gates = new Gates();
let ours: ServeResult;
beforeAll(async () => {
  ours = await serve(createInteropAgent(gates), {
    logger: null,
    compat: ['0.3'],
    grpc: true,
    push: { allowHosts: ['127.0.0.1'], logger: null },
  });
});
afterAll(async () => {
  await ours.close();
});

const message = (text: string, extra: Partial<Message> = {}): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...extra,
});
const send = (text: string, extra: Partial<Message> = {}, blocking = true): MessageSendParams => ({
  message: message(text, extra),
  configuration: { blocking, acceptedOutputModes: ['text/plain'] },
});

async function clientFor(transport: 'JSONRPC' | 'HTTP+JSON' | 'GRPC'): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: [transport],
    }),
  );
  return factory.createFromUrl(ours.url);
}

const asTask = (value: unknown): Task => {
  expect((value as { kind?: string }).kind).toBe('task');
  return value as Task;
};
const textOfArtifacts = (task: Task) =>
  (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => (p.kind === 'text' ? p.text : '')));

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const)(
  '0.3 client (a2a-sdk-03) over %s',
  (binding) => {
    let client: Client;
    beforeAll(async () => {
      client = await clientFor(binding);
    });

    it('reads the hybrid card: url, preferredTransport and protocolVersion 0.3', async () => {
      const response = await fetch(`${ours.url}/.well-known/agent-card.json`);
      expect(response.headers.get('vary')).toMatch(/A2A-Version/i);
      const card = (await response.json()) as Record<string, unknown>;
      expect(card.protocolVersion).toBe('0.3.0');
      expect(card.url).toBe(`${ours.url}/a2a/jsonrpc`);
      expect(card.preferredTransport).toBe('JSONRPC');
      expect(card.additionalInterfaces).toEqual([
        { url: `${ours.url}/a2a/jsonrpc`, transport: 'JSONRPC' },
        { url: `${ours.url}/a2a/rest`, transport: 'HTTP+JSON' },
        { url: ours.grpcUrl, transport: 'GRPC' },
      ]);
      const v1 = (await (
        await fetch(`${ours.url}/.well-known/agent-card.json`, {
          headers: { 'A2A-Version': '1.0' },
        })
      ).json()) as Record<string, unknown>;
      expect(v1.url).toBeUndefined();
      expect(v1.supportedInterfaces).toEqual(card.supportedInterfaces);
    });

    it('message/send: a completed task with its artifact, in 0.3 shapes', async () => {
      const task = asTask(await client.sendMessage(send('hello')));
      expect(task.status.state).toBe('completed');
      expect(textOfArtifacts(task)).toEqual(['echo: hello']);
      expect(task.history?.[0]?.role).toBe('user');
    });

    it('message/send: a stateless Message reply', async () => {
      const reply = (await client.sendMessage(send('message'))) as Message;
      expect(reply.kind).toBe('message');
      expect(reply.role).toBe('agent');
    });

    it('message/stream: task, status-updates with final on the last, artifact-update', async () => {
      const kinds: string[] = [];
      let last: TaskStatusUpdateEvent | undefined;
      for await (const event of client.sendMessageStream(send('stream me'))) {
        kinds.push(event.kind === 'status-update' ? `status:${event.status.state}` : event.kind);
        if (event.kind === 'status-update') last = event;
      }
      expect(kinds[0]).toBe('task');
      expect(kinds).toContain('artifact-update');
      expect(kinds.at(-1)).toBe('status:completed');
      expect(last?.final).toBe(true);
    });

    it('multi-turn: input-required, then the answer on the same task completes it', async () => {
      const first = asTask(await client.sendMessage(send('ask')));
      expect(first.status.state).toBe('input-required');
      const question = first.status.message?.parts[0];
      expect(question?.kind === 'text' ? question.text : '').toBe(QUESTION);
      const second = asTask(
        await client.sendMessage(send('Ada', { taskId: first.id, contextId: first.contextId })),
      );
      expect(second.id).toBe(first.id);
      expect(second.status.state).toBe('completed');
      expect(textOfArtifacts(second)).toEqual(['thanks, Ada']);
    });

    it('tasks/get, tasks/cancel and tasks/resubscribe on one task; canceled is spelled the 0.3 way', async () => {
      const started = asTask(await client.sendMessage(send('slow', {}, false)));
      const got = await client.getTask({ id: started.id, historyLength: 1 });
      expect(got.id).toBe(started.id);
      const seen: string[] = [];
      const resubscribed = (async () => {
        for await (const event of client.resubscribeTask({ id: started.id })) {
          seen.push(event.kind === 'status-update' ? `status:${event.status.state}` : event.kind);
        }
      })();
      // The subscription is open once the first event (the task) arrived.
      while (seen.length === 0) await new Promise((r) => setTimeout(r, 10));
      const canceled = await client.cancelTask({ id: started.id });
      expect(canceled.status.state).toBe('canceled');
      await resubscribed;
      expect(seen.at(-1)).toBe('status:canceled');
      const done = asTask(await client.sendMessage(send('done')));
      await expect(client.cancelTask({ id: done.id })).rejects.toBeInstanceOf(
        TaskNotCancelableError,
      );
    });

    it('a task created over 0.3 is read and streamed over 1.0 with the same id, and back', async () => {
      const over03 = asTask(await client.sendMessage(send('shared')));
      const v1 = await A2AClient.connect(ours.url);
      const read = await v1.getTask({ id: over03.id });
      expect(read.status.state).toBe('TASK_STATE_COMPLETED');
      const over10 = await v1.sendMessage({ message: ourUserMessage('from 1.0') });
      const id = 'task' in over10 ? over10.task.id : '';
      const back = await client.getTask({ id });
      expect(back.status.state).toBe('completed');
    });

    it('push configs: set, get, list, delete, with the 0.3 nesting', async () => {
      const task = asTask(await client.sendMessage(send('ask')));
      const url = 'http://127.0.0.1:9/webhook';
      const set = await client.setTaskPushNotificationConfig({
        taskId: task.id,
        pushNotificationConfig: { id: 'c1', url, token: 'tok' },
      });
      expect(set).toEqual({
        taskId: task.id,
        pushNotificationConfig: { id: 'c1', url, token: 'tok' },
      });
      // Their Client types the get/delete params as TaskIdParams; the wire carries the config id.
      const target = { id: task.id, pushNotificationConfigId: 'c1' };
      const got = await client.getTaskPushNotificationConfig(target);
      expect(got.pushNotificationConfig.url).toBe(url);
      const listed = await client.listTaskPushNotificationConfig({ id: task.id });
      expect(listed.map((c) => c.pushNotificationConfig.id)).toEqual(['c1']);
      await client.deleteTaskPushNotificationConfig(target);
      expect(await client.listTaskPushNotificationConfig({ id: task.id })).toEqual([]);
    });

    it('errors: an unknown task is TaskNotFound (-32001)', async () => {
      await expect(client.getTask({ id: 'no-such-task' })).rejects.toBeInstanceOf(
        TaskNotFoundError,
      );
    });
  },
);
