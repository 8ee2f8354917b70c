/**
 * An agent that calls another agent with an instrumented A2AClient from its `execute` continues
 * the same trace with no code of its own: the downstream server span is a grandchild of the
 * upstream agent's execution span (spec §3.1.1 SendMessage on both hops).
 */
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { AgentCardResolver } from '../../src/client/card-resolver.js';
import { textOf, textPart, userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { ATTR, SPAN, a2aTelemetry } from '../../src/otel/index.js';
import { createAgent } from '../../src/server/agent.js';
import { parentOf, testSdk } from './sdk.js';

const sdk = testSdk();
const otel = a2aTelemetry({
  tracerProvider: sdk.tracerProvider,
  meterProvider: sdk.meterProvider,
  propagator: sdk.propagator,
});
let downstream: ServeResult;
let upstream: ServeResult;

beforeAll(async () => {
  const shouter = createAgent({
    card: { name: 'Shouter', description: 'upper-cases', version: '1.0.0', skills: [] },
    async *execute({ message, task }) {
      yield task.artifact([textPart(textOf(message).toUpperCase())]);
      yield task.completed();
    },
  });
  downstream = await serve(otel.agent(shouter), { middleware: [otel.middleware], logger: null });
  const relay = createAgent({
    card: { name: 'Relay', description: 'asks the shouter', version: '1.0.0', skills: [] },
    async *execute({ message, task }) {
      const client = await A2AClient.connect(downstream.url, {
        interceptors: [otel.interceptor],
        cardResolver: new AgentCardResolver(),
      });
      const reply = await client.sendMessage({ message: userMessage(textOf(message)) });
      client.close();
      const text = 'task' in reply ? textOf(reply.task.artifacts?.[0] ?? { parts: [] }) : '';
      yield task.artifact([textPart(text)]);
      yield task.completed();
    },
  });
  upstream = await serve(otel.agent(relay), { middleware: [otel.middleware], logger: null });
});

afterAll(async () => {
  await upstream.close();
  await downstream.close();
  await sdk.shutdown();
});

describe('agent to agent', () => {
  it('continues the trace of the calling agent into the agent it calls', async () => {
    const client = await A2AClient.connect(upstream.url, {
      interceptors: [otel.interceptor],
      cardResolver: new AgentCardResolver(),
    });
    const reply = await client.sendMessage({ message: userMessage('hello') });
    client.close();
    expect('task' in reply && textOf(reply.task.artifacts?.[0] ?? { parts: [] })).toBe('HELLO');
    const spans = sdk.spans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const servers = spans.filter((s) => s.name === 'SendMessage' && s.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(2);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    // downstream server ← relay's client span ← relay's execution ← upstream server.
    const inner = servers.find(
      (s) =>
        byId.get(parentOf(s))?.attributes[ATTR.serverPort] === Number(new URL(downstream.url).port),
    );
    const call = byId.get(parentOf(inner as never));
    expect(call?.kind).toBe(SpanKind.CLIENT);
    const execution = byId.get(parentOf(call as never));
    expect(execution?.name).toBe(SPAN.execute);
    expect(execution?.attributes[ATTR.agentName]).toBe('Relay');
    expect(servers).toContain(byId.get(parentOf(execution as never)));
  });
});
