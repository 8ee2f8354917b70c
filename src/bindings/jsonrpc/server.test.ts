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
  params: unknown;
  call: CallContext;
}

/** A service that records calls and answers with `reply` (or throws what it returns). */
function fakeService(reply: (name: OperationName) => unknown = () => ({ ok: true })) {
  const calls: Call[] = [];
  const errors: unknown[] = [];
  const service: A2AService = {
    async invoke(name, params, call) {
      calls.push({ name, params, call });
      const value = reply(name);
      if (value instanceof Error) throw value;
      call.activatedExtensions = ['urn:ext:a'];
      return value;
    },
    async stream(name, params, call) {
      calls.push({ name, params, call });
      const value = reply(name);
      if (value instanceof Error) throw value;
      return value as AsyncIterable<StreamItem>;
    },
    agentCard: (supportedInterfaces) =>
      ({ name: 'x', supportedInterfaces }) as unknown as AgentCard,
  };
  const handler = createA2AHandler(service, {
    baseUrl: 'http://h',
    onError: (e) => errors.push(e),
    maxBodyBytes: 2000,
  });
  const post = (
    body: unknown,
    headers: Record<string, string> = { 'a2a-version': '1.0' },
    path = '/a2a/jsonrpc',
  ) =>
    handler({
      method: 'POST',
      url: path,
      headers: { get: (n) => withType(headers)[n] ?? null },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { calls, errors, post };
}

/** Headers with a JSON Content-Type unless the test set one ('' means none at all). */
function withType(headers: Record<string, string>): Record<string, string> {
  if (headers['content-type'] === '') {
    const { 'content-type': _, ...rest } = headers;
    return rest;
  }
  return { 'content-type': 'application/json', ...headers };
}

function json(res: HttpResponse): Record<string, unknown> {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  return JSON.parse(res.body as string) as Record<string, unknown>;
}

const getTask = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 't1' } };

describe('JSON-RPC server', () => {
  it('[166][167] dispatches a PascalCase method and answers with the request id', async () => {
    const { calls, post } = fakeService(() => ({ id: 't1' }));
    const body = json(await post({ ...getTask, id: 'abc', params: { id: 't1', tenant: 'acme' } }));
    expect(body).toEqual({ jsonrpc: '2.0', id: 'abc', result: { id: 't1' } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'GetTask', params: { id: 't1', tenant: 'acme' } });
    expect(calls[0]?.call.tenant).toBe('acme');
  });

  it('answers at its URL with a trailing slash too', async () => {
    const { calls, post } = fakeService(() => ({ id: 't1' }));
    const body = json(await post(getTask, { 'a2a-version': '1.0' }, '/a2a/jsonrpc/'));
    expect(body).toMatchObject({ result: { id: 't1' } });
    expect(calls).toHaveLength(1);
  });

  it('[166] takes application/json and application/a2a+json with parameters', async () => {
    const { calls, post } = fakeService(() => ({ id: 't1' }));
    for (const type of [
      'application/json; charset=utf-8',
      'Application/A2A+JSON',
      'application/json',
    ]) {
      json(await post(getTask, { 'a2a-version': '1.0', 'content-type': type }));
    }
    expect(calls).toHaveLength(3);
  });

  it('[166] refuses any other Content-Type, or none, with 415 and -32600 before running anything (spec §9.1)', async () => {
    const { calls, post } = fakeService(() => ({ id: 't1' }));
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ]) {
      const res = await post(getTask, { 'a2a-version': '1.0', 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(res.headers['content-type']).toBe('application/json');
      const body = JSON.parse(res.body as string) as {
        id: unknown;
        error: { code: number; message: string };
      };
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toContain('Content-Type: application/json');
    }
    expect(calls).toHaveLength(0);
  });

  it('echoes the activated extensions in the A2A-Extensions header [235]', async () => {
    const { calls, post } = fakeService();
    const res = await post(getTask, {
      'a2a-version': '1.0',
      'a2a-extensions': 'urn:ext:a, urn:ext:b',
    });
    expect(calls[0]?.call.requestedExtensions).toEqual(['urn:ext:a', 'urn:ext:b']);
    expect(res.headers['a2a-extensions']).toBe('urn:ext:a');
  });

  it('sends an empty result object for Empty results', async () => {
    const { post } = fakeService(() => undefined);
    expect(
      json(
        await post({
          ...getTask,
          method: 'DeleteTaskPushNotificationConfig',
          params: { taskId: 't', id: 'p' },
        }),
      ).result,
    ).toEqual({});
  });

  it.each([
    ['not JSON', -32700, '{"jsonrpc":'],
    ['a batch', -32600, [getTask]],
    ['a string', -32600, '"hi"'],
    ['null', -32600, 'null'],
    ['no id (a notification)', -32600, { jsonrpc: '2.0', method: 'GetTask', params: { id: 't' } }],
    ['an object id', -32600, { ...getTask, id: { a: 1 } }],
    ['a boolean id', -32600, { ...getTask, id: true }],
  ])('[171] answers %s with code %d and id null', async (_name, code, body) => {
    const { calls, post } = fakeService();
    const answer = json(await post(body));
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['a wrong jsonrpc version', -32600, { ...getTask, id: 5, jsonrpc: '1.0' }],
    ['a missing method', -32600, { jsonrpc: '2.0', id: 5 }],
    ['a numeric method', -32600, { ...getTask, id: 5, method: 7 }],
    ['array params', -32602, { ...getTask, id: 5, params: ['t1'] }],
    ['string params', -32602, { ...getTask, id: 5, params: 't1' }],
  ])('[171] answers %s with code %d and the request id', async (_name, code, body) => {
    const { calls, post } = fakeService();
    const answer = json(await post(body));
    expect(answer).toMatchObject({ id: 5, error: { code } });
    expect(calls).toHaveLength(0);
  });

  it('accepts an id of null and echoes it', async () => {
    const { post } = fakeService();
    expect(json(await post({ ...getTask, id: null }))).toEqual({
      jsonrpc: '2.0',
      id: null,
      result: { ok: true },
    });
  });

  it('[171] answers an unknown method with -32601', async () => {
    const { post } = fakeService();
    const answer = json(await post({ ...getTask, method: 'DoThings' }));
    expect(answer.error).toMatchObject({ code: -32601 });
  });

  it.each([
    ['message/send', 'use "SendMessage"'],
    ['tasks/resubscribe', 'use "SubscribeToTask"'],
    ['sendMessage', 'use "SendMessage"'],
    ['foo/bar', 'PascalCase, e.g. SendMessage'],
  ])('[167] hints at the 1.0 name when the method is %s', async (method, hint) => {
    const { post } = fakeService();
    const answer = json(await post({ ...getTask, method }));
    expect(answer.error).toMatchObject({ code: -32601 });
    expect((answer.error as { message: string }).message).toContain(hint);
  });

  it('[160][170] answers invalid params with -32602 and a BadRequest naming the field', async () => {
    const { calls, post } = fakeService();
    const answer = json(await post({ ...getTask, params: { historyLength: -1 } }));
    expect(answer.error).toMatchObject({ code: -32602 });
    const data = (
      answer.error as { data: { '@type': string; fieldViolations: { field: string }[] }[] }
    ).data;
    expect(data[0]?.['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
    expect(data[0]?.fieldViolations.map((v) => v.field)).toEqual(
      expect.arrayContaining(['id', 'historyLength']),
    );
    expect(calls).toHaveLength(0);
  });

  it('lets GetExtendedAgentCard omit params (or send null)', async () => {
    const { calls, post } = fakeService();
    json(await post({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard' }));
    json(await post({ jsonrpc: '2.0', id: 2, method: 'GetExtendedAgentCard', params: null }));
    expect(calls.map((c) => c.name)).toEqual(['GetExtendedAgentCard', 'GetExtendedAgentCard']);
  });

  it('[169][170] maps A2A errors to their code with an ErrorInfo in data', async () => {
    const { post } = fakeService(
      () => new A2AError('TASK_NOT_FOUND', 'Task t1 not found', { metadata: { taskId: 't1' } }),
    );
    expect(json(await post(getTask))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32001,
        message: 'Task t1 not found',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
            metadata: { taskId: 't1' },
          },
        ],
      },
    });
  });

  it('answers an unexpected failure with -32603 and a generic message, and reports it', async () => {
    const { post, errors } = fakeService(() => new TypeError('secret internals at /srv/app.js'));
    const answer = json(await post(getTask));
    expect(answer.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(answer)).not.toContain('secret');
    expect(errors).toHaveLength(1);
  });

  it('[32] answers a missing A2A-Version with -32009 and the request id, before the method', async () => {
    const { calls, post } = fakeService();
    const answer = json(await post({ ...getTask, method: 'message/send' }, {}));
    expect(answer).toMatchObject({ id: 1, error: { code: -32009 } });
    expect((answer.error as { data: { reason: string }[] }).data[0]?.reason).toBe(
      'VERSION_NOT_SUPPORTED',
    );
    expect(calls).toHaveLength(0);
  });

  it('answers a body over the limit with -32600 without parsing it', async () => {
    const { calls, post } = fakeService();
    const answer = json(await post({ ...getTask, params: { id: 'x'.repeat(3000) } }));
    expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
    expect((answer.error as { message: string }).message).toContain('2000 bytes');
    expect(calls).toHaveLength(0);
  });

  it('[117][172] streams each event as a JSON-RPC response with the request id', async () => {
    async function* events(): AsyncGenerator<StreamItem> {
      yield { id: '1', event: { task: { id: 't', status: { state: 'TASK_STATE_SUBMITTED' } } } };
      throw new A2AError('TASK_NOT_FOUND');
    }
    const { post } = fakeService(() => events());
    const res = await post({
      jsonrpc: '2.0',
      id: 9,
      method: 'SendStreamingMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const frames: string[] = [];
    for await (const frame of res.body as AsyncIterable<string>) frames.push(frame);
    expect(frames).toHaveLength(2);
    expect(frames[0]).toBe(
      'id: 1\ndata: {"jsonrpc":"2.0","id":9,"result":{"task":{"id":"t","status":{"state":"TASK_STATE_SUBMITTED"}}}}\n\n',
    );
    // A mid-stream failure: one more event holding a JSON-RPC error response (spec §9.4.2).
    const last = JSON.parse((frames[1] as string).slice('data: '.length)) as Record<
      string,
      unknown
    >;
    expect(last).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32001 } });
  });

  it('answers a stream refused before it starts with a plain JSON-RPC error', async () => {
    const { post } = fakeService(() => new A2AError('UNSUPPORTED_OPERATION', 'no streaming'));
    const answer = json(
      await post({ jsonrpc: '2.0', id: 3, method: 'SubscribeToTask', params: { id: 't' } }),
    );
    expect(answer).toMatchObject({ id: 3, error: { code: -32004, message: 'no streaming' } });
  });
});
