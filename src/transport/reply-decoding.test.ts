/**
 * Compressed replies (RFC 9110 §8.4) on both ways a call goes out (http-send.ts): straight to the
 * dispatcher and through fetch. Against real servers on loopback: the request carries the same
 * User-Agent and Accept-Encoding on both; gzip, deflate, br and two codings stacked are decoded,
 * unary and streamed chunk by chunk; a coding fetch does not know is handed on as it came; a
 * corrupt body is a NETWORK TransportError; and an A2A client behind a compressing proxy (as
 * nginx's `gzip on` is) gets its answers and its streams over JSON-RPC and HTTP+JSON.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { createAgent } from '../server/agent.js';
import { A2AClient } from '../client/client.js';
import { TransportError } from './errors.js';
import { openExchange, type HttpRequest } from './http-exchange.js';
import { globalDispatcher } from './http-send.js';

const BODY = JSON.stringify({ said: 'héllo', padding: 'x'.repeat(2000) });

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('compressed replies on the direct path and through fetch', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/headers') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify([req.headers['user-agent'], req.headers['accept-encoding']]));
        return;
      }
      const encoded: Record<string, [string, Buffer]> = {
        '/gzip': ['gzip', gzipSync(BODY)],
        '/x-gzip': ['x-gzip', gzipSync(BODY)],
        '/deflate': ['deflate', deflateSync(BODY)],
        '/br': ['br', brotliCompressSync(BODY)],
        // Applied gzip first, then br: undone br first.
        '/stacked': ['gzip, br', brotliCompressSync(gzipSync(BODY))],
        '/unknown': ['compress', Buffer.from(BODY)],
        '/corrupt': ['gzip', Buffer.from('this is not gzip at all')],
      };
      const found = encoded[path];
      if (found !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': found[0] });
        res.end(found[1]);
        return;
      }
      if (path === '/events') {
        // Each event flushed out of the compressor as it is written, as a streaming server does.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        const gzip = createGzip();
        gzip.pipe(res);
        gzip.write('data: one\n\n');
        gzip.flush(constants.Z_SYNC_FLUSH, () => {
          setTimeout(() => gzip.end('data: two\n\n'), 30);
        });
        return;
      }
      res.writeHead(404).end();
    });
    base = await listen(server);
    new Headers(); // Node loads its fetch, and with it the global dispatcher, on first use
    expect(globalDispatcher()).toBeDefined();
  });
  afterAll(() => close(server));

  const request = (path: string, direct: boolean, extra: Partial<HttpRequest> = {}) =>
    openExchange({
      url: base + path,
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: 2000,
      direct,
      unary: true,
      ...extra,
    });

  it("sends fetch's User-Agent and Accept-Encoding on both paths, and keeps a caller's", async () => {
    const seen = [];
    for (const direct of [true, false]) {
      seen.push(JSON.parse(await (await request('/headers', direct)).text()) as unknown);
      const own = await request('/headers', direct, {
        headers: { 'user-agent': 'mine/1', 'accept-encoding': 'identity' },
      });
      expect(JSON.parse(await own.text())).toEqual(['mine/1', 'identity']);
    }
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toEqual(['node', 'gzip, deflate']);
  });

  it('decodes gzip, x-gzip, deflate, br and stacked codings; hands on a coding it does not know', async () => {
    for (const direct of [true, false]) {
      for (const path of ['/gzip', '/x-gzip', '/deflate', '/br', '/stacked']) {
        const exchange = await request(path, direct);
        expect([path, direct, await exchange.text()]).toEqual([path, direct, BODY]);
      }
      expect(await (await request('/unknown', direct)).text()).toBe(BODY);
    }
  });

  it('decodes a compressed stream event by event', async () => {
    for (const direct of [true, false]) {
      const exchange = await request('/events', direct, { unary: false });
      const chunks: string[] = [];
      for await (const chunk of exchange.chunks(2000)) chunks.push(Buffer.from(chunk).toString());
      expect(chunks.join('')).toBe('data: one\n\ndata: two\n\n');
      // The first event arrived before the second was written: decoded as it came.
      expect(chunks[0]).toBe('data: one\n\n');
    }
  });

  it('reports a body that does not decode as a NETWORK TransportError', async () => {
    for (const direct of [true, false]) {
      const exchange = await request('/corrupt', direct);
      const failed = await exchange.text().catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(TransportError);
      expect((failed as TransportError).code).toBe('NETWORK');
    }
  });
});

describe('an A2A client behind a compressing proxy', () => {
  const agent = createAgent({
    card: { name: 'Behind gzip', description: 'Echoes', version: '1.0.0', skills: [] },
    async *execute({ message, task }) {
      yield task.working();
      yield task.artifact(`You said: ${textOf(message)}`);
      yield task.completed();
    },
  });
  let served: ServeResult;
  let proxy: Server;
  let base: string;
  let compressed = 0;

  beforeAll(async () => {
    let upstream = new URL('http://127.0.0.1');
    // Compresses what the client accepts gzip for, flushing each chunk (SSE events) as it comes.
    proxy = createServer((req, res) => {
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (reply) => {
          const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
          const headers = { ...reply.headers };
          if (!gzip) {
            res.writeHead(reply.statusCode ?? 502, headers);
            reply.pipe(res);
            return;
          }
          compressed++;
          delete headers['content-length'];
          res.writeHead(reply.statusCode ?? 502, { ...headers, 'content-encoding': 'gzip' });
          const z = createGzip({ flush: constants.Z_SYNC_FLUSH });
          z.pipe(res);
          reply.pipe(z);
        },
      );
      req.pipe(out);
    });
    base = await listen(proxy);
    // The card advertises the proxy's URL, as a server behind one is told to.
    served = await serve(agent, { logger: null, publicUrl: base });
    upstream = new URL(`http://127.0.0.1:${(served.httpServer.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await close(proxy);
    await served.close();
  });

  it('gets answers and streams over JSON-RPC and HTTP+JSON, decoded', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const client = await A2AClient.connect(base, { preferredBinding: binding });
      const before = compressed;
      const reply = await client.sendMessage({ message: userMessage('hi') });
      expect('task' in reply && textOf(reply.task.artifacts?.[0] ?? { parts: [] })).toBe(
        'You said: hi',
      );
      const kinds: string[] = [];
      for await (const item of client.sendStreamingMessage({ message: userMessage('yo') })) {
        kinds.push(Object.keys(item)[0] ?? '');
      }
      expect(kinds).toContain('artifactUpdate');
      expect(kinds[kinds.length - 1]).toBe('statusUpdate');
      expect(compressed - before).toBeGreaterThanOrEqual(2);
    }
  });
});
