/**
 * Interop: our GrpcTransport against an @a2a-js/sdk 1.3.0 gRPC server (their proto codegen, their
 * handler). The SDK works on ts-proto objects (numeric enums, `{ $case, value }` oneofs).
 */
import { randomUUID } from 'node:crypto';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { AgentCard as SdkAgentCard, TaskState as SdkTaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { A2AService, grpcService, UserBuilder } from '@a2a-js/sdk/server/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import { textOf, userMessage } from '../../core/parts.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { GrpcTransport } from './client.js';
import { richCard } from '../../../test/helpers/rich-card.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => new Date().toISOString();

/** Echo executor in the SDK's shapes: task, WORKING, artifact, COMPLETED; "message" replies. */
class EchoExecutor implements AgentExecutor {
  private readonly canceled = new Set<string>();

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage: incoming } = ctx;
    const text = incoming.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    const part = (t: string) => ({
      content: { $case: 'text' as const, value: t },
      metadata: undefined,
      filename: '',
      mediaType: 'text/plain',
    });
    if (text === 'message') {
      bus.publish(
        AgentEvent.message({
          messageId: randomUUID(),
          contextId,
          taskId: '',
          role: 2,
          parts: [part(`echo: ${text}`)],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
      return;
    }
    const status = (state: SdkTaskState) => ({ state, message: undefined, timestamp: now() });
    const update = (state: SdkTaskState) =>
      bus.publish(
        AgentEvent.statusUpdate({ taskId, contextId, status: status(state), metadata: undefined }),
      );
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(SdkTaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [incoming],
        metadata: undefined,
      }),
    );
    update(SdkTaskState.TASK_STATE_WORKING);
    if (text === 'slow') {
      for (let i = 0; i < 40 && !this.canceled.has(taskId); i++) await sleep(25);
      if (this.canceled.has(taskId)) return update(SdkTaskState.TASK_STATE_CANCELED);
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        append: false,
        lastChunk: true,
        metadata: undefined,
        artifact: {
          artifactId: randomUUID(),
          name: 'echo',
          description: '',
          parts: [part(`echo: ${text}`)],
          metadata: undefined,
          extensions: [],
        },
      }),
    );
    update(SdkTaskState.TASK_STATE_COMPLETED);
  }

  async cancelTask(taskId: string): Promise<void> {
    this.canceled.add(taskId);
  }
}


let server: Server;
let client: GrpcTransport;

beforeAll(async () => {
  server = new Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const url = `127.0.0.1:${port}`;
  const card = SdkAgentCard.fromJSON({
    name: 'sdk echo',
    description: 'an @a2a-js/sdk agent',
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'echo', tags: ['demo'] }],
  });
  const requestHandler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new EchoExecutor(),
    undefined,
    undefined,
    undefined,
    async () => SdkAgentCard.fromJSON(richCard(url)),
  );
  server.addService(
    A2AService,
    grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  client = new GrpcTransport({ url });
});

afterAll(() => {
  client.close();
  server.forceShutdown();
});

function taskOf(result: { task: Task } | { message: unknown }): Task {
  if (!('task' in result)) throw new Error('expected a task');
  return result.task;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  );
}

describe('interop: a2a-kit gRPC client → @a2a-js/sdk gRPC server', () => {
  it('SendMessage returns the finished task with its artifact, or the bare reply', async () => {
    const task = taskOf(await client.sendMessage({ message: userMessage('hello') }));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.artifacts?.[0])).toBe('echo: hello');
    const reply = await client.sendMessage({ message: userMessage('message') });
    expect('message' in reply && reply.message.role).toBe('ROLE_AGENT');
  });

  it('SendStreamingMessage yields the task and every update in order', async () => {
    const events: StreamResponse[] = [];
    for await (const e of client.sendStreamingMessage({ message: userMessage('stream') }))
      events.push(e);
    expect(events.map((e) => Object.keys(e)[0])).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(events.at(-1)).toHaveProperty('statusUpdate.status.state', 'TASK_STATE_COMPLETED');
  });

  it('GetTask, ListTasks and CancelTask work; errors carry the A2A reason', async () => {
    const task = taskOf(await client.sendMessage({ message: userMessage('list') }));
    expect((await client.getTask({ id: task.id, historyLength: 0 })).history).toBeUndefined();
    const page = await client.listTasks({ pageSize: 2, status: 'TASK_STATE_COMPLETED' });
    expect(page.tasks.length).toBeGreaterThan(0);
    expect(page.pageSize).toBe(2);
    expect(await failure(client.getTask({ id: 'nope' }))).toMatchObject({ code: 'TASK_NOT_FOUND' });
    const notCancelable = await failure(client.cancelTask({ id: task.id }));
    expect(notCancelable).toBeInstanceOf(A2AError);
    expect(notCancelable).toMatchObject({ code: 'TASK_NOT_CANCELABLE' });
    expect(
      await failure(
        (async () => {
          for await (const _ of client.subscribeToTask({ id: task.id })) {
            /* none */
          }
        })(),
      ),
    ).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
  });

  it('GetExtendedAgentCard decodes every security scheme, map and optional field', async () => {
    const url = client.url;
    expect(await client.getExtendedAgentCard({})).toEqual(richCard(url));
  });

  it('SubscribeToTask follows a running task that CancelTask then cancels', async () => {
    const started = taskOf(
      await client.sendMessage({
        message: userMessage('slow'),
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
    const canceled = await client.cancelTask({ id: started.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const events = await seen;
    expect(events[0]).toHaveProperty('task.id', started.id);
    expect(events.at(-1)).toHaveProperty('statusUpdate.status.state', 'TASK_STATE_CANCELED');
  });
});
