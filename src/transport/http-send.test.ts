/**
 * The A2A calls of the HTTP bindings go to the dispatcher under fetch (http-send.ts), not through
 * fetch: against a real server on loopback, a client's unary calls and streams reach the global
 * dispatcher and never fetch; a `fetch` of the caller's, or a dispatcher without undici's `request`,
 * keeps fetch; a
 * redirect is followed as fetch follows it; reply headers read as fetch's do; a connection cut
 * mid-reply, a deadline and an idle stream end as the same TransportErrors on both paths.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { createAgent } from '../server/agent.js';
import { A2AClient } from '../client/client.js';
import { TransportError } from './errors.js';
import { openExchange, type HttpRequest } from './http-exchange.js';
import { send } from './http-send.js';

const agent = createAgent({
  card: { name: 'Direct', description: 'Echoes', version: '1.0.0', skills: [] },
  async *execute({ message, task }) {
    yield task.artifact(`You said: ${textOf(message)}`);
    yield task.completed();
  },
});

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type Dispatcher = { request: (options: { path: string }) => Promise<unknown> };
const globals = globalThis as unknown as Record<symbol, Dispatcher | undefined>;

/** Counts what goes to the global dispatcher's `request` and to the global fetch. */
function watch() {
  new Headers(); // Node loads its fetch, and with it the global dispatcher, on first use
  const original = globals[GLOBAL_DISPATCHER];
  if (original === undefined) throw new Error('this runtime has no global dispatcher');
  const direct: string[] = [];
  const viaFetch: string[] = [];
  globals[GLOBAL_DISPATCHER] = new Proxy(original, {
    get(target, name, receiver) {
      if (name !== 'request') return Reflect.get(target, name, receiver) as unknown;
      return (options: { path: string }) => {
        direct.push(options.path);
        return original.request(options);
      };
    },
  });
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    viaFetch.push(new URL(input instanceof Request ? input.url : input).pathname);
    return realFetch(input, init);
  });
  return {
    direct,
    viaFetch,
    restore() {
      globals[GLOBAL_DISPATCHER] = original;
      vi.unstubAllGlobals();
    },
  };
}

describe('A2A calls through the dispatcher under fetch', () => {
  let served: ServeResult;
  let watched: ReturnType<typeof watch> | undefined;

  beforeAll(async () => {
    served = await serve(agent, { logger: null });
  });
  afterAll(() => served.close());
  afterEach(() => {
    watched?.restore();
    watched = undefined;
  });

  it('sends JSON-RPC and HTTP+JSON calls and streams to the dispatcher, the card through fetch', async () => {
    watched = watch();
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const client = await A2AClient.connect(served.url, { preferredBinding: binding });
      const reply = await client.sendMessage({ message: userMessage('hi') });
      expect('task' in reply && textOf(reply.task.artifacts?.[0] ?? { parts: [] })).toBe(
        'You said: hi',
      );
      const events = [];
      for await (const item of client.sendStreamingMessage({ message: userMessage('yo') })) {
        events.push(item);
      }
      expect(events.length).toBeGreaterThan(1);
    }
    expect(watched.direct.length).toBe(4);
    expect(watched.direct).toContain('/a2a/jsonrpc');
    expect(watched.direct).toContain('/a2a/rest/message:send');
    expect(watched.direct).toContain('/a2a/rest/message:stream');
    // The card resolver keeps fetch (its redirects and caching headers are fetch's).
    expect(watched.viaFetch.every((path) => path === '/.well-known/agent-card.json')).toBe(true);
  });

  it("keeps a caller's fetch, and fetch where the dispatcher offers no request API", async () => {
    watched = watch();
    const mine: string[] = [];
    const given: typeof fetch = (input, init) => {
      mine.push(input instanceof Request ? input.url : input.toString());
      return fetch(input, init);
    };
    const client = await A2AClient.connect(served.url, { fetch: given });
    await client.sendMessage({ message: userMessage('hi') });
    expect(watched.direct).toEqual([]);
    expect(mine.some((url) => url.endsWith('/a2a/jsonrpc'))).toBe(true);

    // A dispatcher without the request API (an undici older or newer than ours): fetch it is.
    const saved = globals[GLOBAL_DISPATCHER];
    if (saved === undefined) throw new Error('no global dispatcher');
    globals[GLOBAL_DISPATCHER] = new Proxy(saved, {
      get: (target, name, receiver) =>
        name === 'request' ? undefined : (Reflect.get(target, name, receiver) as unknown),
    });
    try {
      const plain = await A2AClient.connect(served.url);
      await plain.sendMessage({ message: userMessage('hi') });
      expect(watched.viaFetch).toContain('/a2a/jsonrpc');
    } finally {
      globals[GLOBAL_DISPATCHER] = saved;
    }
  });
});

describe('the direct path on a raw server', () => {
  let server: Server;
  let base: string;
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();

  beforeAll(async () => {
    routes.set('/moved', (_req, res) => {
      res.writeHead(307, { location: '/here' }).end();
    });
    routes.set('/here', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`got ${body}`));
    });
    routes.set('/headers', (_req, res) => {
      res.setHeader('X-Many', ['a', 'b']);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.writeHead(503).end('{}');
    });
    routes.set('/cut', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    routes.set('/silent', () => undefined);
    routes.set('/host', (req, res) => res.end(req.headers.host));
    routes.set('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    server = createServer((req, res) => routes.get(req.url ?? '')?.(req, res));
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    new Headers(); // the global dispatcher exists from here on
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  const request = (path: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
    url: base + path,
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'ping',
    timeoutMs: 2000,
    direct: true,
    ...extra,
  });

  it('follows a 307 as fetch does, sending the body again', async () => {
    const reply = await send(request('/moved'), new AbortController().signal);
    expect(reply.head.status).toBe(200);
    expect(await reply.text(1_000_000)).toBe('got ping');
  });

  it("sends fetch's Host, not a caller's, and refuses the headers fetch refuses", async () => {
    for (const direct of [true, false]) {
      const host = request('/host', { direct, headers: { Host: 'elsewhere.example' } });
      const reply = await send(host, new AbortController().signal);
      expect(await reply.text(1_000_000)).toBe(new URL(base).host);
      const refused = await openExchange(
        request('/host', { direct, headers: { 'keep-alive': 'timeout=5' } }),
      ).catch((error: unknown) => error);
      expect((refused as TransportError).code).toBe('NETWORK');
      expect((refused as Error).message).toContain(
        `cannot reach ${base}/host: invalid keep-alive header (UND_ERR_INVALID_ARG)`,
      );
    }
  });

  it('reads reply headers as fetch does: any case, repeated values joined', async () => {
    for (const direct of [true, false]) {
      const reply = await send(request('/headers', { direct }), new AbortController().signal);
      expect([reply.head.status, reply.head.ok]).toEqual([503, false]);
      expect(reply.head.headers.get('x-many')).toBe('a, b');
      expect(reply.head.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(reply.head.headers.get('x-absent')).toBeNull();
      reply.discard();
    }
  });

  it('reports a connection cut mid-reply, a deadline and a silent stream as fetch does', async () => {
    for (const direct of [true, false]) {
      const cut = await openExchange(request('/cut', { direct, unary: true }));
      const lost = await cut.text().catch((error: unknown) => error);
      expect(lost).toBeInstanceOf(TransportError);
      expect((lost as TransportError).code).toBe('NETWORK');
      expect((lost as Error).message).toContain('lost while reading the reply');

      const late = await openExchange(request('/silent', { direct, timeoutMs: 150 })).catch(
        (error: unknown) => error,
      );
      expect((late as TransportError).code).toBe('TIMEOUT');

      const stream = await openExchange(request('/trickle', { direct }));
      const chunks: string[] = [];
      const idle = await (async () => {
        for await (const chunk of stream.chunks(500)) chunks.push(Buffer.from(chunk).toString());
      })().catch((error: unknown) => error);
      expect(chunks.join('')).toBe('data: one\n\n');
      expect((idle as TransportError).code).toBe('TIMEOUT');
      expect((idle as Error).message).toContain('silent for 500 ms');
    }
  });
});
