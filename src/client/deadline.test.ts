/**
 * A2AClient's call timeout is one deadline for the whole call, retries and the waits between them
 * included, against real slow servers on loopback (our server over every binding, and a raw HTTP
 * server that refuses once then goes silent). The error says how long it waited, how many
 * attempts it made, and that the task may still be running.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card } from '../../test/support/fixtures.js';
import { caught, jsonrpc, start } from '../../test/support/agent-server.js';
import { userMessage } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { createAgent } from '../server/agent.js';
import { TransportError } from '../transport/errors.js';
import { A2AClient } from './client.js';
import { seconds, taskIdOf } from './deadline.js';
import type { Interceptor } from './interceptors.js';

/** An agent that works until its task is canceled. */
const agent = createAgent({
  card: {
    name: 'Slow agent',
    description: 'never finishes on its own',
    version: '1.0.0',
    skills: [{ id: 's', name: 's', description: 's', tags: ['test'] }],
  },
  async *execute({ task, signal }) {
    yield task.working();
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
  },
});

let served: ServeResult;
beforeAll(async () => {
  served = await serve(agent, { logger: null, grpc: true });
});
afterAll(() => served.close());

/** Counts the attempts A2AClient makes (interceptors run before every attempt). */
function attemptCounter(): Interceptor & { count: number } {
  const counter = {
    count: 0,
    before() {
      counter.count++;
    },
  };
  return counter;
}

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'])('one deadline per call over %s', (binding) => {
  it('a blocking SendMessage to a slow agent gives up after the timeout, not after each retry', async () => {
    const attempts = attemptCounter();
    const timeoutMs = 400;
    const client = await A2AClient.connect(served.url, {
      preferredBinding: binding,
      timeoutMs,
      interceptors: [attempts],
    });
    const started = Date.now();
    const error = await caught(client.sendMessage({ message: userMessage('work') }));
    const elapsed = Date.now() - started;
    client.close();
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    // Before: every retry got the whole timeout (3 attempts, ~3.5× the timeout in all).
    expect(attempts.count).toBe(1);
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 5);
    expect(elapsed).toBeLessThan(3 * timeoutMs);
    const { message } = error as TransportError;
    expect(message).toMatch(
      /^SendMessage: no reply from \S+ within 0\.4 s \(waited [\d.]+ s, 1 attempt\)/,
    );
    expect(message).toContain('its task may still be running on the server');
  });
});

describe('one deadline per call, across retries', () => {
  it('retries a 503 within the deadline, then reports both attempts and the task id', async () => {
    const s = await start((_req, res, n) => {
      if (n === 1) {
        res.writeHead(503);
        res.end();
      }
      // Later requests get no answer at all.
    });
    const timeoutMs = 500;
    const client = await A2AClient.connect(card([jsonrpc(s)]), {
      timeoutMs,
      random: () => 0,
    });
    const started = Date.now();
    const error = await caught(client.getTask({ id: 'task-7' }));
    const elapsed = Date.now() - started;
    expect(s.requests).toHaveLength(2);
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 2, taskId: 'task-7' });
    expect((error as Error).message).toMatch(
      /^GetTask: no reply from \S+ within 0\.5 s \(waited [\d.]+ s, 2 attempts\); task task-7 may still be running on the server$/,
    );
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 5);
    expect(elapsed).toBeLessThan(3 * timeoutMs);
  });

  it('does not start a retry whose backoff would end past the deadline', async () => {
    const s = await start((_req, res) => {
      res.writeHead(503, { 'retry-after': '1' });
      res.end();
    });
    const client = await A2AClient.connect(card([jsonrpc(s)]), { timeoutMs: 300 });
    const error = await caught(client.getTask({ id: 't1' }));
    expect(s.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'BAD_STATUS', status: 503 });
  });

  it('a per-call timeoutMs overrides the client default', async () => {
    const s = await start(() => undefined);
    const client = await A2AClient.connect(card([jsonrpc(s)]), { timeoutMs: 60_000 });
    const error = await caught(client.getTask({ id: 't1' }, { timeoutMs: 200 }));
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toContain('within 0.2 s');
  });
});

describe('deadline helpers', () => {
  it('names the task a request is about', () => {
    expect(taskIdOf('GetTask', { id: 'a' })).toBe('a');
    expect(taskIdOf('CancelTask', { id: 'b' })).toBe('b');
    expect(taskIdOf('SendMessage', { message: { taskId: 'c' } })).toBe('c');
    expect(taskIdOf('SendMessage', { message: {} })).toBeUndefined();
    expect(taskIdOf('GetTaskPushNotificationConfig', { taskId: 'd', id: 'cfg' })).toBe('d');
    expect(taskIdOf('ListTasks', {})).toBeUndefined();
  });

  it('formats durations for people', () => {
    expect(seconds(1000)).toBe('1 s');
    expect(seconds(30_000)).toBe('30 s');
    expect(seconds(1500)).toBe('1.5 s');
    expect(seconds(250)).toBe('0.25 s');
  });
});
