import { afterEach, describe, expect, it } from 'vitest';
import { statusUpdate, task } from '../../../test/support/fixtures.js';
import {
  frame,
  sendJson,
  startSse,
  startWireServer,
  type WireHandler,
  type WireServer,
} from '../../../test/support/wire-server.js';
import { A2AError, ERROR_CATALOG, type A2AErrorCode } from '../../core/errors.js';
import type { OperationParams } from '../../core/operations.js';
import { TransportError } from '../../transport/errors.js';
import type { UnaryOperationName } from '../../transport/transport.js';
import { RestTransport } from './client.js';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function transport(handler: WireHandler, tenant?: string) {
  server = await startWireServer(handler);
  return { s: server, t: new RestTransport({ url: `${server.url}/rest/`, tenant }) };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

const status = (http: number, name: string, message: string, details: unknown[] = []) => ({
  error: { code: http, status: name, message, details },
});
const errorInfo = (reason: string, metadata?: Record<string, string>) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'a2a-protocol.org',
  ...(metadata ? { metadata } : {}),
});

const config = { taskId: 't1', id: 'p1', url: 'https://hook.example/cb' };
const message = { messageId: 'm1', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] };

type Case = {
  [N in UnaryOperationName]: [N, OperationParams<N>, string, string, unknown, unknown];
}[UnaryOperationName];

describe('RestTransport routes [173][175][176]', () => {
  const cases: Case[] = [
    ['SendMessage', { message }, 'POST', '/rest/message:send', { message }, { task: task() }],
    [
      'GetTask',
      { id: 't/1', historyLength: 3 },
      'GET',
      '/rest/tasks/t%2F1?historyLength=3',
      undefined,
      task(),
    ],
    [
      'ListTasks',
      {
        contextId: 'c1',
        status: 'TASK_STATE_WORKING',
        pageSize: 20,
        includeArtifacts: true,
        statusTimestampAfter: '2025-11-09T10:30:00.000Z',
      },
      'GET',
      '/rest/tasks?contextId=c1&status=TASK_STATE_WORKING&pageSize=20&includeArtifacts=true&statusTimestampAfter=2025-11-09T10%3A30%3A00.000Z',
      undefined,
      { tasks: [], nextPageToken: '', pageSize: 20, totalSize: 0 },
    ],
    [
      'CancelTask',
      { id: 't1', metadata: { why: 'done' } },
      'POST',
      '/rest/tasks/t1:cancel',
      { metadata: { why: 'done' } },
      task('t1', 'TASK_STATE_CANCELED'),
    ],
    [
      'CreateTaskPushNotificationConfig',
      config,
      'POST',
      '/rest/tasks/t1/pushNotificationConfigs',
      { id: 'p1', url: config.url },
      config,
    ],
    [
      'GetTaskPushNotificationConfig',
      { taskId: 't1', id: 'p1' },
      'GET',
      '/rest/tasks/t1/pushNotificationConfigs/p1',
      undefined,
      config,
    ],
    [
      'ListTaskPushNotificationConfigs',
      { taskId: 't1', pageSize: 5 },
      'GET',
      '/rest/tasks/t1/pushNotificationConfigs?pageSize=5',
      undefined,
      { configs: [config] },
    ],
    [
      'DeleteTaskPushNotificationConfig',
      { taskId: 't1', id: 'p1' },
      'DELETE',
      '/rest/tasks/t1/pushNotificationConfigs/p1',
      undefined,
      {},
    ],
    ['GetExtendedAgentCard', {}, 'GET', '/rest/extendedAgentCard', undefined, undefined],
  ];

  it.each(cases)(
    '%s → the right verb, path, query and body',
    async (operation, request, verb, path, body, result) => {
      const card = {
        name: 'n',
        description: 'd',
        version: '1',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
        supportedInterfaces: [
          { url: 'http://x', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ],
      };
      const { s, t } = await transport((_req, res) => sendJson(res, 200, result ?? card));
      await t.call(operation, request);
      const req = s.requests[0];
      expect(req?.method).toBe(verb);
      expect(req?.url).toBe(path);
      expect(req?.json).toEqual(body);
      expect(req?.headers['a2a-version']).toBe('1.0');
      expect(req?.headers.accept).toBe('application/a2a+json, application/json');
      expect(req?.headers['content-type']).toBe(
        body === undefined ? undefined : 'application/a2a+json',
      );
    },
  );

  it('prefixes every path with the interface tenant and never sends another tenant [24]', async () => {
    const { s, t } = await transport((_req, res) => sendJson(res, 200, task()), 'acme corp');
    await t.getTask({ id: 't1', tenant: 'other' });
    await t.sendMessage({ message, tenant: 'other' }).catch(() => undefined);
    expect(s.requests[0]?.url).toBe('/rest/acme%20corp/tasks/t1');
    expect(s.requests[1]?.url).toBe('/rest/acme%20corp/message:send');
    expect(s.requests[1]?.json).toEqual({ message });
  });

  it('POSTs SubscribeToTask and sends Last-Event-ID', async () => {
    const { s, t } = await transport((_req, res) => {
      startSse(res);
      res.end(frame({ task: task('t1', 'TASK_STATE_COMPLETED') }, 9));
    });
    const stream = t.subscribeToTask({ id: 't1' }, { lastEventId: '8' });
    const events: unknown[] = [];
    for await (const ev of stream) events.push(ev);
    expect(events).toEqual([{ task: task('t1', 'TASK_STATE_COMPLETED') }]);
    expect(stream.lastEventId).toBe('9');
    expect(s.requests[0]).toMatchObject({ method: 'POST', url: '/rest/tasks/t1:subscribe' });
    expect(s.requests[0]?.headers['last-event-id']).toBe('8');
  });

  it('accepts an empty 204 reply to DeleteTaskPushNotificationConfig', async () => {
    const { t } = await transport((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await t.deleteTaskPushNotificationConfig({ taskId: 't1', id: 'p1' })).toEqual({});
  });

  it('accepts any 2xx status (201 Created)', async () => {
    const { t } = await transport((_req, res) => sendJson(res, 201, config));
    expect(await t.createTaskPushNotificationConfig(config)).toEqual(config);
  });
});

describe('RestTransport errors [178][179]', () => {
  const a2aCodes = (Object.keys(ERROR_CATALOG) as A2AErrorCode[]).filter(
    (c) => ERROR_CATALOG[c].a2a,
  );

  it.each(a2aCodes)('maps google.rpc.Status with ErrorInfo %s to A2AError', async (code) => {
    const { t } = await transport((_req, res) =>
      sendJson(
        res,
        ERROR_CATALOG[code].http,
        status(ERROR_CATALOG[code].http, 'X', `said ${code}`, [errorInfo(code, { taskId: 't1' })]),
      ),
    );
    const error = await caught(t.getTask({ id: 't1' }));
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ code, message: `said ${code}`, metadata: { taskId: 't1' } });
  });

  it('falls back to the HTTP status when there is no ErrorInfo, keeping field violations', async () => {
    const violations = [{ field: 'pageSize', description: 'too big' }];
    const { t } = await transport((_req, res) =>
      sendJson(
        res,
        400,
        status(400, 'INVALID_ARGUMENT', 'bad', [
          { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations },
        ]),
      ),
    );
    expect(await caught(t.listTasks({}))).toMatchObject({
      code: 'INVALID_PARAMS',
      message: 'bad',
      fieldViolations: violations,
    });
  });

  it.each<[string, WireHandler, number]>([
    [
      '401 Status without A2A reason',
      (_req, res) => sendJson(res, 401, status(401, 'UNAUTHENTICATED', 'token expired')),
      401,
    ],
    [
      'an HTML 502 from a proxy',
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad Gateway</html>');
      },
      502,
    ],
    [
      '429 with Retry-After',
      (_req, res) =>
        sendJson(res, 429, status(429, 'RESOURCE_EXHAUSTED', 'slow down'), { 'retry-after': '1' }),
      429,
    ],
  ])('turns %s into TransportError BAD_STATUS', async (_name, handler, http) => {
    const { t } = await transport(handler);
    const error = await caught(t.getTask({ id: 't1' }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'BAD_STATUS', status: http });
  });

  it('says what is wrong with a malformed result (BAD_RESPONSE)', async () => {
    const { t } = await transport((_req, res) =>
      sendJson(res, 200, { task: { id: 't1', status: { state: 'DONE' } } }),
    );
    const error = await caught(t.sendMessage({ message }));
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as Error).message).toMatch(
      /invalid SendMessage result from .*task\.status\.state/,
    );
  });

  it('checks the content type before parsing', async () => {
    const { t } = await transport((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(JSON.stringify(task()));
    });
    expect(await caught(t.getTask({ id: 't1' }))).toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

describe('RestTransport streams [180]', () => {
  it('reads bare StreamResponse events, then a mid-stream `event: error` as A2AError', async () => {
    const { t } = await transport((_req, res) => {
      startSse(res);
      res.write(frame({ task: task() }, 1));
      res.write(frame(statusUpdate('TASK_STATE_WORKING'), 2));
      res.end(
        frame(
          status(404, 'NOT_FOUND', 'task vanished', [errorInfo('TASK_NOT_FOUND')]),
          undefined,
          'error',
        ),
      );
    });
    const events: unknown[] = [];
    const error = await caught(
      (async () => {
        for await (const ev of t.sendStreamingMessage({ message })) events.push(ev);
      })(),
    );
    expect(events).toEqual([{ task: task() }, statusUpdate('TASK_STATE_WORKING')]);
    expect(error).toMatchObject({ code: 'TASK_NOT_FOUND', message: 'task vanished' });
  });

  it('reads an error reply sent before the stream starts', async () => {
    const { t } = await transport((_req, res) =>
      sendJson(
        res,
        400,
        status(400, 'FAILED_PRECONDITION', 'terminal', [errorInfo('UNSUPPORTED_OPERATION')]),
      ),
    );
    const error = await caught(
      (async () => {
        for await (const _ of t.subscribeToTask({ id: 't1' })) void _;
      })(),
    );
    expect(error).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
  });

  it('rejects a 200 JSON reply where a stream was expected', async () => {
    const { t } = await transport((_req, res) => sendJson(res, 200, { task: task() }));
    const error = await caught(
      (async () => {
        for await (const _ of t.subscribeToTask({ id: 't1' })) void _;
      })(),
    );
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as Error).message).toMatch(/expected text\/event-stream/);
  });
});
