import { describe, expect, it } from 'vitest';
import { card, task } from '../../test/support/fixtures.js';
import {
  caught,
  jsonrpc,
  rpcId,
  rpcParams,
  rpcResult,
  start,
} from '../../test/support/agent-server.js';
import { sendJson, type WireHandler } from '../../test/support/wire-server.js';
import { A2AError } from '../core/errors.js';
import { userMessage } from '../core/parts.js';
import { A2AClient, type A2AClientOptions } from './client.js';
import { TransportError } from '../transport/errors.js';
import type { ClientCall, Interceptor } from './interceptors.js';

const noSleep = { sleep: async () => undefined } satisfies A2AClientOptions;

describe('A2AClient retries', () => {
  it('retries a read on 503 with jittered backoff, then succeeds', async () => {
    const s = await start((req, res, n) => {
      if (n <= 2) {
        res.writeHead(503);
        return res.end();
      }
      return rpcResult(task())(req, res, n);
    });
    const delays: number[] = [];
    const client = await A2AClient.connect(card([jsonrpc(s)]), {
      retries: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 150 },
      random: () => 0.999,
      sleep: async (ms) => void delays.push(ms),
    });
    expect((await client.getTask({ id: 't1' })).id).toBe('t1');
    expect(s.requests).toHaveLength(3);
    expect(delays).toEqual([99, 149]); // caps 100 then min(150, 200)
  });

  it('honours Retry-After on 429', async () => {
    const s = await start((req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '2' });
        return res.end();
      }
      return rpcResult({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 })(req, res, n);
    });
    const delays: number[] = [];
    const client = await A2AClient.connect(card([jsonrpc(s)]), {
      random: () => 0,
      sleep: async (ms) => void delays.push(ms),
    });
    await client.listTasks();
    expect(delays).toEqual([2000]);
  });

  it('retries SendMessage after a dropped connection with the same messageId', async () => {
    const s = await start((req, res, n) => {
      if (n === 1) return res.socket?.destroy();
      return rpcResult({ task: task() })(req, res, n);
    });
    const client = await A2AClient.connect(card([jsonrpc(s)]), noSleep);
    await client.sendMessage({ message: userMessage('hello') });
    const ids = s.requests.map((r) => (rpcParams(r).message as { messageId: string }).messageId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });

  it.each<[string, WireHandler, (c: A2AClient) => Promise<unknown>]>([
    [
      'CancelTask on 503 (not a safe call)',
      (_req, res) => {
        res.writeHead(503);
        res.end();
      },
      (c) => c.cancelTask({ id: 't1' }),
    ],
    [
      'a spec error',
      (req, res) =>
        sendJson(res, 200, {
          jsonrpc: '2.0',
          id: rpcId(req),
          error: { code: -32001, message: 'no' },
        }),
      (c) => c.getTask({ id: 't1' }),
    ],
  ])('does not retry %s', async (_name, handler, call) => {
    const s = await start(handler);
    const client = await A2AClient.connect(card([jsonrpc(s)]), noSleep);
    await caught(call(client));
    expect(s.requests).toHaveLength(1);
  });

  it('times out a unary call', async () => {
    const s = await start(() => undefined);
    const client = await A2AClient.connect(card([jsonrpc(s)]), {
      timeoutMs: 80,
      retries: { maxAttempts: 1 },
    });
    const error = await caught(client.getTask({ id: 't1' }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('A2AClient interceptors', () => {
  it('runs before on every attempt and after once with the result', async () => {
    const s = await start((req, res, n) => {
      if (n === 1) {
        res.writeHead(502);
        return res.end();
      }
      return rpcResult(task())(req, res, n);
    });
    const seen: Pick<ClientCall, 'operation' | 'attempt'>[] = [];
    const outcomes: unknown[] = [];
    const tracer: Interceptor = {
      before(call) {
        seen.push({ operation: call.operation, attempt: call.attempt });
        call.headers['X-Trace'] = `attempt-${call.attempt}`;
      },
      after(outcome) {
        outcomes.push('result' in outcome ? outcome.result : outcome.error);
      },
    };
    const client = await A2AClient.connect(card([jsonrpc(s)]), {
      interceptors: [tracer],
      ...noSleep,
    });
    await client.getTask({ id: 't1' });
    expect(seen).toEqual([
      { operation: 'GetTask', attempt: 1 },
      { operation: 'GetTask', attempt: 2 },
    ]);
    expect(s.requests.map((r) => r.headers['x-trace'])).toEqual(['attempt-1', 'attempt-2']);
    expect(outcomes).toEqual([task()]);
  });

  it('passes errors to after', async () => {
    const s = await start((req, res) =>
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id: rpcId(req),
        error: { code: -32001, message: 'no' },
      }),
    );
    const outcomes: unknown[] = [];
    const client = await A2AClient.connect(card([jsonrpc(s)]), {
      interceptors: [{ after: (o) => void outcomes.push('error' in o ? o.error : o.result) }],
    });
    await caught(client.getTask({ id: 't1' }));
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toBeInstanceOf(A2AError);
  });
});
