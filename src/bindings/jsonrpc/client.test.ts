import { afterEach, describe, expect, it } from 'vitest';
import { statusUpdate, task } from '../../../test/support/fixtures.js';
import {
  closedPort,
  delay,
  frame,
  sendJson,
  startSse,
  startWireServer,
  type WireHandler,
  type WireServer,
} from '../../../test/support/wire-server.js';
import { TransportError } from '../../transport/errors.js';
import { A2AError, ERROR_CATALOG, type A2AErrorCode } from '../../core/errors.js';
import { JsonRpcTransport } from './client.js';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function transport(
  handler: WireHandler,
  options: { tenant?: string; maxEventBytes?: number } = {},
) {
  server = await startWireServer(handler);
  return { s: server, t: new JsonRpcTransport({ url: `${server.url}/a2a`, ...options }) };
}

const reply =
  (result: unknown): WireHandler =>
  (req, res) =>
    sendJson(res, 200, { jsonrpc: '2.0', id: (req.json as { id: number }).id, result });

const rpcError =
  (error: unknown, status = 200): WireHandler =>
  (req, res) =>
    sendJson(res, status, { jsonrpc: '2.0', id: (req.json as { id: number }).id, error });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

describe('JsonRpcTransport requests', () => {
  it('POSTs a JSON-RPC 2.0 request with the PascalCase method and A2A-Version [28][166][167]', async () => {
    const { s, t } = await transport(reply(task()));
    const got = await t.getTask({ id: 't1', historyLength: 2 });
    expect(got.id).toBe('t1');
    const req = s.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/a2a');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['a2a-version']).toBe('1.0');
    expect(req?.json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'GetTask',
      params: { id: 't1', historyLength: 2 },
    });
  });

  it('puts the interface tenant in params.tenant and omits a tenant the interface lacks [24]', async () => {
    const { s, t } = await transport(reply(task()), { tenant: 'acme' });
    await t.getTask({ id: 't1', tenant: 'other' });
    expect((s.requests[0]?.json as { params: unknown }).params).toEqual({
      id: 't1',
      tenant: 'acme',
    });
    const plain = new JsonRpcTransport({ url: `${s.url}/a2a` });
    await plain.getTask({ id: 't1', tenant: 'other' });
    expect((s.requests[1]?.json as { params: unknown }).params).toEqual({ id: 't1' });
  });

  it('accepts null and {} as the DeleteTaskPushNotificationConfig result', async () => {
    const { t } = await transport((req, res, n) =>
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id: (req.json as { id: number }).id,
        result: n === 1 ? null : {},
      }),
    );
    expect(await t.deleteTaskPushNotificationConfig({ taskId: 't1', id: 'p1' })).toEqual({});
    expect(await t.deleteTaskPushNotificationConfig({ taskId: 't1', id: 'p1' })).toEqual({});
  });
});

describe('JsonRpcTransport malformed replies', () => {
  it.each<[string, WireHandler, RegExp]>([
    [
      'a result that is not a valid Task',
      reply({ id: 't1' }),
      /invalid GetTask result from .*: status: /,
    ],
    [
      'an answer to another id',
      (_req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: 99, result: task() }),
      /answers id 99, expected 1/,
    ],
    [
      'no jsonrpc member',
      (req, res) => sendJson(res, 200, { id: (req.json as { id: number }).id, result: task() }),
      /lacks "jsonrpc": "2.0"/,
    ],
    [
      'neither result nor error',
      (req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: (req.json as { id: number }).id }),
      /neither "result" nor "error"/,
    ],
    [
      'an HTML page',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>hi</html>');
      },
      /expected JSON from .*, got text\/html/,
    ],
    [
      'broken JSON',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":');
      },
      /is not valid JSON/,
    ],
  ])('rejects %s with BAD_RESPONSE', async (_name, handler, message) => {
    const { t } = await transport(handler);
    const error = await caught(t.getTask({ id: 't1' }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as Error).message).toMatch(message);
  });
});

describe('JsonRpcTransport errors', () => {
  const a2aCodes = (Object.keys(ERROR_CATALOG) as A2AErrorCode[]).filter(
    (c) => ERROR_CATALOG[c].a2a,
  );

  it.each(a2aCodes)('maps JSON-RPC %s with ErrorInfo to A2AError [169][170]', async (code) => {
    const data = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: code,
        domain: 'a2a-protocol.org',
        metadata: { taskId: 't9' },
      },
    ];
    const { t } = await transport(
      rpcError({ code: ERROR_CATALOG[code].jsonrpc, message: `custom ${code}`, data }),
    );
    const error = await caught(t.getTask({ id: 't9' }));
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ code, message: `custom ${code}`, metadata: { taskId: 't9' } });
  });

  it('uses the numeric code when there is no ErrorInfo', async () => {
    const { t } = await transport(rpcError({ code: -32001, message: 'gone' }));
    expect(await caught(t.getTask({ id: 'x' }))).toMatchObject({
      code: 'TASK_NOT_FOUND',
      message: 'gone',
    });
  });

  it('prefers the ErrorInfo reason over a shared or unknown numeric code', async () => {
    const data = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'VERSION_NOT_SUPPORTED',
        domain: 'a2a-protocol.org',
      },
    ];
    const { t } = await transport(rpcError({ code: -32000, message: 'v', data }));
    expect(await caught(t.getTask({ id: 'x' }))).toMatchObject({ code: 'VERSION_NOT_SUPPORTED' });
  });

  it('keeps field violations of invalid params', async () => {
    const violations = [{ field: 'pageSize', description: 'must be between 1 and 100' }];
    const data = [
      { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations },
    ];
    const { t } = await transport(rpcError({ code: -32602, message: 'Invalid parameters', data }));
    const error = await caught(t.listTasks({ pageSize: 50 }));
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', fieldViolations: violations });
  });

  it('reads a JSON-RPC error sent with a non-2xx status', async () => {
    const { t } = await transport(rpcError({ code: -32001, message: 'nope' }, 404));
    expect(await caught(t.getTask({ id: 'x' }))).toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('turns a 503 without a JSON-RPC body into BAD_STATUS with Retry-After', async () => {
    const { t } = await transport((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '2' });
      res.end('upstream down');
    });
    const error = await caught(t.getTask({ id: 'x' }));
    expect(error).toMatchObject({ code: 'BAD_STATUS', status: 503, retryAfterMs: 2000 });
    expect((error as Error).message).toMatch(/HTTP 503.*upstream down/);
  });

  it('times out with TIMEOUT and aborts with ABORTED', async () => {
    const { s, t } = await transport(() => undefined); // never answers
    expect(await caught(t.getTask({ id: 'x' }, { timeoutMs: 100 }))).toMatchObject({
      code: 'TIMEOUT',
    });
    const controller = new AbortController();
    const pending = t.getTask({ id: 'x' }, { signal: controller.signal });
    while (s.requests.length < 2) await delay(5); // the request is at the server: abort now
    controller.abort();
    expect(await caught(pending)).toMatchObject({ code: 'ABORTED' });
  });

  it('reports a refused connection as NETWORK naming the cause', async () => {
    const port = await closedPort();
    const t = new JsonRpcTransport({ url: `http://127.0.0.1:${port}/a2a` });
    const error = await caught(t.getTask({ id: 'x' }));
    expect(error).toMatchObject({ code: 'NETWORK' });
    expect((error as Error).message).toBe(
      `cannot reach http://127.0.0.1:${port}/a2a: connection refused (ECONNREFUSED)`,
    );
  });
});

describe('JsonRpcTransport streams', () => {
  const envelope = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });

  it('yields validated StreamResponses with their SSE ids and sends Last-Event-ID [117]', async () => {
    const { s, t } = await transport((req, res) => {
      const id = (req.json as { id: number }).id;
      startSse(res);
      res.write(': keep-alive\n\n');
      res.write(frame(envelope(id, { task: task() }), 4));
      res.write(frame(envelope(id, statusUpdate('TASK_STATE_COMPLETED')), 5));
      res.end();
    });
    const stream = t.subscribeToTask({ id: 't1' }, { lastEventId: '3' });
    const seen: [string | undefined, unknown][] = [];
    for await (const ev of stream) seen.push([stream.lastEventId, ev]);
    expect(seen).toEqual([
      ['4', { task: task() }],
      ['5', statusUpdate('TASK_STATE_COMPLETED')],
    ]);
    expect(s.requests[0]?.headers['last-event-id']).toBe('3');
    expect(s.requests[0]?.headers.accept).toMatch(/text\/event-stream/);
    expect((s.requests[0]?.json as { method: string }).method).toBe('SubscribeToTask');
  });

  it('throws a mid-stream JSON-RPC error as A2AError after the events before it', async () => {
    const { t } = await transport((req, res) => {
      const id = (req.json as { id: number }).id;
      startSse(res);
      res.write(frame(envelope(id, { task: task() })));
      res.write(frame({ jsonrpc: '2.0', id, error: { code: -32603, message: 'agent crashed' } }));
      res.end();
    });
    const seen: unknown[] = [];
    const error = await caught(
      (async () => {
        for await (const ev of t.sendStreamingMessage({
          message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
        }))
          seen.push(ev);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ code: 'INTERNAL', message: 'agent crashed' });
  });

  it('reads an error sent as plain JSON instead of a stream', async () => {
    const { t } = await transport(rpcError({ code: -32004, message: 'no streaming' }));
    const error = await caught(
      (async () => {
        for await (const _ of t.subscribeToTask({ id: 't1' })) void _;
      })(),
    );
    expect(error).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
  });

  it.each<[string, string, RegExp]>([
    [
      'an invalid event',
      'data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t1"}}}\n\n',
      /invalid SubscribeToTask result/,
    ],
    ['an event that is not JSON', 'data: {oops\n\n', /not valid JSON/],
    ['an event above the size limit', `data: ${'x'.repeat(5000)}\n\n`, /larger than 1024 bytes/],
  ])('rejects %s with BAD_RESPONSE', async (_name, body, message) => {
    const { t } = await transport(
      (_req, res) => {
        startSse(res);
        res.end(body);
      },
      { maxEventBytes: 1024 },
    );
    const error = await caught(
      (async () => {
        for await (const _ of t.subscribeToTask({ id: 't1' })) void _;
      })(),
    );
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as Error).message).toMatch(message);
  });

  it('fails a silent stream with TIMEOUT after the idle timeout, keep-alives count as activity', async () => {
    const { t } = await transport(async (req, res) => {
      startSse(res);
      for (let i = 0; i < 4; i++) {
        await delay(60);
        res.write(': keep-alive\n\n');
      }
      // then silence
    });
    const started = Date.now();
    const error = await caught(
      (async () => {
        for await (const _ of t.subscribeToTask({ id: 't1' }, { idleTimeoutMs: 150 })) void _;
      })(),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240 + 150 - 20);
  });
});
