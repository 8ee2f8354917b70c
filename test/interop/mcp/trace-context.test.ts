/**
 * Trace context crosses the bridge both ways (W3C Trace Context; MCP `_meta.traceparent`):
 * an MCP tool call's `_meta.traceparent` becomes the `traceparent` header of the A2A calls it
 * makes, and an A2A request's `traceparent` header becomes `_meta.traceparent` of the MCP tool
 * call (through withTraceContext and the active context). With @opentelemetry/api's propagation
 * API, the W3C propagator of @opentelemetry/core and the AsyncLocalStorage context manager.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../../src/bindings/a2a-handler.js';
import { A2AClient } from '../../../src/client/index.js';
import { textOf, userMessage } from '../../../src/core/parts.js';
import { startDemo, type DemoServer } from '../../../src/demo/main.js';
import {
  connectMcpServer,
  createA2AMcpBridge,
  mcpAgent,
  serveMcpHttp,
  withTraceContext,
  type McpAgent,
} from '../../../src/mcp/index.js';
import type { HttpHandler } from '../../../src/http/types.js';
import { serveHandler } from '../../../src/node/serve-handler.js';
import { A2AServer } from '../../../src/server/index.js';
import type { Task } from '../../../src/core/schemas/index.js';

const FIXTURE = new URL('../../fixtures/mcp/tool-server.mjs', import.meta.url).pathname;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  propagation.disable();
  context.disable();
});

describe('MCP _meta.traceparent → A2A traceparent header', () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await startDemo({ port: 0, grpc: false, logger: null });
  });
  afterAll(() => demo.close());

  it('the A2A calls of a tool call carry the trace of its _meta', async () => {
    const seen: (string | null)[] = [];
    const recording: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') seen.push(request.headers.get('traceparent'));
      return fetch(request);
    };
    const a2a = await A2AClient.connect(demo.url, { fetch: recording });
    const endpoint = await serveMcpHttp(await createA2AMcpBridge({ client: a2a }), { port: 0 });
    const client = new Client({ name: 'trace-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url ?? '')));
      await client.callTool({
        name: 'a2a_kit_demo_agent_echo',
        arguments: { text: 'echo traced' },
        _meta: { traceparent: TRACEPARENT },
      });
      expect(seen.length).toBeGreaterThan(0);
      for (const header of seen) expect(header).toContain(TRACE_ID);
      seen.length = 0;
      await client.callTool({ name: 'a2a_kit_demo_agent_echo', arguments: { text: 'echo plain' } });
      expect(seen.every((header) => header === null)).toBe(true);
    } finally {
      await client.close();
      await endpoint.close();
    }
  });
});

describe('A2A traceparent header → MCP _meta.traceparent', () => {
  let agent: McpAgent;
  let server: A2AServer;
  let served: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    agent = await mcpAgent({
      client: await connectMcpServer(`${process.execPath} ${FIXTURE}`, { stderr: 'ignore' }),
    });
    server = new A2AServer({ agent, logger: null });
    // The handler needs the URL it is served on (the card's interfaces): bound once listening.
    const slot: { handler?: HttpHandler } = {};
    served = await serveHandler((req) => (slot.handler as HttpHandler)(req));
    slot.handler = withTraceContext(createA2AHandler(server, { baseUrl: served.url }));
  });
  afterAll(async () => {
    await served.close();
    await server.close();
    await agent.close();
  });

  it('the MCP tool call made for a message carries the trace of its request', async () => {
    const a2a = await A2AClient.connect(served.url);
    const reply = await a2a.sendMessage(
      { message: userMessage('trace') },
      { headers: { traceparent: TRACEPARENT } },
    );
    const task = (reply as { task: Task }).task;
    expect(textOf(task.artifacts?.[0])).toContain(TRACE_ID);
    const plain = (await a2a.sendMessage({ message: userMessage('trace') })) as { task: Task };
    expect(textOf(plain.task.artifacts?.[0])).toBe('none');
  });
});
