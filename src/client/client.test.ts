import { describe, expect, it } from 'vitest';
import { card, task } from '../../test/support/fixtures.js';
import {
  caught,
  jsonrpc,
  rest,
  rpcId,
  rpcMethod,
  rpcParams,
  rpcResult,
  start,
} from '../../test/support/agent-server.js';
import {
  closedPort,
  delay,
  frame,
  sendJson,
  startSse,
  type RecordedRequest,
} from '../../test/support/wire-server.js';
import { A2AError } from '../core/errors.js';
import { userMessage } from '../core/parts.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import { AgentCardResolver } from './card-resolver.js';
import { A2AClient } from './client.js';
import { IncompatibleAgentError } from '../transport/errors.js';

describe('A2AClient.connect', () => {
  it('fetches the card and uses the first interface it speaks, in card order [21][22][23]', async () => {
    const state: { agent?: AgentCard } = {};
    const s = await start((req, res) => {
      if (req.url === '/.well-known/agent-card.json') return sendJson(res, 200, state.agent);
      return sendJson(res, 200, task());
    });
    state.agent = card([
      { url: 'grpc.example:443', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      rest(s),
      jsonrpc(s),
    ]);
    const client = await A2AClient.connect(s.url, { cardResolver: new AgentCardResolver() });
    expect(client.selectedInterface.protocolBinding).toBe('HTTP+JSON');
    await client.getTask({ id: 't1' });
    expect(s.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /.well-known/agent-card.json',
      'GET /rest/tasks/t1',
    ]);
  });

  it('shares one card request between many clients connecting at once', async () => {
    const state: { agent?: AgentCard } = {};
    const s = await start(async (_req, res) => {
      await delay(30);
      sendJson(res, 200, state.agent);
    });
    state.agent = card([jsonrpc(s)]);
    const resolver = new AgentCardResolver();
    const clients = await Promise.all(
      Array.from({ length: 10 }, () => A2AClient.connect(s.url, { cardResolver: resolver })),
    );
    expect(clients).toHaveLength(10);
    expect(s.requests).toHaveLength(1);
  });

  it('takes a card object without fetching, and rejects an invalid one', async () => {
    const s = await start(rpcResult(task()));
    const client = await A2AClient.connect(card([jsonrpc(s)]));
    await client.getTask({ id: 't1' });
    expect(s.requests.map((r) => r.url)).toEqual(['/a2a']);
    const broken = { ...card([jsonrpc(s)]), supportedInterfaces: [] };
    await expect(A2AClient.connect(broken)).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('explains when the agent speaks only protocol 0.3 and the client is limited to 1.0', async () => {
    const old = card([
      { url: 'http://old/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    const error = await caught(A2AClient.connect(old, { protocolVersions: ['1.0'] }));
    expect(error).toBeInstanceOf(IncompatibleAgentError);
    expect((error as Error).message).toMatch(
      /^agent speaks protocol 0\.3 only; this client speaks 1\.0/,
    );
  });

  it('picks 1.0 before 0.3 when a card offers both, and 0.3 first when told so', async () => {
    const both = card([
      { url: 'http://a/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://a/new', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect((await A2AClient.connect(both)).selectedInterface.url).toBe('http://a/new');
    const older = await A2AClient.connect(both, { protocolVersions: ['0.3', '1.0'] });
    expect(older.selectedInterface.url).toBe('http://a/old');
  });
});

describe('A2AClient tenant [24]', () => {
  it('copies the interface tenant into every JSON-RPC request, streams included', async () => {
    const s = await start((req, res) => {
      if (rpcMethod(req) === 'SubscribeToTask') {
        startSse(res);
        return res.end(
          frame({
            jsonrpc: '2.0',
            id: rpcId(req),
            result: { task: task('t1', 'TASK_STATE_COMPLETED') },
          }),
        );
      }
      return rpcResult(task())(req, res, 0);
    });
    const client = await A2AClient.connect(card([jsonrpc(s, { tenant: 'acme' })]));
    await client.getTask({ id: 't1' });
    for await (const _ of client.subscribeToTask({ id: 't1' })) void _;
    expect(s.requests.map((r) => rpcParams(r).tenant)).toEqual(['acme', 'acme']);
  });

  it('omits the tenant when the interface has none, even if the request carries one', async () => {
    const s = await start(rpcResult(task()));
    const client = await A2AClient.connect(card([jsonrpc(s)]));
    await client.getTask({ id: 't1', tenant: 'mine' });
    expect(rpcParams(s.requests[0] as RecordedRequest)).toEqual({ id: 't1' });
  });
});

describe('A2AClient interface fallback [25]', () => {
  function countingFetch(urls: string[]): typeof fetch {
    return (input, init) => {
      urls.push(input instanceof Request ? input.url : input.toString());
      return fetch(input, init);
    };
  }

  it('falls back to the next interface when the first port is closed, then sticks to it', async () => {
    const port = await closedPort();
    const s = await start((_req, res) => sendJson(res, 200, task()));
    const urls: string[] = [];
    const dead: AgentInterface = {
      url: `http://127.0.0.1:${port}/a2a`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    };
    const client = await A2AClient.connect(card([dead, rest(s)]), {
      fetch: countingFetch(urls),
      retries: { maxAttempts: 1 },
    });
    expect((await client.getTask({ id: 't1' })).id).toBe('t1');
    await client.getTask({ id: 't1' });
    expect(urls).toEqual([
      `http://127.0.0.1:${port}/a2a`,
      `${s.url}/rest/tasks/t1`,
      `${s.url}/rest/tasks/t1`,
    ]);
    expect(client.selectedInterface.protocolBinding).toBe('HTTP+JSON');
  });

  it('falls back when the first interface answers 503 on the first call', async () => {
    const s = await start((req, res) => {
      if (req.url === '/a2a') {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('no backend');
      }
      return sendJson(res, 200, task());
    });
    const client = await A2AClient.connect(card([jsonrpc(s), rest(s)]), {
      retries: { maxAttempts: 1 },
    });
    await client.getTask({ id: 't1' });
    expect(s.requests.map((r) => r.url)).toEqual(['/a2a', '/rest/tasks/t1']);
  });

  it('does not fall back on a spec error, nor once an interface has answered', async () => {
    let down = false;
    const s = await start((req, res) => {
      if (req.url !== '/a2a') return sendJson(res, 200, task());
      if (down) {
        res.writeHead(503);
        return res.end();
      }
      return sendJson(res, 200, {
        jsonrpc: '2.0',
        id: rpcId(req),
        error: { code: -32001, message: 'Task not found' },
      });
    });
    const client = await A2AClient.connect(card([jsonrpc(s), rest(s)]), {
      retries: { maxAttempts: 1 },
    });
    expect(await caught(client.getTask({ id: 'x' }))).toMatchObject({ code: 'TASK_NOT_FOUND' });
    down = true;
    expect(await caught(client.getTask({ id: 'x' }))).toMatchObject({
      code: 'BAD_STATUS',
      status: 503,
    });
    expect(s.requests.every((r) => r.url === '/a2a')).toBe(true);
  });

  it('falls back for a stream whose first interface cannot be reached', async () => {
    const port = await closedPort();
    const s = await start((_req, res) => {
      startSse(res);
      res.end(frame({ message: { messageId: 'r', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }));
    });
    const dead: AgentInterface = {
      url: `http://127.0.0.1:${port}/a2a`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    };
    const client = await A2AClient.connect(card([dead, rest(s)]));
    const events: unknown[] = [];
    for await (const ev of client.sendStreamingMessage({ message: userMessage('hi') }))
      events.push(ev);
    expect(events).toHaveLength(1);
    expect(s.requests[0]?.url).toBe('/rest/message:stream');
  });
});

describe('A2AClient capability checks [26]', () => {
  it.each<[string, (c: A2AClient) => Promise<unknown>, string]>([
    ['GetExtendedAgentCard', (c) => c.getExtendedAgentCard(), 'UNSUPPORTED_OPERATION'],
    [
      'push configs',
      (c) => c.listTaskPushNotificationConfigs({ taskId: 't1' }),
      'PUSH_NOTIFICATION_NOT_SUPPORTED',
    ],
    [
      'SendStreamingMessage',
      async (c) => {
        for await (const _ of c.sendStreamingMessage({ message: userMessage('x') })) void _;
      },
      'UNSUPPORTED_OPERATION',
    ],
  ])('refuses %s the card does not declare, without a request', async (_name, call, code) => {
    const s = await start(rpcResult({}));
    const client = await A2AClient.connect(card([jsonrpc(s)], {}));
    const error = await caught(call(client));
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ code });
    expect(s.requests).toHaveLength(0);
  });

  it('fetches the extended card when declared and uses it from then on [222]', async () => {
    const s = await start((req, res) =>
      rpcResult({ ...card([jsonrpc(s)], { extendedAgentCard: true }), name: 'Extended' })(
        req,
        res,
        0,
      ),
    );
    const client = await A2AClient.connect(card([jsonrpc(s)], { extendedAgentCard: true }));
    expect((await client.getExtendedAgentCard()).name).toBe('Extended');
    expect(client.card.name).toBe('Extended');
    expect(rpcMethod(s.requests[0] as RecordedRequest)).toBe('GetExtendedAgentCard');
  });

  it('can be told not to check', async () => {
    const s = await start(rpcResult({ configs: [] }));
    const client = await A2AClient.connect(card([jsonrpc(s)], {}), { checkCapabilities: false });
    expect(await client.listTaskPushNotificationConfigs({ taskId: 't1' })).toEqual({ configs: [] });
  });
});
