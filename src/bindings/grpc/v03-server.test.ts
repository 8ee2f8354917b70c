import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import { textOf, userMessage } from '../../core/parts.js';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { createAgent } from '../../server/agent.js';
import { A2AServer } from '../../server/a2a-server.js';
import { GrpcTransport } from './client.js';
import { serveGrpc, type GrpcServerHandle } from './serve.js';
import { Grpc03Transport } from './v03-client.js';
import { protoV03 } from './v03-proto.js';
import { GRPC_STATUS } from './wire.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const EXTENSION = 'https://example.com/ext/v1';

const agent = createAgent({
  card: {
    name: 'Echo',
    description: 'Repeats you',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo text', tags: ['demo'] }],
    capabilities: { streaming: true, extensions: [{ uri: EXTENSION }] },
  },
  async *execute({ message, task, signal }) {
    const text = textOf(message);
    yield task.working();
    if (text.startsWith('slow')) {
      for (let i = 0; i < 200 && !signal.aborted; i++) await sleep(10);
      if (signal.aborted) return;
    }
    yield task.artifact(`You said: ${text}`);
    yield task.completed();
  },
});

const taskOf = (result: unknown): Task => (result as { task: Task }).task;

describe('gRPC 0.3 next to 1.0 (compat: [0.3])', () => {
  let a2a: A2AServer;
  let server: GrpcServerHandle;
  let v03: Grpc03Transport;
  let v10: GrpcTransport;
  beforeAll(async () => {
    a2a = new A2AServer({ agent, logger: null, compat: ['0.3'] });
    server = await serveGrpc(a2a);
    v03 = new Grpc03Transport({ url: server.url });
    v10 = new GrpcTransport({ url: server.url });
  });
  afterAll(async () => {
    v03.close();
    v10.close();
    await server.close();
    await a2a.close();
  });

  it('lists the 0.3 interface on the same port', () => {
    expect(server.compatInterfaces()).toEqual([
      { url: server.url, protocolBinding: 'GRPC', protocolVersion: '0.3' },
    ]);
  });

  it('one task model: made over 0.3, read and canceled over 1.0, read back over 0.3', async () => {
    const made = taskOf(
      await v03.call('SendMessage', {
        message: userMessage('slow one'),
        configuration: { returnImmediately: true },
      }),
    );
    const read = await v10.call('GetTask', { id: made.id });
    expect(read.id).toBe(made.id);
    const events: StreamResponse[] = [];
    const watching = (async () => {
      for await (const item of v03.stream('SubscribeToTask', { id: made.id })) {
        events.push(item.event);
      }
    })();
    while (events.length === 0) await sleep(10);
    const canceled = await v10.call('CancelTask', { id: made.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await watching;
    const last = events.at(-1);
    expect(last && 'statusUpdate' in last && last.statusUpdate.status.state).toBe(
      'TASK_STATE_CANCELED',
    );
    expect((await v03.call('GetTask', { id: made.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('and back: made over 1.0, streamed and canceled over 0.3', async () => {
    const made = taskOf(
      await v10.call('SendMessage', {
        message: userMessage('slow two'),
        configuration: { returnImmediately: true },
      }),
    );
    const events: StreamResponse[] = [];
    const watching = (async () => {
      for await (const item of v03.stream('SubscribeToTask', { id: made.id })) {
        events.push(item.event);
      }
    })();
    while (events.length === 0) await sleep(10);
    expect(events[0] && 'task' in events[0] && events[0].task.id).toBe(made.id);
    const canceled = await v03.call('CancelTask', { id: made.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await watching;
    expect((await v10.call('GetTask', { id: made.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('extensions travel as x-a2a-extensions and come back activated under that key', async () => {
    const raw = new Client(server.url, credentials.createInsecure());
    const request = protoV03()
      .message('a2a.v1.SendMessageRequest')
      .serialize({ request: { messageId: 'm1', role: 'ROLE_USER', content: [{ text: 'hi' }] } });
    const headers = new Metadata();
    headers.set('x-a2a-extensions', EXTENSION);
    const metadata = await new Promise<Metadata>((resolve) => {
      const call = raw.makeUnaryRequest(
        '/a2a.v1.A2AService/SendMessage',
        () => request,
        (b: Buffer) => b,
        {},
        headers,
        {},
        () => undefined,
      );
      call.on('metadata', resolve);
    });
    raw.close();
    expect(metadata.get('x-a2a-extensions')).toEqual([EXTENSION]);
    expect(metadata.get('a2a-extensions')).toEqual([]);
  });

  it('errors: unknown ids are TASK_NOT_FOUND, ListTasks is refused before sending', async () => {
    await expect(v03.call('GetTask', { id: 'nope' })).rejects.toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    const refused = await v03.call('ListTasks', {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(A2AError);
    expect((refused as A2AError).code).toBe('UNSUPPORTED_OPERATION');
  });
});

describe('gRPC without compat', () => {
  it('serves no 0.3 service: a 0.3 call is UNIMPLEMENTED, no 0.3 interface is listed', async () => {
    const a2a = new A2AServer({ agent, logger: null });
    const server = await serveGrpc(a2a);
    expect(server.compatInterfaces()).toEqual([]);
    const raw = new Client(server.url, credentials.createInsecure());
    const code = await new Promise<number>((resolve) => {
      raw.makeUnaryRequest(
        '/a2a.v1.A2AService/GetTask',
        () => Buffer.alloc(0),
        (b: Buffer) => b,
        {},
        new Metadata(),
        {},
        (error: ServiceError | null) => resolve(error?.code ?? 0),
      );
    });
    raw.close();
    await server.close();
    await a2a.close();
    expect(code).toBe(GRPC_STATUS.UNIMPLEMENTED);
  });
});
