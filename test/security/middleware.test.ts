/**
 * The operation middleware seam: `serve(agent, { middleware })` runs each
 * middleware for every operation on every binding (JSON-RPC, HTTP+JSON, gRPC), after the
 * binding validated the request; a middleware may log, replace params, wrap a stream, or refuse
 * with an A2AError whose headers the HTTP bindings send with its status. Last-Event-ID arrives
 * as a SubscribeToTask parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError } from '../../src/core/errors.js';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import type { StreamItem } from '../../src/core/service.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import { textPart, userMessage } from '../../src/server/index.js';
import { BINDINGS, driverFor, type Driver } from './fixtures/drivers.js';
import { securedAgent, startSecured, type SecureServer } from './fixtures/server.js';

const card: AgentCardConfig = {
  name: 'Hooked',
  description: 'Runs middleware',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};

interface Seen {
  operation: string;
  binding: string | undefined;
  params: unknown;
}

const seen: Seen[] = [];
let streamedThrough = 0;

/** Records every call. */
const record: OperationMiddleware = async (operation, params, call, next) => {
  seen.push({ operation, binding: call.protocolBinding, params });
  return next();
};

/** Refuses messages that say "forbidden", with a header; rewrites "shout" to upper case. */
const policy: OperationMiddleware = async (operation, params, _call, next) => {
  if (operation !== 'SendMessage' && operation !== 'SendStreamingMessage') return next();
  const request = params as { message: { parts: { text?: string }[] } };
  const text = request.message.parts[0]?.text;
  if (text === 'forbidden') {
    throw new A2AError('PERMISSION_DENIED', 'this word is not allowed', {
      headers: { 'x-policy': 'words' },
    });
  }
  if (text === 'shout') {
    return next({ ...request, message: { ...request.message, parts: [textPart('SHOUT')] } });
  }
  return next();
};

/** Counts stream events as they pass. */
const counting: OperationMiddleware = async (operation, params, _call, next) => {
  const result = await next(params);
  if (operation !== 'SendStreamingMessage') return result;
  const source = result as AsyncIterable<StreamItem>;
  return (async function* () {
    for await (const item of source) {
      streamedThrough += 1;
      yield item;
    }
  })();
};

let server: SecureServer;
const drivers: Driver[] = [];
beforeAll(async () => {
  server = await startSecured(securedAgent(card), { middleware: [record, policy, counting] });
});
afterAll(async () => {
  for (const d of drivers) d.close();
  await server.close();
});

function send(text: string) {
  return { message: userMessage(text) };
}

describe('operation middleware', () => {
  for (const binding of BINDINGS) {
    describe(binding, () => {
      let driver: Driver;
      beforeAll(() => {
        driver = driverFor(binding, server);
        drivers.push(driver);
      });

      it('runs for every operation with the binding and the validated params', async () => {
        seen.length = 0;
        const sent = await driver.call('SendMessage', send('hello'));
        expect(sent.code).toBe('OK');
        const taskId = (sent.result as { task: { id: string } }).task.id;
        expect((await driver.call('GetTask', { id: taskId })).code).toBe('OK');
        expect((await driver.call('ListTasks', {})).code).toBe('OK');
        expect(seen.map((s) => [s.operation, s.binding])).toEqual([
          ['SendMessage', binding],
          ['GetTask', binding],
          ['ListTasks', binding],
        ]);
        expect(seen[1]?.params).toMatchObject({ id: taskId });
      });

      it('refuses with an A2AError: its code, message and (on HTTP) status and headers', async () => {
        const refused = await driver.call('SendMessage', send('forbidden'));
        expect(refused.code).toBe('PERMISSION_DENIED');
        expect(refused.message).toContain('this word is not allowed');
        if (binding === 'GRPC') expect(refused.grpcStatus).toBe(7);
        else {
          expect(refused.httpStatus).toBe(403);
          expect(refused.headers?.get('x-policy')).toBe('words');
        }
      });

      it('passes replaced params on to the server', async () => {
        const sent = await driver.call('SendMessage', {
          ...send('shout'),
          configuration: { historyLength: 5 },
        });
        const task = (sent.result as { task: { history?: { parts: { text?: string }[] }[] } }).task;
        expect(task.history?.[0]?.parts[0]?.text).toBe('SHOUT');
      });

      it('wraps a stream: its events pass through the middleware', async () => {
        const before = streamedThrough;
        const first = await driver.call('SendStreamingMessage', send('stream me'));
        expect(first.code).toBe('OK');
        expect(streamedThrough).toBeGreaterThan(before);
      });
    });
  }

  it('sees Last-Event-ID as a SubscribeToTask parameter (HTTP bindings)', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const driver = driverFor(binding, server);
      drivers.push(driver);
      const waiting = await driver.call('SendMessage', send('wait'));
      const taskId = (waiting.result as { task: { id: string } }).task.id;
      seen.length = 0;
      const res = await driver.call('SubscribeToTask', { id: taskId }, { 'last-event-id': '1' });
      expect(res.code, binding).toBe('OK');
      expect(seen[0]).toMatchObject({
        operation: 'SubscribeToTask',
        params: { id: taskId, lastEventId: '1' },
      });
    }
  });
});
