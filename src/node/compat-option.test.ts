/**
 * `compat` is one option of A2AServer that every binding built on the server follows (issue 14
 * point 1): the HTTP handler and serve() serve 0.3 for a server made with `compat: ['0.3']`
 * without being told again; an unknown version and a serve() option contradicting the server's
 * are refused with a message saying what to do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AHandler } from '../bindings/a2a-handler.js';
import { toFetchHandler } from '../http/fetch.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { serve, type ServeResult } from './serve.js';

const agent = createAgent({
  card: { name: 'compat', description: 'compat option', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.completed('done');
  },
});

const send03 = (url: string) =>
  fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: 'm1',
          role: 'user',
          parts: [{ kind: 'text', text: 'x' }],
        },
      },
    }),
  }).then((r) => r.json() as Promise<{ result?: { kind?: string; status?: { state?: string } } }>);

const running: ServeResult[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

describe('A2AServer compat option', () => {
  it('is read by createA2AHandler: 0.3 at the 1.0 URL, the hybrid card, 0.3 card entries', async () => {
    const server = new A2AServer({ agent, logger: null, compat: ['0.3'] });
    expect(server.compat).toEqual(['0.3']);
    const handler = toFetchHandler(createA2AHandler(server, { baseUrl: 'http://agent.test' }));
    const card = (await (
      await handler(new Request('http://agent.test/.well-known/agent-card.json'))
    ).json()) as { protocolVersion?: string; supportedInterfaces: { protocolVersion: string }[] };
    expect(card.protocolVersion).toBe('0.3.0');
    expect(card.supportedInterfaces.map((i) => i.protocolVersion)).toEqual([
      '1.0',
      '1.0',
      '0.3',
      '0.3',
    ]);
    const reply = await handler(
      new Request('http://agent.test/a2a/jsonrpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tasks/get',
          params: { id: 'nope' },
        }),
      }),
    );
    expect(((await reply.json()) as { error: { code: number } }).error.code).toBe(-32001);
    await server.close();
  });

  it('is read by serve(server)', async () => {
    const server = new A2AServer({ agent, logger: null, compat: ['0.3'] });
    const served = await serve(server, { logger: null });
    running.push(served);
    try {
      const reply = await send03(served.url);
      expect(reply.result?.kind).toBe('task');
      expect(reply.result?.status?.state).toBe('completed');
    } finally {
      await server.close();
    }
  });

  it('defaults to none: a server without it refuses 0.3 requests', async () => {
    const served = await serve(agent, { logger: null });
    running.push(served);
    expect((await send03(served.url)).result).toBeUndefined();
    expect(served.server.compat).toEqual([]);
  });

  it('refuses an unknown version and a serve() option contradicting the server', async () => {
    expect(() => new A2AServer({ agent, compat: ['0.2' as never] })).toThrow(
      /compat: cannot serve protocol version "0.2"; the versions served next to 1.0 are 0.3/,
    );
    const server = new A2AServer({ agent, logger: null });
    await expect(serve(server, { logger: null, compat: ['0.3'] })).rejects.toThrow(
      /has its own compat option; give compat to it/,
    );
    await server.close();
  });
});
