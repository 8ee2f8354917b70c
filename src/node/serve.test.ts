/**
 * End to end over real HTTP on 127.0.0.1: serve() with a small echo agent, the same behaviours
 * checked through both bindings (the conformance suite covers the full matrix).
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, pathFields, routeFor } from '../bindings/rest/wire.js';
import type { OperationName } from '../core/operations.js';
import { textOf, userMessage } from '../core/parts.js';
import type { AgentCard, StreamResponse, Task } from '../core/schemas/index.js';
import { parseSse, type SseEvent } from '../transport/sse-parse.js';
import { createAgent } from '../server/agent.js';
import { serve, type ServeResult } from './serve.js';

/** Gates the "slow" messages wait on, by message text. */
const gates = new Map<string, () => void>();

const agent = createAgent({
  card: {
    name: 'Echo',
    description: 'Repeats you',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo text', tags: ['demo'] }],
  },
  async *execute({ message, task, signal }) {
    const text = textOf(message);
    if (text === 'hello') {
      yield task.reply('hi there');
      return;
    }
    yield task.working();
    if (text.startsWith('slow')) {
      await new Promise<void>((resolve) => {
        gates.set(text, resolve);
        signal.addEventListener('abort', () => resolve());
      });
      if (signal.aborted) return;
    }
    yield task.artifact(`You said: ${text}`);
    yield task.completed();
  },
});

let running: ServeResult;
beforeAll(async () => {
  running = await serve(agent, { logger: null, keepAliveMs: 1000 });
});
afterAll(async () => {
  await running.close();
});

const V = { 'A2A-Version': '1.0' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (await check()) return;
  throw new Error('condition not met in time');
}

/** An answer normalized across bindings: the result, or the A2A reason of the error. */
interface Outcome {
  result?: unknown;
  reason?: string | undefined;
  status: number;
}

interface Binding {
  name: string;
  request(
    op: OperationName,
    params: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<Response>;
  call(
    op: OperationName,
    params: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<Outcome>;
  /** The StreamResponse of one SSE data field. */
  event(data: string): StreamResponse;
}

function reasonOf(details: unknown): string | undefined {
  const info = (details as { reason?: string }[] | undefined)?.find((d) => d.reason !== undefined);
  return info?.reason;
}

const jsonrpc: Binding = {
  name: 'JSON-RPC',
  request: (op, params, headers = V) =>
    fetch(`${running.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: op, params }),
    }),
  async call(op, params, headers) {
    const res = await this.request(op, params, headers);
    const body = (await res.json()) as {
      id: unknown;
      result?: unknown;
      error?: { data?: unknown };
    };
    expect(body.id).toBe(42);
    return {
      status: res.status,
      result: body.result,
      reason: body.error && (reasonOf(body.error.data) ?? 'NO_REASON'),
    };
  },
  event(data) {
    const response = JSON.parse(data) as { id: unknown; result: StreamResponse };
    expect(response.id).toBe(42);
    return response.result;
  },
};

const rest: Binding = {
  name: 'HTTP+JSON',
  request(op, params, headers = V) {
    const route = routeFor(op);
    const rest = { ...params };
    for (const field of pathFields(route)) delete rest[field];
    let url = `${running.url}/a2a/rest${buildPath(route, params)}`;
    const init: RequestInit = { method: route.method, headers: { ...headers } };
    if (route.input === 'body') {
      init.body = JSON.stringify(rest);
      init.headers = { ...headers, 'content-type': 'application/a2a+json' };
    } else if (route.input === 'query') {
      const query = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]));
      if (query.size > 0) url += `?${query.toString()}`;
    }
    return fetch(url, init);
  },
  async call(op, params, headers) {
    const res = await this.request(op, params, headers);
    const body = (await res.json()) as { error?: { details?: unknown } };
    if (res.ok) return { status: res.status, result: body };
    return { status: res.status, reason: reasonOf(body.error?.details) ?? 'NO_REASON' };
  },
  event: (data) => JSON.parse(data) as StreamResponse,
};

async function events(
  binding: Binding,
  res: Response,
  limit = Infinity,
): Promise<(SseEvent & { sr: StreamResponse })[]> {
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const out: (SseEvent & { sr: StreamResponse })[] = [];
  for await (const e of parseSse(res.body as ReadableStream<Uint8Array>)) {
    out.push({ ...e, sr: binding.event(e.data) });
    if (out.length >= limit) break;
  }
  return out;
}

function kindOf(event: StreamResponse): string {
  if ('task' in event) return 'task';
  if ('message' in event) return 'message';
  if ('statusUpdate' in event) return `status:${event.statusUpdate.status.state}`;
  return 'artifact';
}

describe('serve()', () => {
  it('[1][2][7] serves the card at the well-known path with both interfaces at the listening URL', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${running.url}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"/);
    const card = (await res.json()) as AgentCard;
    expect(card.name).toBe('Echo');
    expect(card.supportedInterfaces).toEqual([
      { url: `${running.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${running.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    const again = await fetch(`${running.url}/.well-known/agent-card.json`, {
      headers: { 'if-none-match': res.headers.get('etag') as string },
    });
    expect(again.status).toBe(304);
  });

  it('uses publicUrl for the card when given, and close() ends open streams at once', async () => {
    const other = await serve(agent, { logger: null, publicUrl: 'https://agent.example.com/' });
    const local = `http://127.0.0.1:${(other.httpServer.address() as AddressInfo).port}`;
    try {
      expect(other.url).toBe('https://agent.example.com');
      const card = (await (
        await fetch(`${local}/.well-known/agent-card.json`)
      ).json()) as AgentCard;
      expect(card.supportedInterfaces[0]?.url).toBe('https://agent.example.com/a2a/jsonrpc');
      const res = await fetch(`${local}/a2a/rest/message:stream`, {
        method: 'POST',
        headers: { ...V, 'content-type': 'application/json' },
        body: JSON.stringify({ message: userMessage('slow close') }),
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      expect((await reader.read()).done).toBe(false);
      const started = Date.now();
      await other.close();
      // The open stream ends (or breaks) promptly instead of waiting for the task.
      for (;;) {
        const next = await reader.read().catch(() => ({ done: true }));
        if (next.done) break;
      }
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      gates.get('slow close')?.();
      await other.close();
    }
  });
});

describe.each([jsonrpc, rest])('$name over HTTP', (binding) => {
  const unique = (text: string) => `${text} ${binding.name} ${Math.random()}`;

  it('[60][63] SendMessage blocks until the task completes and returns it with its artifact', async () => {
    const out = await binding.call('SendMessage', { message: userMessage('hi') });
    expect(out.status).toBe(200);
    const task = (out.result as { task: Task }).task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(task.artifacts?.[0])).toBe('You said: hi');
    const got = await binding.call('GetTask', { id: task.id, historyLength: 0 });
    expect((got.result as Task).status.state).toBe('TASK_STATE_COMPLETED');
    expect((got.result as Task).history).toBeUndefined();
  });

  it('[60] SendMessage answers a message-only reply with {message}', async () => {
    const out = await binding.call('SendMessage', { message: userMessage('hello') });
    expect(textOf((out.result as { message: { parts: [] } }).message)).toBe('hi there');
  });

  it('[84][101] maps TASK_NOT_FOUND and TASK_NOT_CANCELABLE', async () => {
    expect((await binding.call('GetTask', { id: 'no-such-task' })).reason).toBe('TASK_NOT_FOUND');
    const done = await binding.call('SendMessage', { message: userMessage('x') });
    const id = (done.result as { task: Task }).task.id;
    expect((await binding.call('CancelTask', { id })).reason).toBe('TASK_NOT_CANCELABLE');
  });

  it('[93][97] ListTasks returns the caller’s tasks with all page fields', async () => {
    const sent = await binding.call('SendMessage', { message: userMessage('listed') });
    const contextId = (sent.result as { task: Task }).task.contextId as string;
    const out = await binding.call('ListTasks', { contextId, pageSize: 10 });
    expect(out.result).toMatchObject({ nextPageToken: '', pageSize: 10, totalSize: 1 });
    expect((out.result as { tasks: Task[] }).tasks[0]?.artifacts).toBeUndefined();
  });

  it('[123][125] refuses push configs and the extended card per capabilities', async () => {
    const push = await binding.call('CreateTaskPushNotificationConfig', {
      taskId: 't',
      url: 'https://hook.test/',
    });
    expect(push.reason).toBe('PUSH_NOTIFICATION_NOT_SUPPORTED');
    expect((await binding.call('GetExtendedAgentCard', {})).reason).toBe('UNSUPPORTED_OPERATION');
  });

  it('[32][33] refuses a request without A2A-Version', async () => {
    const out = await binding.call('GetTask', { id: 'x' }, {});
    expect(out.reason).toBe('VERSION_NOT_SUPPORTED');
  });

  it('[104][106][107][109] streams the task, then its updates in order, then closes', async () => {
    const res = await binding.request('SendStreamingMessage', {
      message: userMessage('stream me'),
    });
    const got = await events(binding, res);
    expect(got.map((e) => kindOf(e.sr))).toEqual([
      'task',
      'status:TASK_STATE_WORKING',
      'artifact',
      'status:TASK_STATE_COMPLETED',
    ]);
    const ids = got.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('[105] streams a message-only reply as exactly one message event', async () => {
    const got = await events(
      binding,
      await binding.request('SendStreamingMessage', { message: userMessage('hello') }),
    );
    expect(got.map((e) => kindOf(e.sr))).toEqual(['message']);
  });

  it('[115] refuses SubscribeToTask on a finished task with a plain error response', async () => {
    const done = await binding.call('SendMessage', { message: userMessage('fin') });
    const id = (done.result as { task: Task }).task.id;
    const out = await binding.call('SubscribeToTask', { id });
    expect(out.reason).toBe('UNSUPPORTED_OPERATION');
  });

  it('[112][113] a dropped stream does not cancel the task; a subscriber resumes after Last-Event-ID', async () => {
    const text = unique('slow');
    const res = await binding.request('SendStreamingMessage', { message: userMessage(text) });
    const first = await events(binding, res, 2); // task + working, then disconnect
    expect(first.map((e) => kindOf(e.sr))).toEqual(['task', 'status:TASK_STATE_WORKING']);
    const id = (first[0]?.sr as { task: Task }).task.id;

    const live = await events(binding, await binding.request('SubscribeToTask', { id }), 1);
    expect(kindOf(live[0]?.sr as StreamResponse)).toBe('task'); // [113] snapshot first

    await until(async () => gates.has(text));
    gates.get(text)?.();
    await until(async () => {
      const got = await binding.call('GetTask', { id });
      return (got.result as Task).status.state === 'TASK_STATE_COMPLETED';
    });
    const replay = await binding.request(
      'SubscribeToTask',
      { id },
      { ...V, 'Last-Event-ID': first[1]?.id as string },
    );
    expect((await events(binding, replay)).map((e) => kindOf(e.sr))).toEqual([
      'artifact',
      'status:TASK_STATE_COMPLETED',
    ]);
  });

  it('[100] cancels a running task', async () => {
    const text = unique('slow cancel');
    const started = await binding.call('SendMessage', {
      message: userMessage(text),
      configuration: { returnImmediately: true },
    });
    const id = (started.result as { task: Task }).task.id;
    const out = await binding.call('CancelTask', { id });
    expect((out.result as Task).status.state).toBe('TASK_STATE_CANCELED');
  });
});

describe('serve() request limits', () => {
  it('[205] refuses an oversized upload announced with Expect: 100-continue before it is sent', async () => {
    const small = await serve(agent, { logger: null, maxBodyBytes: 100 });
    try {
      const port = (small.httpServer.address() as AddressInfo).port;
      let invited = false;
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request({
          port,
          method: 'POST',
          path: '/a2a/rest/message:send',
          headers: { 'content-length': '5000', expect: '100-continue', 'a2a-version': '1.0' },
        });
        req.on('continue', () => (invited = true));
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(status).toBe(413);
      expect(invited).toBe(false);
    } finally {
      await small.close();
    }
  });

  it('rejects when the port is taken', async () => {
    const port = Number(new URL(running.url).port);
    await expect(serve(agent, { logger: null, port })).rejects.toThrow(/EADDRINUSE/);
  });
});
