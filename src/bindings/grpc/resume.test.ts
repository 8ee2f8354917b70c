/**
 * A dropped gRPC stream resumes like an SSE one (spec §3.1.6, §3.5.1; requirement (test/conformance/requirements.ts) [122]): the
 * stream's `a2a-first-event-id` names its events, A2AClient reconnects with SubscribeToTask and
 * `last-event-id`, and the caller sees every event exactly once, also when the log has a gap
 * (a message the agent recorded in the task is not streamed). The connection is cut by a real TCP
 * proxy between client and server.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../../core/parts.js';
import type { StreamResponse } from '../../core/schemas/index.js';
import { A2AClient } from '../../client/client.js';
import type { ResumeNotice } from '../../client/stream-resume.js';
import { DEFAULT_TRANSPORTS } from '../../client/default-transports.js';
import { createAgent } from '../../server/agent.js';
import { A2AServer } from '../../server/a2a-server.js';
import { grpcTransport } from './client.js';
import { serveGrpc, type GrpcServerHandle } from './serve.js';

/** Resolvable gates the agent waits on, by name. */
const gates = new Map<string, { promise: Promise<void>; open: () => void }>();
function gate(name: string) {
  let entry = gates.get(name);
  if (!entry) {
    let open = () => {};
    const promise = new Promise<void>((resolve) => (open = resolve));
    entry = { promise, open };
    gates.set(name, entry);
  }
  return entry;
}

const agent = createAgent({
  card: {
    name: 'Resume',
    description: 'Streams in steps',
    version: '1.0.0',
    skills: [{ id: 's', name: 's', description: 's', tags: ['test'] }],
    capabilities: { streaming: true },
  },
  async *execute({ message, task }) {
    const key = textOf(message);
    yield task.working();
    yield task.artifact('part 1', { artifactId: 'a' });
    // A message recorded in the task's log, never streamed: a gap in the sequence numbers.
    yield task.reply('a note in the history');
    yield task.artifact('part 2', { artifactId: 'a', append: true });
    await gate(key).promise;
    yield task.artifact('part 3', { artifactId: 'a', append: true, lastChunk: true });
    yield task.completed();
  },
});

/** A TCP proxy whose open connections can be cut. */
interface Proxy {
  readonly port: number;
  cut(): void;
  close(): Promise<void>;
}

function proxyTo(port: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        cut: () => {
          for (const s of sockets) s.destroy();
        },
        close: () => {
          for (const s of sockets) s.destroy();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

let a2a: A2AServer;
let grpc: GrpcServerHandle;
let proxy: Proxy;

beforeAll(async () => {
  a2a = new A2AServer({ agent, logger: null });
  grpc = await serveGrpc(a2a, { port: 0 });
  proxy = await proxyTo(grpc.port);
});
afterAll(async () => {
  await proxy.close();
  await grpc.close();
  await a2a.close();
});

/** The text of an artifact event, or the kind of any other event. */
function label(event: StreamResponse): string {
  if ('task' in event) return `task:${event.task.status.state}`;
  if ('statusUpdate' in event) return `status:${event.statusUpdate.status.state}`;
  if ('artifactUpdate' in event) return textOf(event.artifactUpdate.artifact);
  return 'message';
}

describe('gRPC stream resumption [122]', () => {
  it('resumes a cut SendStreamingMessage after a gap, with no event lost or repeated', async () => {
    const key = `g-${Date.now()}`;
    const notices: ResumeNotice[] = [];
    const card = a2a.agentCard([
      { url: `127.0.0.1:${proxy.port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ]);
    let taskId = '';
    const client = await A2AClient.connect(card, {
      transports: { ...DEFAULT_TRANSPORTS, GRPC: grpcTransport },
      onResume: (notice) => notices.push(notice),
      // The reconnection waits until the task has finished without anyone listening.
      sleep: async () => {
        gate(key).open();
        await a2a.idle();
      },
    });
    try {
      const seen: string[] = [];
      const stream = client.sendStreamingMessage({ message: userMessage(key) });
      for await (const event of stream) {
        seen.push(label(event));
        if ('task' in event) taskId = event.task.id;
        // The connection drops after the event that follows the gap: a client adding 4 to the
        // base itself would resume at the note (entry 4) and get "part 2" twice.
        if (label(event) === 'part 2') proxy.cut();
      }
      expect(seen).toEqual([
        'task:TASK_STATE_SUBMITTED',
        'status:TASK_STATE_WORKING',
        'part 1',
        'part 2',
        'part 3',
        'status:TASK_STATE_COMPLETED',
      ]);
      expect(notices).toHaveLength(1);
      // Event 3 (from 0) of a stream that starts after entry 0: the cursor 0+4, which the server
      // resolves to entry 5 (entry 4 is the note).
      expect(notices[0]?.lastEventId).toBe('0+4');
      const task = await client.getTask({ id: taskId });
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      client.close();
    }
  });

  it('names the events of a SubscribeToTask stream from its first event id', async () => {
    const key = `s-${Date.now()}`;
    const transport = grpcTransport({ url: `127.0.0.1:${grpc.port}` });
    try {
      const started = await transport.sendMessage({
        message: userMessage(key),
        configuration: { returnImmediately: true },
      });
      const id = 'task' in started ? started.task.id : '';
      // Wait until the agent waits at its gate (its artifact has parts 1 and 2).
      for (;;) {
        const task = await transport.getTask({ id });
        if (task.artifacts?.[0]?.parts.length === 2) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const stream = transport.subscribeToTask({ id });
      const ids: (string | undefined)[] = [];
      const it = stream[Symbol.asyncIterator]();
      const first = await it.next();
      ids.push(stream.lastEventId);
      expect(first.value).toHaveProperty('task.id', id);
      gate(key).open();
      for (let next = await it.next(); !next.done; next = await it.next()) {
        ids.push(stream.lastEventId);
      }
      const base = ids[0] ?? '';
      expect(base).toMatch(/^\d+$/);
      expect(ids).toEqual([base, `${base}+1`, `${base}+2`]);
      // The last cursor resolves to the task's last entry: a finished task has nothing after it.
      const again = transport.subscribeToTask({ id }, { lastEventId: `${base}+2` });
      await expect(again[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        code: 'UNSUPPORTED_OPERATION',
      });
      // One past it is beyond the last event: INVALID_PARAMS, as with HTTP's Last-Event-ID.
      const beyond = transport.subscribeToTask({ id }, { lastEventId: `${base}+3` });
      await expect(beyond[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
      });
    } finally {
      transport.close();
    }
  });
});
