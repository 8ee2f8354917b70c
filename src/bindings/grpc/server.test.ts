import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import { textOf, userMessage } from '../../core/parts.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { TransportError } from '../../transport/errors.js';
import { createAgent } from '../../server/agent.js';
import { A2AServer } from '../../server/a2a-server.js';
import { A2AClient } from '../../client/client.js';
import { DEFAULT_TRANSPORTS } from '../../client/default-transports.js';
import { GrpcTransport, grpcTransport } from './client.js';
import { serveGrpc, type GrpcServerHandle } from './serve.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const agent = createAgent({
  card: {
    name: 'Echo',
    description: 'Repeats you',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo text', tags: ['demo'] }],
    capabilities: { streaming: true, extendedAgentCard: true },
  },
  extendedCard: (call) => ({
    name: 'Echo (extended)',
    description: `for tenant ${call.tenant ?? '-'}`,
    version: '1.0.0',
    supportedInterfaces: [{ url: '127.0.0.1:1', protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  }),
  async *execute({ message, task, current, signal }) {
    const text = textOf(message);
    if (text === 'message') {
      yield task.reply(`echo: ${text}`);
      return;
    }
    yield task.working();
    if (current?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
      yield task.completed(`thanks for ${text}`);
      return;
    }
    if (text === 'ask') {
      yield task.inputRequired('more, please');
      return;
    }
    if (text.startsWith('slow')) {
      for (let i = 0; i < 40 && !signal.aborted; i++) await sleep(25);
      if (signal.aborted) return;
    }
    yield task.artifact(`You said: ${text}`);
    yield task.completed();
  },
});

let a2a: A2AServer;
let server: GrpcServerHandle;
let client: GrpcTransport;

beforeAll(async () => {
  a2a = new A2AServer({ agent, logger: null });
  server = await serveGrpc(a2a, { port: 0 });
  client = new GrpcTransport({ url: server.url });
});

afterAll(async () => {
  client.close();
  await server.close(1000);
  await a2a.close();
});

async function events(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

function taskOf(result: { task: Task } | { message: unknown }): Task {
  if (!('task' in result)) throw new Error('expected a task');
  return result.task;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('gRPC binding: our client against our server', () => {
  it('serves on 127.0.0.1 and describes itself as a GRPC interface', () => {
    expect(server.url).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(server.agentInterface()).toEqual({
      url: server.url,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
  });

  it('SendMessage answers with the finished task, or with a bare message', async () => {
    const task = taskOf(await client.sendMessage({ message: userMessage('hello') }));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.artifacts?.[0])).toBe('You said: hello');
    expect(task.history?.[0]?.role).toBe('ROLE_USER');
    const reply = await client.sendMessage({ message: userMessage('message') });
    expect('message' in reply && textOf(reply.message)).toBe('echo: message');
  });

  it('multi-turn: INPUT_REQUIRED, then a follow-up on the same task', async () => {
    const asked = taskOf(await client.sendMessage({ message: userMessage('ask') }));
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const message = userMessage('42', { taskId: asked.id, contextId: asked.contextId ?? '' });
    const done = taskOf(await client.sendMessage({ message, configuration: { historyLength: 1 } }));
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.history).toHaveLength(1);
  });

  it('GetTask honours historyLength 0, ListTasks pages with all page fields', async () => {
    const task = taskOf(await client.sendMessage({ message: userMessage('list me') }));
    const got = await client.getTask({ id: task.id, historyLength: 0 });
    expect(got.id).toBe(task.id);
    expect(got.history).toBeUndefined();
    const page = await client.listTasks({ pageSize: 1, status: 'TASK_STATE_COMPLETED' });
    expect(page.tasks).toHaveLength(1);
    expect(page.pageSize).toBe(1);
    expect(page.totalSize).toBeGreaterThan(1);
    expect(page.nextPageToken).not.toBe('');
    const last = await client.listTasks({ contextId: task.contextId ?? '' });
    expect(last).toMatchObject({ tasks: [{ id: task.id }], nextPageToken: '', totalSize: 1 });
  });

  it('SendStreamingMessage streams the task, then each update in order, then ends', async () => {
    const all = await events(client.sendStreamingMessage({ message: userMessage('stream me') }));
    expect(all.map((e) => Object.keys(e)[0])).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    const states = all.flatMap((e) => ('statusUpdate' in e ? [e.statusUpdate.status.state] : []));
    expect(states).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    const single = await events(client.sendStreamingMessage({ message: userMessage('message') }));
    expect(single).toHaveLength(1);
    expect(single[0]).toHaveProperty('message');
  });

  it('SubscribeToTask starts with the current task and ends when it is terminal; CancelTask cancels', async () => {
    const started = taskOf(
      await client.sendMessage({
        message: userMessage('slow one'),
        configuration: { returnImmediately: true },
      }),
    );
    let firstSeen = () => {};
    const first = new Promise<void>((resolve) => (firstSeen = resolve));
    const seen = (async () => {
      const out: StreamResponse[] = [];
      for await (const e of client.subscribeToTask({ id: started.id })) {
        out.push(e);
        firstSeen();
      }
      return out;
    })();
    await Promise.race([first, seen]);
    const canceled = await client.cancelTask({ id: started.id, metadata: { why: 'test' } });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const all = await seen;
    expect(all[0]).toHaveProperty('task.id', started.id);
    expect(all.at(-1)).toHaveProperty('statusUpdate.status.state', 'TASK_STATE_CANCELED');
  });

  it('a client that stops reading a stream cancels the RPC, not the task', async () => {
    for await (const event of client.sendStreamingMessage({
      message: userMessage('slow but sure'),
    })) {
      expect(event).toHaveProperty('task');
      break;
    }
    const [task] = (await client.listTasks({})).tasks.filter(
      (t) => textOf(t.history?.[0]) === 'slow but sure',
    );
    expect(task?.status.state).not.toBe('TASK_STATE_CANCELED');
    let after = await client.getTask({ id: task?.id ?? '' });
    for (let i = 0; i < 200 && after.status.state === 'TASK_STATE_WORKING'; i++) {
      await sleep(25);
      after = await client.getTask({ id: task?.id ?? '' });
    }
    expect(after.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('maps errors to A2AError with the ErrorInfo reason and metadata', async () => {
    const missing = await rejection(client.getTask({ id: 'nope' }));
    expect(missing).toBeInstanceOf(A2AError);
    expect(missing).toMatchObject({ code: 'TASK_NOT_FOUND', metadata: { taskId: 'nope' } });
    const done = taskOf(await client.sendMessage({ message: userMessage('finish') }));
    expect(await rejection(client.cancelTask({ id: done.id }))).toMatchObject({
      code: 'TASK_NOT_CANCELABLE',
    });
    expect(await rejection(events(client.subscribeToTask({ id: done.id })))).toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
    });
    const push = client.createTaskPushNotificationConfig({
      taskId: done.id,
      url: 'https://h.example',
    });
    expect(await rejection(push)).toMatchObject({ code: 'PUSH_NOTIFICATION_NOT_SUPPORTED' });
    for (const call of [
      client.getTaskPushNotificationConfig({ taskId: done.id, id: 'p' }),
      client.listTaskPushNotificationConfigs({ taskId: done.id }),
      client.deleteTaskPushNotificationConfig({ taskId: done.id, id: 'p' }),
    ]) {
      expect(await rejection(call)).toMatchObject({ code: 'PUSH_NOTIFICATION_NOT_SUPPORTED' });
    }
  });

  it('GetExtendedAgentCard returns the card, and the tenant reaches the server', async () => {
    const tenantClient = new GrpcTransport({ url: server.url, tenant: 'acme' });
    try {
      const card = await tenantClient.getExtendedAgentCard({});
      expect(card).toMatchObject({
        name: 'Echo (extended)',
        description: 'for tenant acme',
        skills: [],
      });
      const task = taskOf(await tenantClient.sendMessage({ message: userMessage('tenant') }));
      expect(await rejection(client.getTask({ id: task.id }))).toMatchObject({
        code: 'TASK_NOT_FOUND',
      });
      expect((await tenantClient.getTask({ id: task.id })).id).toBe(task.id);
    } finally {
      tenantClient.close();
    }
  });

  it('plugs into A2AClient, which picks the GRPC interface from the card', async () => {
    const card = a2a.agentCard([server.agentInterface()]);
    const a2aClient = await A2AClient.connect(card, {
      transports: { ...DEFAULT_TRANSPORTS, GRPC: grpcTransport },
    });
    try {
      expect(a2aClient.selectedInterface.protocolBinding).toBe('GRPC');
      const task = taskOf(await a2aClient.sendMessage({ message: userMessage('via A2AClient') }));
      expect(textOf(task.artifacts?.[0])).toBe('You said: via A2AClient');
      const all = await events(a2aClient.sendStreamingMessage({ message: userMessage('s') }));
      expect(all.at(-1)).toHaveProperty('statusUpdate.status.state', 'TASK_STATE_COMPLETED');
    } finally {
      a2aClient.close();
    }
  });

  it('reports local failures as TransportError: nothing listening, caller abort', async () => {
    const dead = new GrpcTransport({ url: '127.0.0.1:1', timeoutMs: 2000 });
    try {
      expect(await rejection(dead.getTask({ id: 'x' }))).toMatchObject({
        name: 'TransportError',
        code: 'NETWORK',
      });
    } finally {
      dead.close();
    }
    const controller = new AbortController();
    const pending = client.sendMessage(
      { message: userMessage('slow abort') },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    const aborted = await rejection(pending);
    expect(aborted).toBeInstanceOf(TransportError);
    expect(aborted).toHaveProperty('code', 'ABORTED');
  });
});
