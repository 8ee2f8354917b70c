/**
 * Trace context crosses the MCP bridge by itself when tracing is on (issue 19, item 6), with the
 * real OpenTelemetry SDK registered globally as NodeSDK does (AsyncLocalStorage context manager,
 * W3C propagator) and a2a-kit/otel on the A2A side, no `withTraceContext` wrapper:
 * - MCP → A2A: a tool call's `_meta.traceparent` becomes the active context of the bridge, so
 *   the A2A client spans (SendStreamingMessage, GetTask; kind CLIENT) are its children and the A2A server span a child
 *   of that client span: one trace from the MCP caller to the agent.
 * - A2A → MCP: an MCP-backed agent's `tools/call` carries `_meta.traceparent` of the active span,
 *   the agent's `a2a.agent.execute`, in the trace of the A2A caller.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT_CONTEXT, SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { afterAll, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { textOf, userMessage } from '../../src/core/parts.js';
import type { Task } from '../../src/core/schemas/index.js';
import {
  connectMcpServer,
  createA2AMcpBridge,
  mcpAgent,
  serveMcpHttp,
} from '../../src/mcp/index.js';
import { serve } from '../../src/node/index.js';
import { SPAN, a2aTelemetry } from '../../src/otel/index.js';
import { createAgent } from '../../src/server/agent.js';
import { parentOf, testSdk } from './sdk.js';

const FIXTURE = new URL('../fixtures/mcp/tool-server.mjs', import.meta.url).pathname;
const sdk = testSdk();
propagation.setGlobalPropagator(sdk.propagator);
trace.setGlobalTracerProvider(sdk.tracerProvider);
const otel = a2aTelemetry();
const tracer = sdk.tracerProvider.getTracer('test');
afterAll(async () => {
  propagation.disable();
  trace.disable();
  await sdk.shutdown();
});

const echo = createAgent({
  card: { name: 'Echo', description: 'echoes', version: '1.0.0', skills: [] },
  async *execute({ message, task }) {
    yield task.completed(`echo: ${textOf(message)}`);
  },
});

it('MCP → A2A: the A2A client and server spans continue the trace of _meta.traceparent', async () => {
  const running = await serve(otel.agent(echo), {
    port: 0,
    host: '127.0.0.1',
    logger: null,
    middleware: [otel.middleware],
  });
  const a2a = await A2AClient.connect(running.url, { interceptors: [otel.interceptor] });
  const endpoint = await serveMcpHttp(await createA2AMcpBridge({ client: a2a }), { port: 0 });
  const client = new Client({ name: 'trace-sdk-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url ?? '')));
    // The MCP caller's span, sent the way an instrumented MCP client sends it.
    const caller = tracer.startSpan('mcp caller', { kind: SpanKind.CLIENT });
    const { traceId, spanId } = caller.spanContext();
    const traceparent = `00-${traceId}-${spanId}-01`;
    const result = await client.callTool({
      name: 'send_message',
      arguments: { text: 'hi' },
      _meta: { traceparent },
    });
    caller.end();
    expect(JSON.stringify(result)).toContain('echo: hi');
    const spans = sdk.spans().filter((s) => s.spanContext().traceId === traceId);
    // The bridge streams the task (SendStreamingMessage) and reads it back (GetTask).
    const sent = spans.find((s) => s.name === 'SendStreamingMessage' && s.kind === SpanKind.CLIENT);
    const served = spans.find(
      (s) => s.name === 'SendStreamingMessage' && s.kind === SpanKind.SERVER,
    );
    const executed = spans.find((s) => s.name === SPAN.execute);
    expect(sent && parentOf(sent)).toBe(spanId);
    expect(served && parentOf(served)).toBe(sent?.spanContext().spanId);
    expect(executed && parentOf(executed)).toBe(served?.spanContext().spanId);
    // Every A2A call of the tool call is a child of the caller's span, each server span a
    // child of its client span.
    const clients = spans.filter((s) => s.kind === SpanKind.CLIENT && s.name !== 'mcp caller');
    expect(clients.length).toBeGreaterThanOrEqual(1);
    for (const c of clients) {
      expect(parentOf(c)).toBe(spanId);
      const server = spans.find(
        (s) => s.kind === SpanKind.SERVER && parentOf(s) === c.spanContext().spanId,
      );
      expect(server?.name).toBe(c.name);
    }
    // A call without _meta starts no span in that trace and joins none.
    const before = sdk.spans().length;
    await client.callTool({ name: 'send_message', arguments: { text: 'plain' } });
    const fresh = sdk.spans().slice(before);
    expect(fresh.some((s) => s.spanContext().traceId === traceId)).toBe(false);
  } finally {
    await client.close();
    await endpoint.close();
    await running.close();
  }
});

it('A2A → MCP: the tool call carries _meta.traceparent of the agent execution span', async () => {
  const agent = await mcpAgent({
    client: await connectMcpServer(`${process.execPath} ${FIXTURE}`, { stderr: 'ignore' }),
  });
  const running = await serve(otel.agent(agent), {
    port: 0,
    host: '127.0.0.1',
    logger: null,
    middleware: [otel.middleware],
  });
  try {
    const a2a = await A2AClient.connect(running.url, { interceptors: [otel.interceptor] });
    const root = tracer.startSpan('a2a caller');
    const { traceId } = root.spanContext();
    const reply = await context.with(trace.setSpan(ROOT_CONTEXT, root), () =>
      a2a.sendMessage({ message: userMessage('trace') }),
    );
    root.end();
    const seen = textOf((reply as { task: Task }).task.artifacts?.[0]);
    const executed = sdk
      .spans()
      .find((s) => s.name === SPAN.execute && s.spanContext().traceId === traceId);
    expect(executed).toBeDefined();
    expect(seen).toBe(`00-${traceId}-${executed?.spanContext().spanId}-01`);
  } finally {
    await running.close();
    await agent.close();
  }
});
