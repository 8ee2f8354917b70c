/**
 * The bound on a unary reply's body (reply-limit.ts, ClientOptions.maxReplyBytes) on both ways a
 * call goes out (http-send.ts): a body over it, declared in Content-Length or chunked, is refused
 * with a BAD_RESPONSE TransportError; a gzip body that inflates past it (a "zip bomb") is refused
 * too, counted after decoding; one at the bound is read whole. And an A2AClient given the option
 * refuses a large answer over JSON-RPC and HTTP+JSON, and reads it without it (default 64 MiB).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { createAgent } from '../server/agent.js';
import { A2AClient } from '../client/client.js';
import { TransportError } from './errors.js';
import { openExchange } from './http-exchange.js';
import { DEFAULT_MAX_REPLY_BYTES } from './reply-limit.js';

const KB = 'k'.repeat(1024);
const BOMB = gzipSync(Buffer.alloc(32 * 1024 * 1024)); // 32 MiB of zeros in ~32 KB

describe('the reply size bound on the direct path and through fetch', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 4096 });
        res.end(KB.repeat(4));
      } else if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 4; i++) res.write(KB);
        res.end();
      } else if (req.url === '/bomb') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(BOMB);
      } else res.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    new Headers(); // Node loads its fetch, and with it the global dispatcher, on first use
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  const read = async (path: string, direct: boolean, maxReplyBytes: number) => {
    const exchange = await openExchange({
      url: base + path,
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: 5000,
      direct,
      unary: true,
      maxReplyBytes,
    });
    return exchange.text().catch((error: unknown) => error);
  };

  it('refuses a body over the bound, declared or chunked, and reads one at it', async () => {
    for (const direct of [true, false]) {
      for (const path of ['/declared', '/chunked']) {
        const refused = await read(path, direct, 4095);
        expect(refused).toBeInstanceOf(TransportError);
        expect((refused as TransportError).code).toBe('BAD_RESPONSE');
        expect((refused as Error).message).toBe(
          `the reply from ${base}${path} is larger than 4095 bytes: refused (the client's maxReplyBytes sets the bound)`,
        );
        expect(await read(path, direct, 4096)).toBe(KB.repeat(4));
      }
    }
  });

  it('counts a compressed body after decoding: a small gzip that inflates past the bound is refused', async () => {
    expect(BOMB.byteLength).toBeLessThan(64 * 1024);
    for (const direct of [true, false]) {
      const refused = await read('/bomb', direct, 1024 * 1024);
      expect((refused as TransportError).code).toBe('BAD_RESPONSE');
      const whole = await read('/bomb', direct, 32 * 1024 * 1024);
      expect(typeof whole === 'string' && whole.length).toBe(32 * 1024 * 1024);
    }
  });
});

describe('an A2AClient with maxReplyBytes', () => {
  const agent = createAgent({
    card: { name: 'Large', description: 'Answers 64 KB', version: '1.0.0', skills: [] },
    async *execute({ task }) {
      yield task.artifact(KB.repeat(64));
      yield task.completed();
    },
  });
  let served: ServeResult;
  beforeAll(async () => {
    served = await serve(agent, { logger: null });
  });
  afterAll(() => served.close());

  it('refuses a larger answer over JSON-RPC and HTTP+JSON, and reads it under the default', async () => {
    expect(DEFAULT_MAX_REPLY_BYTES).toBe(64 * 1024 * 1024);
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const small = await A2AClient.connect(served.url, {
        preferredBinding: binding,
        maxReplyBytes: 16 * 1024,
      });
      const refused = await small
        .sendMessage({ message: userMessage('hi') })
        .catch((error: unknown) => error);
      expect([binding, (refused as TransportError).code]).toEqual([binding, 'BAD_RESPONSE']);

      const client = await A2AClient.connect(served.url, { preferredBinding: binding });
      const reply = await client.sendMessage({ message: userMessage('hi') });
      expect('task' in reply && textOf(reply.task.artifacts?.[0] ?? { parts: [] })).toBe(
        KB.repeat(64),
      );
    }
  });
});
