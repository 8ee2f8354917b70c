/**
 * The client against our own server (src/server + src/node) over both bindings, and a stream
 * resumed through a proxy that cuts the connection mid-stream.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { StreamResponse, Task } from '../core/schemas/index.js';
import { serve, type ServeResult } from '../node/serve.js';
import { createAgent } from '../server/agent.js';
import { AgentCardResolver } from './card-resolver.js';
import { A2AClient } from './client.js';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

const agent = createAgent({
  card: {
    name: 'Client test agent',
    description: 'Behaves as its messages say',
    version: '1.0.0',
    skills: [{ id: 'x', name: 'x', description: 'x', tags: ['test'] }],
  },
  async *execute({ message, task, current, signal }) {
    const text = textOf(message);
    if (text === 'hello') {
      yield {
        messageId: `r-${message.messageId}`,
        role: 'ROLE_AGENT',
        parts: [{ text: 'You said: hello' }],
      };
      return;
    }
    if (current?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
      yield task.working();
      yield task.artifact(`answer was ${text}`);
      yield task.completed();
      return;
    }
    yield task.working();
    if (text === 'ask') {
      yield task.inputRequired('Which colour?');
      return;
    }
    if (text === 'slow') {
      await sleep(30_000, signal);
      return;
    }
    const chunks = text === 'drip' ? 6 : 2;
    for (let i = 0; i < chunks; i++) {
      if (text === 'drip') await sleep(40);
      yield task.artifact(`c${i}`, {
        artifactId: 'out',
        append: i > 0,
        lastChunk: i === chunks - 1,
      });
    }
    yield task.completed();
  },
});

let served: ServeResult;
beforeAll(async () => {
  served = await serve(agent, { logger: null });
});
afterAll(async () => {
  await served.close();
});

async function events(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const stateOf = (e: StreamResponse) =>
  'task' in e ? e.task.status.state : 'statusUpdate' in e ? e.statusUpdate.status.state : undefined;

describe.each(['JSONRPC', 'HTTP+JSON'])('A2AClient against our server over %s', (binding) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(served.url, {
      preferredBinding: binding,
      cardResolver: new AgentCardResolver(),
    });
  });

  it('uses the interface of the chosen binding', () => {
    expect(client.selectedInterface.protocolBinding).toBe(binding);
  });

  it('gets a Message reply to a stateless message', async () => {
    const reply = await client.sendMessage({ message: userMessage('hello') });
    expect('message' in reply && textOf(reply.message)).toBe('You said: hello');
  });

  it('sends blocking, then reads and lists the task', async () => {
    const reply = await client.sendMessage({ message: userMessage('work') });
    if (!('task' in reply)) throw new Error('expected a task');
    expect(reply.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(reply.task.artifacts?.[0]?.parts.map((p) => p.text)).toEqual(['c0', 'c1']);
    const got = await client.getTask({ id: reply.task.id, historyLength: 0 });
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    const list = await client.listTasks({ contextId: reply.task.contextId as string });
    expect(list.tasks.map((t) => t.id)).toContain(reply.task.id);
  });

  it('streams a task from its snapshot to completion [106][107]', async () => {
    const seen = await events(client.sendStreamingMessage({ message: userMessage('work') }));
    expect('task' in (seen[0] as StreamResponse)).toBe(true);
    expect(stateOf(seen[seen.length - 1] as StreamResponse)).toBe('TASK_STATE_COMPLETED');
  });

  it('goes through INPUT_REQUIRED and back on the same task [82]', async () => {
    const first = await client.sendMessage({ message: userMessage('ask') });
    if (!('task' in first)) throw new Error('expected a task');
    expect(first.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const { id, contextId } = first.task;
    const second = await client.sendMessage({
      message: userMessage('blue', { taskId: id, contextId: contextId as string }),
    });
    if (!('task' in second)) throw new Error('expected a task');
    expect(second.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(second.task.artifacts?.[0])).toBe('answer was blue');
  });

  it('cancels a running task and subscribes to one [113]', async () => {
    const started = await client.sendMessage({
      message: userMessage('slow'),
      configuration: { returnImmediately: true },
    });
    if (!('task' in started)) throw new Error('expected a task');
    const subscription = client.subscribeToTask({ id: started.task.id });
    const iterator = subscription[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value && 'task' in first.value).toBe(true);
    const canceled: Task = await client.cancelTask({ id: started.task.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const rest: StreamResponse[] = [];
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value);
    expect(stateOf(rest[rest.length - 1] as StreamResponse)).toBe('TASK_STATE_CANCELED');
  });

  it.each([
    ['an unknown task', (c: A2AClient) => c.getTask({ id: 'no-such-task' }), 'TASK_NOT_FOUND'],
    [
      'a message to a terminal task [61]',
      async (c: A2AClient) => {
        const done = await c.sendMessage({ message: userMessage('work') });
        if (!('task' in done)) throw new Error('expected a task');
        return c.sendMessage({ message: userMessage('again', { taskId: done.task.id }) });
      },
      'UNSUPPORTED_OPERATION',
    ],
  ] as const)('gets the spec error for %s', async (_name, call, code) => {
    await expect(call(client)).rejects.toMatchObject({ name: 'A2AError', code });
  });
});

describe('card caching against our server [15][16][18]', () => {
  it('revalidates an expired card and gets 304 Not Modified', async () => {
    let now = Date.now();
    const statuses: number[] = [];
    const resolver = new AgentCardResolver({
      now: () => now,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });
    const first = await resolver.resolve(served.url);
    now += 24 * 3600_000;
    expect(await resolver.resolve(served.url)).toBe(first);
    expect(statuses).toEqual([200, 304]);
  });
});

/** A TCP proxy that cuts the first connection whose reply carries `cutAfter` SSE events. */
async function cuttingProxy(target: () => number, cutAfter: number) {
  const sockets = new Set<Socket>();
  let cut = false;
  const upstreamRequests: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = createConnection(target(), '127.0.0.1');
    sockets.add(client).add(upstream);
    let reply = '';
    client.on('data', (d: Buffer) => {
      upstreamRequests.push(d.toString('latin1'));
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      client.write(d);
      if (cut) return;
      reply += d.toString('utf8');
      if ((reply.match(/^data: .*\n\n/gm) ?? []).length >= cutAfter) {
        cut = true;
        client.destroy();
        upstream.destroy();
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstreamRequests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('stream resumption against our server [122]', () => {
  it.each(['JSONRPC', 'HTTP+JSON'])(
    'resumes a cut %s stream with Last-Event-ID: every event once, in order',
    async (binding) => {
      let upstreamPort = 0;
      const proxy = await cuttingProxy(() => upstreamPort, 3);
      const behind = await serve(agent, { logger: null, publicUrl: proxy.url });
      upstreamPort = (behind.httpServer.address() as AddressInfo).port;
      try {
        const client = await A2AClient.connect(proxy.url, {
          preferredBinding: binding,
          cardResolver: new AgentCardResolver(),
          sleep: async () => undefined,
        });
        const stream = client.sendStreamingMessage({ message: userMessage('drip') });
        const seen: StreamResponse[] = [];
        const ids: (string | undefined)[] = [];
        for await (const e of stream) {
          seen.push(e);
          ids.push(stream.lastEventId);
        }
        const chunks = seen.flatMap((e) =>
          'artifactUpdate' in e ? [textOf(e.artifactUpdate.artifact)] : [],
        );
        expect(chunks).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
        expect(stateOf(seen[seen.length - 1] as StreamResponse)).toBe('TASK_STATE_COMPLETED');
        expect(new Set(ids).size).toBe(ids.length);
        expect(proxy.upstreamRequests.some((r) => /^last-event-id: \d+\r$/im.test(r))).toBe(true);
      } finally {
        await behind.close();
        await proxy.close();
      }
    },
  );
});
