import { describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import type { OperationName } from '../../core/operations.js';
import type { AgentCard } from '../../core/schemas/index.js';
import { createA2AHandler } from '../a2a-handler.js';
import type { HttpResponse } from '../../http/types.js';
import type { A2AService, StreamItem } from '../../core/service.js';
import type { CallContext } from '../../core/call-context.js';

interface Call {
  name: OperationName;
  params: Record<string, unknown>;
  call: CallContext;
}

/** A service that records calls and answers with `reply` (or throws what it returns). */
function fakeService(reply: (name: OperationName) => unknown = () => ({ ok: true })) {
  const calls: Call[] = [];
  const service: A2AService = {
    async invoke(name, params, call) {
      calls.push({ name, params: params as Record<string, unknown>, call });
      const value = reply(name);
      if (value instanceof Error) throw value;
      return value;
    },
    async stream(name, params, call) {
      calls.push({ name, params: params as Record<string, unknown>, call });
      const value = reply(name);
      if (value instanceof Error) throw value;
      return value as AsyncIterable<StreamItem>;
    },
    agentCard: (supportedInterfaces) =>
      ({ name: 'x', supportedInterfaces }) as unknown as AgentCard,
  };
  const handler = createA2AHandler(service, {
    baseUrl: 'http://h',
    onError: () => undefined,
    maxBodyBytes: 1000,
  });
  const send = (
    method: string,
    path: string,
    options: { body?: string; headers?: Record<string, string>; noVersion?: boolean } = {},
  ) => {
    const headers: Record<string, string> = { 'a2a-version': '1.0', ...options.headers };
    if (options.noVersion === true) delete headers['a2a-version'];
    return handler({
      method,
      url: `/a2a/rest${path}`,
      headers: { get: (n) => headers[n] ?? null },
      body: options.body,
    });
  };
  return { calls, send };
}

function errorOf(res: HttpResponse): {
  code: number;
  status: string;
  message: string;
  details: unknown[];
} {
  return (JSON.parse(res.body as string) as { error: ReturnType<typeof errorOf> }).error;
}

const message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

describe('HTTP+JSON server', () => {
  it('[173] sends the JSON body as the request and answers 200 with the ProtoJSON result', async () => {
    const { calls, send } = fakeService(() => ({ task: { id: 't' } }));
    const res = await send('POST', '/message:send', {
      body: JSON.stringify({ message }),
      headers: { 'content-type': 'application/a2a+json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/a2a+json');
    expect(JSON.parse(res.body as string)).toEqual({ task: { id: 't' } });
    expect(calls[0]).toMatchObject({
      name: 'SendMessage',
      params: { message: { messageId: 'm1' } },
    });
  });

  it('[174] answers in the media type the client used', async () => {
    const { send } = fakeService();
    const viaContentType = await send('POST', '/tasks/t:cancel', {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(viaContentType.headers['content-type']).toBe('application/json');
    const viaAccept = await send('GET', '/tasks/t', { headers: { accept: 'application/json' } });
    expect(viaAccept.headers['content-type']).toBe('application/json');
    const preferred = await send('GET', '/tasks/t', {
      headers: { accept: 'application/json, application/a2a+json' },
    });
    expect(preferred.headers['content-type']).toBe('application/a2a+json');
    expect((await send('GET', '/tasks/t')).headers['content-type']).toBe('application/a2a+json');
  });

  it('[173] lets path fields and the path tenant win over body fields', async () => {
    const { calls, send } = fakeService();
    await send('POST', '/acme/tasks/t1:cancel', {
      body: JSON.stringify({ id: 'other', tenant: 'evil', metadata: { k: 1 } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(calls[0]?.params).toEqual({ id: 't1', tenant: 'acme', metadata: { k: 1 } });
    expect(calls[0]?.call.tenant).toBe('acme');
  });

  it('refuses a body without Content-Type with 415 (a page could send it cross-site); takes an empty body on :cancel', async () => {
    const { calls, send } = fakeService();
    const untyped = await send('POST', '/tasks/t1:cancel', { body: '{"metadata":{"a":1}}' });
    expect(untyped.status).toBe(415);
    expect(JSON.parse(untyped.body as string)).toMatchObject({
      error: { code: 415, status: 'INVALID_ARGUMENT' },
    });
    expect((untyped.body as string).includes('Content-Type: application/a2a+json')).toBe(true);
    const typed = await send('POST', '/tasks/t1:cancel', {
      body: '{"metadata":{"a":1}}',
      headers: { 'content-type': 'application/a2a+json; charset=utf-8' },
    });
    expect(typed.status).toBe(200);
    expect((await send('POST', '/tasks/t2:cancel')).status).toBe(200);
    expect(calls.map((c) => c.params)).toEqual([{ id: 't1', metadata: { a: 1 } }, { id: 't2' }]);
  });

  it('ignores a trailing slash on a route', async () => {
    const { calls, send } = fakeService(() => ({ id: 't1' }));
    expect((await send('GET', '/tasks/t1/')).status).toBe(200);
    expect((await send('POST', '/tasks/t1:cancel/')).status).toBe(200);
    expect(calls.map((c) => c.name)).toEqual(['GetTask', 'CancelTask']);
  });

  it('[175][176] reads GET parameters from the query string', async () => {
    const { calls, send } = fakeService(() => ({
      tasks: [],
      nextPageToken: '',
      pageSize: 5,
      totalSize: 0,
    }));
    const res = await send(
      'GET',
      '/tasks?contextId=c1&status=TASK_STATE_WORKING&pageSize=5&includeArtifacts=true&historyLength=0&statusTimestampAfter=2025-11-09T10%3A30%3A00Z&A2A-Version=1.0',
    );
    expect(res.status).toBe(200);
    expect(calls[0]?.params).toEqual({
      contextId: 'c1',
      status: 'TASK_STATE_WORKING',
      pageSize: 5,
      includeArtifacts: true,
      historyLength: 0,
      statusTimestampAfter: '2025-11-09T10:30:00.000Z',
    });
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['historyLength=-1', 'historyLength'],
    ['status=DONE', 'status'],
    ['includeArtifacts=yes', 'includeArtifacts'],
  ])('[99] answers 400 INVALID_ARGUMENT for ?%s naming the field', async (query, field) => {
    const { calls, send } = fakeService();
    const res = await send('GET', `/tasks?${query}`);
    expect(res.status).toBe(400);
    const error = errorOf(res);
    expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(JSON.stringify(error.details)).toContain(`"field":"${field}"`);
    expect(calls).toHaveLength(0);
  });

  it('[178][179] answers A2A errors with google.rpc.Status, the mapped HTTP status and an ErrorInfo', async () => {
    const { send } = fakeService(
      () => new A2AError('TASK_NOT_FOUND', 'Task t9 not found', { metadata: { taskId: 't9' } }),
    );
    const res = await send('GET', '/tasks/t9');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body as string)).toEqual({
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: 'Task t9 not found',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
            metadata: { taskId: 't9' },
          },
        ],
      },
    });
  });

  it('answers an unexpected failure with a generic 500 that leaks nothing', async () => {
    const { send } = fakeService(() => new RangeError('db password is hunter2'));
    const res = await send('GET', '/tasks/t9');
    expect(res.status).toBe(500);
    expect(errorOf(res)).toEqual({
      code: 500,
      status: 'INTERNAL',
      message: 'Internal error',
      details: [],
    });
  });

  it.each([
    ['text/plain', '{"message":{}}', 415, 'INVALID_ARGUMENT'],
    ['application/json', '{"message":', 400, 'INVALID_ARGUMENT'],
    ['application/json', '[1,2]', 400, 'INVALID_ARGUMENT'],
    ['application/json', '{"message":{"role":"ROLE_USER"}}', 400, 'INVALID_ARGUMENT'],
  ])('answers a %s body %s with %d', async (type, body, status, grpc) => {
    const { calls, send } = fakeService();
    const res = await send('POST', '/message:send', { body, headers: { 'content-type': type } });
    expect(res.status).toBe(status);
    expect(errorOf(res)).toMatchObject({ code: status, status: grpc });
    expect(calls).toHaveLength(0);
  });

  it('answers 413 when the body is over the limit', async () => {
    const { calls, send } = fakeService();
    const res = await send('POST', '/message:send', {
      body: JSON.stringify({ message, pad: 'x'.repeat(2000) }),
    });
    expect(res.status).toBe(413);
    expect(errorOf(res).status).toBe('RESOURCE_EXHAUSTED');
    expect(calls).toHaveLength(0);
  });

  it('answers 404 for an unknown route and 405 with Allow for a wrong verb', async () => {
    const { send } = fakeService();
    const missing = await send('GET', '/nothing/here/at/all');
    expect(missing.status).toBe(404);
    expect(errorOf(missing).status).toBe('NOT_FOUND');
    const wrongVerb = await send('PUT', '/tasks/t1');
    expect(wrongVerb.status).toBe(405);
    expect(wrongVerb.headers.allow).toBe('GET');
  });

  it('[32] answers 400 VERSION_NOT_SUPPORTED without A2A-Version, but accepts the query parameter', async () => {
    const { calls, send } = fakeService();
    for (const options of [
      { noVersion: true },
      { headers: { 'a2a-version': '' } },
      { headers: { 'a2a-version': '0.3' } },
    ]) {
      const res = await send('GET', '/tasks/t1', options);
      expect(res.status).toBe(400);
      const error = errorOf(res);
      expect(error.status).toBe('FAILED_PRECONDITION');
      expect(error.message).toContain('A2A-Version: 1.0');
      expect(JSON.stringify(error.details)).toContain('VERSION_NOT_SUPPORTED');
    }
    expect(calls).toHaveLength(0);
    const viaQuery = await send('GET', '/tasks/t1?A2A-Version=1.0', { noVersion: true });
    expect(viaQuery.status).toBe(200);
    expect(calls[0]?.params).toEqual({ id: 't1' });
  });

  it('[180][181] streams bare StreamResponse events, by POST or GET :subscribe, and ends a failure with event: error', async () => {
    async function* events(): AsyncGenerator<StreamItem> {
      yield {
        id: '3',
        event: {
          statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
        },
      };
      throw new A2AError('UNSUPPORTED_OPERATION', 'gone');
    }
    for (const verb of ['POST', 'GET']) {
      const { calls, send } = fakeService(() => events());
      const res = await send(verb, '/tasks/t:subscribe', { headers: { 'last-event-id': '2' } });
      expect(res.headers['content-type']).toBe('text/event-stream');
      // Last-Event-ID reaches SubscribeToTask as a parameter (SubscribeToTaskParams).
      expect(calls[0]).toMatchObject({
        name: 'SubscribeToTask',
        params: { id: 't', lastEventId: '2' },
      });
      const frames: string[] = [];
      for await (const frame of res.body as AsyncIterable<string>) frames.push(frame);
      expect(frames[0]).toBe(
        'id: 3\ndata: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}\n\n',
      );
      expect(frames[1]).toMatch(
        /^event: error\ndata: \{"error":\{"code":400,"status":"FAILED_PRECONDITION","message":"gone"/,
      );
      expect(frames).toHaveLength(2);
    }
  });
});
