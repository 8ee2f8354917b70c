/**
 * Interop, 0.3: our client (A2AClient.connect) against the real 0.3 SDK server
 * (./v03-sdk-server.ts), over JSON-RPC, HTTP+JSON and gRPC (`a2a.v1.A2AService` of
 * `a2a-sdk-03/server/grpc`): it reads the pure 0.3 card, picks the 0.3
 * interfaces, and the caller sees 1.0 shapes for send, stream, get, cancel, resubscribe, push
 * config set/get/list/delete, multi-turn and errors (issue 14 points 5 and 6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { A2AError } from '../../src/core/errors.js';
import { textOf, userMessage } from '../../src/core/parts.js';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import { IncompatibleAgentError } from '../../src/transport/errors.js';
import { QUESTION, eventKinds, failureOf, taskOf } from './helpers.js';
import { startSdk03Server, type Sdk03Server } from './v03-sdk-server.js';

let theirs: Sdk03Server;
beforeAll(async () => {
  theirs = await startSdk03Server({ grpc: true });
});
afterAll(async () => {
  await theirs.close();
});

const artifactText = (task: Task) => (task.artifacts ?? []).map((a) => textOf(a.parts)).join('|');

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const)(
  'our client → 0.3 SDK server over %s',
  (binding) => {
    let client: A2AClient;
    beforeAll(async () => {
      client = await A2AClient.connect(theirs.url, { preferredBinding: binding });
    });
    afterAll(() => client.close());

    it('reads the 0.3 card and picks the 0.3 interface of the binding', () => {
      const paths = { JSONRPC: '/a2a/jsonrpc', 'HTTP+JSON': '/a2a/rest' } as const;
      expect(client.selectedInterface).toEqual({
        url: binding === 'GRPC' ? theirs.grpcUrl : `${theirs.url}${paths[binding]}`,
        protocolBinding: binding,
        protocolVersion: '0.3',
      });
    });

    it('SendMessage: a 1.0 task (TASK_STATE_COMPLETED, parts without kind)', async () => {
      const task = taskOf(await client.sendMessage({ message: userMessage('hello') }));
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(artifactText(task)).toBe('echo: hello');
    });

    it('SendMessage: a Message reply', async () => {
      const result = await client.sendMessage({ message: userMessage('message') });
      expect('message' in result && result.message.role).toBe('ROLE_AGENT');
    });

    it('SendStreamingMessage: 1.0 StreamResponses in order', async () => {
      const events: StreamResponse[] = [];
      for await (const e of client.sendStreamingMessage({ message: userMessage('go') }))
        events.push(e);
      expect(eventKinds(events)).toEqual([
        'task:TASK_STATE_SUBMITTED',
        'status:TASK_STATE_WORKING',
        'artifact',
        'status:TASK_STATE_COMPLETED',
      ]);
    });

    it('multi-turn: INPUT_REQUIRED, then the answer completes the same task', async () => {
      const first = taskOf(await client.sendMessage({ message: userMessage('ask') }));
      expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(textOf(first.status.message?.parts ?? [])).toBe(QUESTION);
      const second = taskOf(
        await client.sendMessage({
          message: userMessage('Ada', { taskId: first.id, contextId: first.contextId }),
        }),
      );
      expect(second.id).toBe(first.id);
      expect(artifactText(second)).toBe('thanks, Ada');
    });

    it('GetTask, SubscribeToTask and CancelTask on one task (TASK_STATE_CANCELED)', async () => {
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
      const canceled = await client.cancelTask({ id: started.id });
      expect(['TASK_STATE_CANCELED', 'TASK_STATE_WORKING']).toContain(canceled.status.state);
      await subscribed;
      expect(eventKinds(events).at(-1)).toBe('status:TASK_STATE_CANCELED');
      expect((await client.getTask({ id: started.id })).status.state).toBe('TASK_STATE_CANCELED');
    });

    it('push configs: create, get, list, delete in 1.0 shapes', async () => {
      const task = taskOf(await client.sendMessage({ message: userMessage('ask') }));
      const url = 'https://example.com/hook';
      const created = await client.createTaskPushNotificationConfig({
        taskId: task.id,
        id: 'c1',
        url,
        token: 'tok',
      });
      expect(created).toMatchObject({ taskId: task.id, id: 'c1', url, token: 'tok' });
      const got = await client.getTaskPushNotificationConfig({ taskId: task.id, id: 'c1' });
      expect(got.url).toBe(url);
      const listed = await client.listTaskPushNotificationConfigs({ taskId: task.id });
      expect((listed.configs ?? []).map((c) => c.id)).toEqual(['c1']);
      await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: 'c1' });
      expect((await client.listTaskPushNotificationConfigs({ taskId: task.id })).configs).toEqual(
        [],
      );
    });

    it('errors: an unknown task is TASK_NOT_FOUND; ListTasks is UNSUPPORTED_OPERATION locally', async () => {
      const missing = await failureOf(client.getTask({ id: 'no-such-task' }));
      expect(missing).toBeInstanceOf(A2AError);
      expect((missing as A2AError).code).toBe('TASK_NOT_FOUND');
      const list = await failureOf(client.listTasks({}));
      expect((list as A2AError).code).toBe('UNSUPPORTED_OPERATION');
    });
  },
);

describe('version preference', () => {
  it('protocolVersions: [1.0] refuses a 0.3-only agent with a clear error', async () => {
    const error = await failureOf(A2AClient.connect(theirs.url, { protocolVersions: ['1.0'] }));
    expect(error).toBeInstanceOf(IncompatibleAgentError);
    expect((error as Error).message).toMatch(/0\.3/);
  });
});
