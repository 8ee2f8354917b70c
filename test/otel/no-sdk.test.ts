/**
 * With no OpenTelemetry SDK registered, a2a-kit/otel records nothing and adds nothing: no
 * `traceparent` on the wire, no trace context on bus entries or push deliveries, and the
 * instrumented pieces hand the calls through (the benchmark in bench/ measures the cost).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { AgentCardResolver } from '../../src/client/card-resolver.js';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import { userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { a2aTelemetry } from '../../src/otel/index.js';
import { createAgent } from '../../src/server/agent.js';
import { MemoryEventBus } from '../../src/stores/memory/event-bus.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import type { LogEntry } from '../../src/stores/types.js';

const otel = a2aTelemetry(); // the global providers: nothing registered in this file
const seen: (string | null)[] = [];
const entries: LogEntry[] = [];
let running: ServeResult;

beforeAll(async () => {
  const agent = createAgent({
    card: { name: 'Quiet', description: 'answers', version: '1.0.0', skills: [] },
    async *execute({ task }) {
      yield task.completed('ok');
    },
  });
  const spy: OperationMiddleware = (_op, _params, call, next) => {
    seen.push(call.headers?.get('traceparent') ?? null);
    return next();
  };
  const bus = new MemoryEventBus();
  const store = otel.store(new MemoryTaskStore());
  running = await serve(otel.agent(agent), {
    middleware: [otel.middleware, spy],
    store,
    bus: otel.bus(bus),
    logger: null,
  });
  const original = bus.publish.bind(bus);
  bus.publish = (tenant, taskId, entry) => {
    entries.push(entry);
    original(tenant, taskId, entry);
  };
});

afterAll(() => running.close());

describe('a2a-kit/otel without an SDK', () => {
  it('sends no trace context and puts none on bus entries', async () => {
    const client = await A2AClient.connect(running.url, {
      interceptors: [otel.interceptor],
      cardResolver: new AgentCardResolver(),
    });
    const reply = await client.sendMessage({ message: userMessage('hi') });
    client.close();
    expect('task' in reply && reply.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(seen).toEqual([null]);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.trace === undefined && e.publishedAt === undefined)).toBe(true);
  });
});
