/**
 * a2a-kit/otel with the real OpenTelemetry SDK (in-memory span exporter, sdk-metrics): the span
 * tree of a streamed multi-turn task (spec §3.1.2 SendStreamingMessage, §3.4.3 multi-turn via
 * INPUT_REQUIRED) across client → server → agent, store appends (events on the server span) →
 * push receiver (spec §4.3.3), on
 * JSON-RPC, HTTP+JSON and gRPC; W3C trace context and baggage carried on each binding; error
 * codes on spans; attribute names checked against the draft convention (names.ts); metrics.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, context, propagation, type Span, type Tracer } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { AgentCardResolver } from '../../src/client/card-resolver.js';
import { textOf, textPart, userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { ATTR, EVENT, METRIC, SPAN, a2aTelemetry } from '../../src/otel/index.js';
import { createAgent } from '../../src/server/agent.js';
import { MemoryEventBus } from '../../src/stores/memory/event-bus.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { parentOf, renderTree, testSdk } from './sdk.js';

/** Every attribute a2a-kit may set: the draft convention's names plus its own (names.ts). */
const KNOWN_ATTRIBUTES = new Set<string>(Object.values(ATTR));
/** The draft convention's names (PR #195), which the client and server spans must use. */
const DRAFT = [
  'a2a.method.name',
  'a2a.protocol.version',
  'a2a.protocol.binding',
  'a2a.task.id',
  'a2a.task.state',
  'gen_ai.conversation.id',
];

const sdk = testSdk();
const otel = a2aTelemetry({
  tracerProvider: sdk.tracerProvider,
  meterProvider: sdk.meterProvider,
  propagator: sdk.propagator,
});
const tracer: Tracer = sdk.tracerProvider.getTracer('test');

const booking = createAgent({
  card: { name: 'Booker', description: 'books a table', version: '1.0.0', skills: [] },
  async *execute({ message, task, current }) {
    if (current === undefined) {
      yield task.working('looking');
      yield task.inputRequired('which day?');
      return;
    }
    yield task.artifact([textPart(`booked for ${textOf(message)}`)]);
    yield task.completed('done');
  },
});

interface Hook {
  headers: IncomingHttpHeaders;
  body: string;
}
const hooks: Hook[] = [];
let receiver: Server;
let hookUrl = '';
let running: ServeResult;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hooks.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  running = await serve(otel.agent(booking), {
    grpc: true,
    store: otel.store(new MemoryTaskStore()),
    bus: otel.bus(new MemoryEventBus()),
    middleware: [otel.middleware],
    push: { allowHosts: ['127.0.0.1'], logger: null, ...otel.push },
    logger: null,
  });
});

afterAll(async () => {
  await running.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await sdk.shutdown();
});

async function waitFor(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!test()) throw new Error(`timed out waiting for ${what}`);
}

const one = <T>(list: readonly T[], what: string): T => {
  expect(list, what).toHaveLength(1);
  return list[0] as T;
};

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'])('a2a-kit/otel over %s', (binding) => {
  it('traces a streamed multi-turn task from the client through the server and agent to the push receiver, in one trace', async () => {
    sdk.exporter.reset();
    hooks.length = 0;
    const client = await A2AClient.connect(running.url, {
      preferredBinding: binding,
      interceptors: [otel.interceptor],
      cardResolver: new AgentCardResolver(),
    });
    const baggage = propagation.createBaggage({ 'user.tier': { value: 'gold' } });
    let taskId = '';
    let contextId = '';
    const conversation = async (root: Span): Promise<string> => {
      for await (const event of client.sendStreamingMessage({
        message: userMessage('book a table'),
        configuration: { taskPushNotificationConfig: { url: hookUrl, token: 'hook-token' } },
      })) {
        if ('task' in event) {
          taskId = event.task.id;
          contextId = event.task.contextId ?? '';
        }
      }
      for await (const _ of client.sendStreamingMessage({
        message: { ...userMessage('friday'), taskId, contextId },
      })) {
        // consumed to the end
      }
      root.end();
      return root.spanContext().traceId;
    };
    const traceId = await tracer.startActiveSpan('conversation', (root) =>
      context.with(propagation.setBaggage(context.active(), baggage), () => conversation(root)),
    );
    // WORKING, INPUT_REQUIRED; the answer's WORKING (recorded with it), the artifact, COMPLETED.
    await waitFor(() => hooks.length === 5, 'five push deliveries');
    await waitFor(
      () => sdk.spans().filter((s) => s.name === SPAN.push).length === 5,
      'five push spans',
    );
    client.close();

    const spans = sdk.spans();
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([traceId]));
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const rootSpan = one(
      spans.filter((s) => s.name === 'conversation'),
      'root',
    );
    const clients = spans.filter(
      (s) => s.name === 'SendStreamingMessage' && s.kind === SpanKind.CLIENT,
    );
    const servers = spans.filter(
      (s) => s.name === 'SendStreamingMessage' && s.kind === SpanKind.SERVER,
    );
    const executions = spans.filter((s) => s.name === SPAN.execute);
    expect(clients).toHaveLength(2);
    expect(servers).toHaveLength(2);
    expect(executions).toHaveLength(2);
    for (const [i, c] of clients.entries()) {
      expect(parentOf(c)).toBe(rootSpan.spanContext().spanId);
      const server = servers.find((s) => parentOf(s) === c.spanContext().spanId);
      expect(server, `server span of turn ${i + 1} is a child of its client span`).toBeDefined();
      const execute = executions.find((e) => parentOf(e) === server?.spanContext().spanId);
      expect(
        execute,
        `agent execution of turn ${i + 1} is a child of its server span`,
      ).toBeDefined();
      for (const s of [c, server]) {
        for (const name of DRAFT)
          expect(s?.attributes[name], `${name} on ${s?.name}`).toBeDefined();
        expect(s?.attributes[ATTR.binding]).toBe(binding);
        expect(s?.attributes[ATTR.taskId]).toBe(taskId);
        expect(s?.attributes[ATTR.conversationId]).toBe(contextId);
        expect(s?.attributes[ATTR.protocolVersion]).toBe('1.0');
      }
    }
    expect(servers.map((s) => s.attributes[ATTR.taskState]).sort()).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    if (binding === 'JSONRPC') {
      // What docs/observability.md shows, regenerated by this run.
      process.stdout.write(`\n${renderTree(spans, [ATTR.taskState, ATTR.binding])}\n`);
    }
    // The server writes the agent's events while its span is open: each store append is an
    // event on the server span of its turn (no span of its own), and each push delivery is a
    // child of the server span whose append enqueued it.
    expect(spans.filter((s) => s.name === SPAN.append)).toEqual([]);
    for (const server of servers) {
      const appended = server.events.filter((e) => e.name === EVENT.append);
      expect(appended.length, 'append events of a turn').toBeGreaterThanOrEqual(1);
      for (const e of appended) {
        expect(e.attributes?.[ATTR.appendEvents]).toBeGreaterThanOrEqual(1);
        const unknown = Object.keys(e.attributes ?? {}).filter((k) => !KNOWN_ATTRIBUTES.has(k));
        expect(unknown, 'attributes of an append event').toEqual([]);
      }
    }
    const settled = servers.flatMap((s) =>
      s.events.filter((e) => e.name === EVENT.append).map((e) => e.attributes?.[ATTR.taskState]),
    );
    expect(settled.filter(Boolean).sort()).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    const pushes = spans.filter((s) => s.name === SPAN.push);
    for (const p of pushes) {
      expect(servers).toContain(byId.get(parentOf(p)));
      expect(p.attributes[ATTR.httpStatus]).toBe(200);
    }
    // Each webhook request carries the trace context of its delivery span (and the baggage).
    const pushIds = new Set(pushes.map((p) => p.spanContext().spanId));
    for (const hook of hooks) {
      const [, hookTrace, hookSpan] = String(hook.headers.traceparent).split('-');
      expect(hookTrace).toBe(traceId);
      expect(pushIds.has(hookSpan ?? '')).toBe(true);
      expect(hook.headers.baggage).toBe('user.tier=gold');
      expect(hook.headers['x-a2a-notification-token']).toBe('hook-token');
    }
    for (const s of spans.filter((x) => x.name !== 'conversation')) {
      const unknown = Object.keys(s.attributes).filter((k) => !KNOWN_ATTRIBUTES.has(k));
      expect(unknown, `attributes of ${s.name}`).toEqual([]);
    }
  });

  it('records an A2A error code on the client and server spans of a failed call', async () => {
    sdk.exporter.reset();
    const client = await A2AClient.connect(running.url, {
      preferredBinding: binding,
      interceptors: [otel.interceptor],
      cardResolver: new AgentCardResolver(),
    });
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toMatchObject({
      code: 'TASK_NOT_FOUND',
    });
    const spans = sdk.spans().filter((s) => s.name === 'GetTask');
    expect(spans.map((s) => s.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT]);
    for (const s of spans) {
      expect(s.attributes[ATTR.errorType]).toBe('TASK_NOT_FOUND');
      expect(s.status.code).toBe(2);
      expect(s.attributes[ATTR.taskId]).toBe('no-such-task');
    }
    const [server, clientSpan] = [
      spans.find((s) => s.kind === SpanKind.SERVER),
      spans.find((s) => s.kind === SpanKind.CLIENT),
    ];
    expect(parentOf(server as never)).toBe(clientSpan?.spanContext().spanId);
  });
});

describe('a2a-kit/otel metrics', () => {
  it('counts requests by operation, binding and outcome, with durations, task outcomes, pushes and appends', async () => {
    const requests = await sdk.points(METRIC.serverRequests);
    const count = (method: string, b: string, outcome: string) =>
      requests
        .filter(
          (p) =>
            p.attributes[ATTR.method] === method &&
            p.attributes[ATTR.binding] === b &&
            p.attributes[ATTR.outcome] === outcome,
        )
        .reduce((n, p) => n + (p.value as number), 0);
    for (const b of ['JSONRPC', 'HTTP+JSON', 'GRPC']) {
      expect(count('SendStreamingMessage', b, 'OK')).toBe(2);
      expect(count('GetTask', b, 'TASK_NOT_FOUND')).toBe(1);
    }
    const durations = await sdk.points(METRIC.serverDuration);
    expect(durations.length).toBeGreaterThan(0);
    expect(durations.every((p) => (p.value as { count: number }).count > 0)).toBe(true);
    const client = await sdk.points(METRIC.clientRequests);
    expect(client.reduce((n, p) => n + (p.value as number), 0)).toBe(9);
    const outcomes = await sdk.points(METRIC.taskOutcomes);
    const byState = Object.fromEntries(
      outcomes.map((p) => [String(p.attributes[ATTR.taskState]), p.value]),
    );
    expect(byState).toEqual({ TASK_STATE_INPUT_REQUIRED: 3, TASK_STATE_COMPLETED: 3 });
    const pushes = await sdk.points(METRIC.pushDeliveries);
    expect(pushes.map((p) => [p.attributes[ATTR.pushOutcome], p.value])).toEqual([
      ['delivered', 15],
    ]);
    const appends = await sdk.points(METRIC.appendDuration);
    expect((appends[0]?.value as { count: number }).count).toBeGreaterThanOrEqual(9);
    const streams = await sdk.points(METRIC.activeStreams);
    expect(streams.reduce((n, p) => n + (p.value as number), 0)).toBe(0);
    const tasks = await sdk.points(METRIC.activeTasks);
    expect(tasks.reduce((n, p) => n + (p.value as number), 0)).toBe(0);
  });
});
