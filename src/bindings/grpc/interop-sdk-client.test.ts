/**
 * Interop: the @a2a-js/sdk 1.3.0 gRPC client against our gRPC server. The SDK client works on
 * ts-proto objects (numeric enums, `{ $case, value }` oneofs) and must set every string field.
 */
import { randomUUID } from 'node:crypto';
import {
  AgentCard as SdkAgentCard,
  TaskState as SdkTaskState,
  type Message as SdkMessage,
} from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import {
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../../core/parts.js';
import { createAgent } from '../../server/agent.js';
import { A2AServer } from '../../server/a2a-server.js';
import { richCard } from '../../../test/helpers/rich-card.js';
import { serveGrpc, type GrpcServerHandle } from './serve.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const agent = createAgent({
  card: {
    name: 'a2a-kit echo',
    description: 'Repeats you',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo text', tags: ['demo'] }],
    capabilities: { streaming: true, extendedAgentCard: true },
  },
  extendedCard: () => richCard(server.url),
  async *execute({ message, task, signal }) {
    const text = textOf(message);
    if (text === 'message') {
      yield task.reply(`echo: ${text}`);
      return;
    }
    yield task.working();
    if (text === 'slow') {
      for (let i = 0; i < 40 && !signal.aborted; i++) await sleep(25);
      if (signal.aborted) return;
    }
    yield task.artifact(`echo: ${text}`);
    yield task.completed();
  },
});


let a2a: A2AServer;
let server: GrpcServerHandle;
let client: Client;

beforeAll(async () => {
  a2a = new A2AServer({ agent, logger: null });
  server = await serveGrpc(a2a);
  const card = SdkAgentCard.fromJSON(a2a.agentCard([server.agentInterface()]));
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
    }),
  );
  client = await factory.createFromAgentCard(card);
});

afterAll(async () => {
  await server.close(1000);
  await a2a.close();
});

const message = (text: string, extra: Partial<SdkMessage> = {}): SdkMessage => ({
  messageId: randomUUID(),
  contextId: '',
  taskId: '',
  role: 1,
  parts: [
    {
      content: { $case: 'text', value: text },
      metadata: undefined,
      filename: '',
      mediaType: 'text/plain',
    },
  ],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
  ...extra,
});

const send = (text: string, returnImmediately = false) =>
  client.sendMessage({
    tenant: '',
    message: message(text),
    configuration: {
      acceptedOutputModes: [],
      returnImmediately,
      taskPushNotificationConfig: undefined,
    },
    metadata: undefined,
  });

function isTask(value: unknown): value is {
  id: string;
  status?: { state: number };
  artifacts: { parts: { content?: { value: unknown } }[] }[];
} {
  return typeof value === 'object' && value !== null && 'status' in value && 'id' in value;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  );
}

describe('interop: @a2a-js/sdk gRPC client → a2a-kit gRPC server', () => {
  it('sendMessage gets the finished task, or the bare reply', async () => {
    const task = await send('hello');
    if (!isTask(task)) throw new Error('expected a task');
    expect(task.status?.state).toBe(SdkTaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('echo: hello');
    const reply = await send('message');
    expect(isTask(reply)).toBe(false);
    expect(reply).toMatchObject({
      role: 2,
      parts: [{ content: { $case: 'text', value: 'echo: message' } }],
    });
  });

  it('sendMessageStream yields task, WORKING, artifact, COMPLETED', async () => {
    const cases: string[] = [];
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: message('stream'),
      configuration: undefined,
      metadata: undefined,
    })) {
      cases.push(event.payload?.$case ?? '?');
    }
    expect(cases).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  });

  it('getTask, listTasks, and resubscribe + cancel of a running task', async () => {
    const done = await send('list me');
    if (!isTask(done)) throw new Error('expected a task');
    const got = await client.getTask({ tenant: '', id: done.id, historyLength: 0 });
    expect(got.id).toBe(done.id);
    expect(got.history).toEqual([]);
    const page = await client.listTasks({
      tenant: '',
      contextId: '',
      status: SdkTaskState.TASK_STATE_COMPLETED,
      pageSize: 1,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(page.tasks).toHaveLength(1);
    expect(page.nextPageToken).not.toBe('');

    const slow = await send('slow', true);
    if (!isTask(slow)) throw new Error('expected a task');
    let firstSeen = () => {};
    const first = new Promise<void>((resolve) => (firstSeen = resolve));
    const seen = (async () => {
      const out: string[] = [];
      for await (const e of client.resubscribeTask({ tenant: '', id: slow.id })) {
        out.push(e.payload?.$case ?? '?');
        firstSeen();
      }
      return out;
    })();
    await Promise.race([first, seen]);
    const canceled = await client.cancelTask({ tenant: '', id: slow.id, metadata: undefined });
    expect(canceled.status?.state).toBe(SdkTaskState.TASK_STATE_CANCELED);
    const events = await seen;
    expect(events[0]).toBe('task');
    expect(events.at(-1)).toBe('statusUpdate');
  });

  it('getAgentCard reads our extended card with every scheme, map and optional field', async () => {
    expect(await client.getAgentCard()).toEqual(SdkAgentCard.fromJSON(richCard(server.url)));
  });

  it('our errors arrive as the SDK typed errors (ErrorInfo in grpc-status-details-bin)', async () => {
    expect(
      await failure(client.getTask({ tenant: '', id: 'nope', historyLength: undefined })),
    ).toBeInstanceOf(TaskNotFoundError);
    const done = await send('done');
    if (!isTask(done)) throw new Error('expected a task');
    const notCancelable = await failure(
      client.cancelTask({ tenant: '', id: done.id, metadata: undefined }),
    );
    expect(notCancelable).toBeInstanceOf(TaskNotCancelableError);
    expect(notCancelable).toMatchObject({ status: 9 });
    const subscribe = (async () => {
      for await (const _ of client.resubscribeTask({ tenant: '', id: done.id })) {
        /* none expected */
      }
    })();
    expect(await failure(subscribe)).toBeInstanceOf(UnsupportedOperationError);
  });
});
