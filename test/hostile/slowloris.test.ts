/**
 * Connections cannot be held open for free (spec §13.4): with small configured timeouts, clients
 * that send their headers or body a byte at a time, say nothing, idle on a kept-alive
 * connection, or stop reading a reply are disconnected; while a stream that is read stays open as
 * long as its task runs (SSE keep-alives), and a slow blocking call is answered. Connections past
 * the per-address cap are refused with 429, past the total cap closed. gRPC: a connection without
 * calls is closed. The tests assert that connections close, never how fast; every wait is
 * bounded by the test timeout.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeOptions, type ServeResult } from '../../src/node/index.js';
import { createAgent, textOf } from '../../src/server/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Echoes; `slow` works 1.5 s (longer than every timeout below) first; `flood` sends 25 MB. */
const agent = createAgent({
  card: {
    name: 'Patient',
    description: 'Slow on request',
    version: '1.0.0',
    capabilities: { streaming: true },
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
  },
  async *execute({ message, task, signal }) {
    const text = textOf(message);
    yield task.working();
    if (text === 'slow') await sleep(1500);
    if (text === 'flood') {
      const big = 'x'.repeat(256 * 1024);
      for (let i = 0; i < 100 && !signal.aborted; i++) yield task.artifact(big);
    }
    yield task.artifact(`echo: ${text}`);
    yield task.completed();
  },
});

const SMALL: ServeOptions['connections'] = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 300,
  keepAliveTimeoutMs: 300,
  idleTimeoutMs: 600,
};

const running: ServeResult[] = [];
afterAll(async () => {
  for (const r of running) await r.close();
});

interface Started {
  readonly port: number;
  readonly grpcPort?: number;
  /** Connections the HTTP server holds open now. */
  connections(): Promise<number>;
}

async function start(options: ServeOptions): Promise<Started> {
  const server = await serve(agent, { logger: null, keepAliveMs: 100, ...options });
  running.push(server);
  const port = Number(new URL(server.url).port);
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.httpServer.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  const grpcPort = server.grpcUrl === undefined ? undefined : Number(server.grpcUrl.split(':')[1]);
  return grpcPort === undefined ? { port, connections } : { port, grpcPort, connections };
}

interface Probe {
  readonly socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with everything received once the server has closed the connection. */
  readonly closed: Promise<string>;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    const closed = new Promise<string>((done) => socket.on('close', () => done(data)));
    socket.on('error', () => undefined); // a reset is a close too
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text.charAt(i++));
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

const send = (text: string, id = '1') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'SendStreamingMessage',
    params: { message: { messageId: `m-${text}-${id}`, role: 'ROLE_USER', parts: [{ text }] } },
  });

/** The request line and headers of a POST whose body is `length` bytes. */
const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
  `A2A-Version: 1.0\r\nContent-Length: ${length}\r\n\r\n`;
const post = (path: string, body: string) => head(path, Buffer.byteLength(body)) + body;

describe('slow and idle clients are disconnected', () => {
  let port: number;
  let server: Started;
  beforeAll(async () => {
    server = await start({ connections: SMALL });
    port = server.port;
  });

  it('20 clients sending their headers a byte at a time are all closed with 408', async () => {
    const probes = await Promise.all(Array.from({ length: 20 }, () => open(port)));
    for (const p of probes) trickle(p.socket, post('/a2a/jsonrpc', send('hi')), 50);
    for (const reply of await Promise.all(probes.map((p) => p.closed))) {
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    }
  });

  it('20 clients sending their body a byte at a time are all closed with 408', async () => {
    const probes = await Promise.all(Array.from({ length: 20 }, () => open(port)));
    const body = send('hi');
    for (const p of probes) {
      p.socket.write(head('/a2a/jsonrpc', body.length));
      trickle(p.socket, body, 50);
    }
    for (const reply of await Promise.all(probes.map((p) => p.closed))) {
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    }
  });

  it('a client that connects and says nothing is closed', async () => {
    const probe = await open(port);
    expect(await probe.closed).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('a kept-alive connection left idle after a reply is closed', async () => {
    const probe = await open(port);
    probe.socket.write('GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const reply = await probe.closed;
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply).toMatch(/keep-alive/i);
  });

  it('a client that stops reading a stream is let go', async () => {
    const probe = await open(port);
    probe.socket.write(post('/a2a/jsonrpc', send('flood')));
    await new Promise<void>((resolve) => probe.socket.once('data', () => resolve()));
    probe.socket.pause(); // reads nothing more: the server's writes back up
    // A paused socket does not notice the close: watch the server let the connection go.
    while ((await server.connections()) > 0) await sleep(50);
    probe.socket.resume();
    const reply = await probe.closed;
    expect(reply).not.toContain('TASK_STATE_COMPLETED'); // cut, not finished
  });
});

describe('legitimate slow work is not cut', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await start({ connections: SMALL }));
  });

  it('keeps an SSE stream open past every timeout while its task runs (keep-alives flow)', async () => {
    const probe = await open(port);
    probe.socket.write(post('/a2a/jsonrpc', send('slow')));
    const reply = await new Promise<string>((resolve) => {
      const check = () => {
        if (probe.received().includes('TASK_STATE_COMPLETED')) resolve(probe.received());
      };
      probe.socket.on('data', check);
      probe.socket.once('close', () => resolve(probe.received()));
    });
    expect(reply).toContain('echo: slow');
    expect(reply).toContain('TASK_STATE_COMPLETED');
    expect(reply).toContain(':'); // SSE comment lines: the keep-alives
    probe.socket.destroy();
  });

  it('answers a blocking call that takes longer than the idle timeout', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        message: { messageId: 'blocking-slow', role: 'ROLE_USER', parts: [{ text: 'slow' }] },
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('TASK_STATE_COMPLETED');
  });
});

describe('connection caps', () => {
  it('refuses connections past the per-address cap with 429, and takes new ones once one closes', async () => {
    const { port } = await start({ connections: { maxConnectionsPerAddress: 3 } });
    const held = await Promise.all(Array.from({ length: 3 }, () => open(port)));
    const extra = await open(port);
    extra.socket.write('GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const refused = await extra.closed;
    expect(refused).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused).toMatch(/retry-after: 1/i);
    expect(refused).toContain('too many connections from 127.0.0.1: at most 3 at once');
    held[0]?.socket.destroy();
    await held[0]?.closed;
    const again = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
    expect(again.status).toBe(200);
    for (const p of held) p.socket.destroy();
  });

  it('closes connections past the total cap at once', async () => {
    const { port } = await start({ connections: { maxConnections: 2 } });
    const held = await Promise.all(Array.from({ length: 2 }, () => open(port)));
    const extra = await open(port);
    extra.socket.write('GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await extra.closed).toBe('');
    for (const p of held) p.socket.destroy();
  });

  it('gRPC: a connection that makes no call is closed', async () => {
    const { grpcPort } = await start({ grpc: true, connections: SMALL });
    const probe = await open(grpcPort ?? 0);
    await probe.closed;
    expect(probe.socket.destroyed).toBe(true);
  });

  it('refuses settings that would cut open streams', async () => {
    await expect(
      serve(agent, { logger: null, keepAliveMs: 15_000, connections: { idleTimeoutMs: 1000 } }),
    ).rejects.toThrow(/keepAliveMs \(15000 ms\) must be shorter than connections.idleTimeoutMs/);
    await expect(
      serve(agent, { logger: null, connections: { requestTimeoutMs: -1 } }),
    ).rejects.toThrow(/connections.requestTimeoutMs must be a positive number/);
  });
});
