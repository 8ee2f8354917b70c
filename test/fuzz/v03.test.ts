/**
 * Bad A2A 0.3 input (issue 14 point 7), against `serve({ compat: ['0.3'] })`: a hand-written
 * table with the exact 0.3 error of each case (0.3 spec §8: JSON-RPC codes, HTTP+JSON bare
 * `{code, message}` bodies), then fast-check over random and mutated 0.3 requests on both
 * bindings: every reply is a 0.3 success or a 0.3 error, never a 5xx, a crash or a hang, and
 * the server still answers a valid request afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/server/agent.js';
import { serve, type ServeResult } from '../../src/node/serve.js';

const agent = createAgent({
  card: { name: 'fuzz 0.3', description: 'echo', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.completed('ok');
  },
});

let server: ServeResult;
beforeAll(async () => {
  server = await serve(agent, { logger: null, compat: ['0.3'], maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
});

const V03_CODES = new Set([
  -32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004, -32005, -32006, -32007,
]);
const JSON_TYPE = { 'content-type': 'application/json' };
const message = {
  kind: 'message',
  messageId: 'm1',
  role: 'user',
  parts: [{ kind: 'text', text: 'hi' }],
};

async function post(path: string, body: string, headers: Record<string, string> = JSON_TYPE) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}
const rpc = (method: unknown, params: unknown, id: unknown = 1) =>
  post('/a2a/jsonrpc', JSON.stringify({ jsonrpc: '2.0', id, method, params }));
const codeOf = (text: string) => (JSON.parse(text) as { error?: { code?: number } }).error?.code;

// prettier-ignore
const JSONRPC_CASES: [string, () => ReturnType<typeof post>, number][] = [
  ['invalid JSON', () => post('/a2a/jsonrpc', '{"jsonrpc":"2.0",'), -32700],
  ['a batch', () => post('/a2a/jsonrpc', '[]'), -32600],
  ['no id', () => post('/a2a/jsonrpc', JSON.stringify({ jsonrpc: '2.0', method: 'tasks/get' })), -32600],
  ['tasks/list (1.0 only)', () => rpc('tasks/list', {}), -32601],
  ['an unknown method', () => rpc('tasks/frobnicate', {}), -32601],
  ['params an array', () => rpc('tasks/get', []), -32602],
  ['message/send without message', () => rpc('message/send', {}), -32602],
  ['a part without content', () => rpc('message/send', { message: { ...message, parts: [{ kind: 'text' }] } }), -32602],
  ['an unknown role', () => rpc('message/send', { message: { ...message, role: 'robot' } }), -32602],
  ['tasks/get of an unknown task', () => rpc('tasks/get', { id: 'nope' }), -32001],
  ['tasks/get with a negative historyLength', () => rpc('tasks/get', { id: 'x', historyLength: -1 }), -32602],
  ['tasks/cancel without id', () => rpc('tasks/cancel', {}), -32602],
  ['push set without url', () => rpc('tasks/pushNotificationConfig/set', { taskId: 'x', pushNotificationConfig: {} }), -32602],
  ['an oversized body', () => rpc('message/send', { message: { ...message, parts: [{ kind: 'text', text: 'x'.repeat(70_000) }] } }), -32600],
];

describe('bad 0.3 JSON-RPC input gets the 0.3 error', () => {
  it.each(JSONRPC_CASES)('%s', async (_name, request, code) => {
    const reply = await request();
    expect(reply.status).toBeLessThan(500);
    expect(codeOf(reply.text)).toBe(code);
  });

  it('a stream that cannot start is an SSE stream with one 0.3 error frame', async () => {
    const reply = await rpc('tasks/resubscribe', { id: 'nope' });
    expect(reply.type).toMatch(/^text\/event-stream/);
    const data =
      reply.text
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6) ?? '';
    expect(codeOf(data)).toBe(-32001);
  });
});

// prettier-ignore
const REST_CASES: [string, string, string, string | undefined, number, number][] = [
  ['invalid JSON', 'POST', '/v1/message:send', '{"message":', 400, -32700],
  ['no message', 'POST', '/v1/message:send', '{}', 400, -32602],
  ['an unknown task', 'GET', '/v1/tasks/nope', undefined, 404, -32001],
  ['GET /v1/tasks (ListTasks is 1.0 only)', 'GET', '/v1/tasks', undefined, 404, -32601],
  ['an unknown route', 'GET', '/v1/nothing', undefined, 404, -32601],
  ['a bad historyLength', 'GET', '/v1/tasks/x?historyLength=-3', undefined, 400, -32602],
  ['a body that is an array', 'POST', '/v1/message:send', '[]', 400, -32602],
];

describe('bad 0.3 HTTP+JSON input gets the bare 0.3 error body', () => {
  it.each(REST_CASES)('%s', async (_name, method, path, body, status, code) => {
    const response = await fetch(`${server.url}/a2a/rest${path}`, {
      method,
      headers: JSON_TYPE,
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBe(status);
    expect((await response.json()) as unknown).toMatchObject({ code, message: expect.any(String) });
  });
});

const METHODS = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
  'tasks/list',
];
const mutated = fc.oneof(
  fc.anything(),
  fc.record({
    message: fc.oneof(
      fc.constant(message),
      fc.anything(),
      fc.record({ ...Object.fromEntries(Object.keys(message).map((k) => [k, fc.anything()])) }),
    ),
  }),
  fc.record({
    id: fc.oneof(fc.string(), fc.anything()),
    historyLength: fc.anything(),
    pushNotificationConfigId: fc.anything(),
  }),
  fc.record({ taskId: fc.anything(), pushNotificationConfig: fc.anything() }),
);

/** A reply is a 0.3 success or a 0.3 error, below 500. */
function checkRpc(reply: { status: number; type: string; text: string }): void {
  expect(reply.status).toBeLessThan(500);
  const frames = reply.type.startsWith('text/event-stream')
    ? reply.text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
    : [reply.text];
  for (const frame of frames) {
    const body = JSON.parse(frame) as { error?: { code: number }; result?: unknown };
    if (body.error !== undefined) expect(V03_CODES.has(body.error.code)).toBe(true);
    else expect(body).toHaveProperty('result');
  }
}

describe('fuzzed 0.3 requests', () => {
  it('JSON-RPC: random methods and params never crash, 5xx or hang', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), mutated, async (method, params) => {
        checkRpc(await rpc(method, params));
      }),
      { numRuns: 300, interruptAfterTimeLimit: 15_000 },
    );
    expect(codeOf((await rpc('tasks/get', { id: 'nope' })).text)).toBe(-32001);
  }, 60_000);

  it('HTTP+JSON: random routes and bodies never crash, 5xx or hang', async () => {
    const routes = fc.constantFrom(
      '/v1/message:send',
      '/v1/message:stream',
      '/v1/tasks/x',
      '/v1/tasks/x:cancel',
      '/v1/tasks/x:subscribe',
      '/v1/tasks/x/pushNotificationConfigs',
      '/v1/tasks/x/pushNotificationConfigs/c',
      '/v1/card',
      '/v1/%zz',
      '/v1/tasks/%2F',
    );
    await fc.assert(
      fc.asyncProperty(
        routes,
        fc.constantFrom('GET', 'POST', 'DELETE'),
        mutated,
        async (path, method, body) => {
          const response = await fetch(`${server.url}/a2a/rest${path}`, {
            method,
            headers: JSON_TYPE,
            ...(method === 'GET' ? {} : { body: JSON.stringify(body) ?? 'null' }),
            signal: AbortSignal.timeout(10_000),
          });
          expect(response.status).toBeLessThan(500);
          const text = await response.text();
          if (response.status >= 400 && text !== '') {
            const error = JSON.parse(text) as { code: number };
            expect(V03_CODES.has(error.code)).toBe(true);
          }
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 15_000 },
    );
    const ok = await post(
      '/a2a/rest/v1/message:send',
      JSON.stringify({
        message: { messageId: 'ok', role: 'ROLE_USER', content: [{ text: 'hi' }] },
        configuration: { blocking: true },
      }),
    );
    expect(ok.status).toBe(200);
  }, 60_000);
});
