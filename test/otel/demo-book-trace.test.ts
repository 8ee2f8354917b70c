/**
 * The trace docs/observability.md shows is the real trace of the demo agent's `book` flow
 * (INPUT_REQUIRED, then the date: spec §3.4.3), streamed over JSON-RPC with a push config: this
 * test runs the flow with the real SDK, renders the span tree, and checks the document holds
 * exactly that rendering (regenerate with `A2A_WRITE_TRACE=1`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { AgentCardResolver } from '../../src/client/card-resolver.js';
import { userMessage } from '../../src/core/parts.js';
import { createDemoAgent } from '../../src/demo/agent.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { ATTR, SPAN, a2aTelemetry } from '../../src/otel/index.js';
import { MemoryEventBus } from '../../src/stores/memory/event-bus.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { startWebhook } from '../integration/push-helpers.js';
import { renderTree, testSdk } from './sdk.js';

const DOC = new URL('../../docs/observability.md', import.meta.url);
const BEGIN = '<!-- trace:book -->';
const END = '<!-- /trace:book -->';
const sdk = testSdk();
const otel = a2aTelemetry({
  tracerProvider: sdk.tracerProvider,
  meterProvider: sdk.meterProvider,
  propagator: sdk.propagator,
});
let running: ServeResult;
let receiver: Awaited<ReturnType<typeof startWebhook>>;
let hookUrl = '';

beforeAll(async () => {
  receiver = await startWebhook();
  hookUrl = `${receiver.url}/hook`;
  running = await serve(otel.agent(createDemoAgent()), {
    store: otel.store(new MemoryTaskStore()),
    bus: otel.bus(new MemoryEventBus()),
    middleware: [otel.middleware],
    push: { allowHosts: ['127.0.0.1'], logger: null, ...otel.push },
    logger: null,
  });
});

afterAll(async () => {
  await running.close();
  await receiver.close();
  await sdk.shutdown();
});

describe('docs/observability.md', () => {
  it('shows the span tree of a real run of the demo book flow', async () => {
    const client = await A2AClient.connect(running.url, {
      preferredBinding: 'JSONRPC',
      interceptors: [otel.interceptor],
      cardResolver: new AgentCardResolver(),
    });
    let taskId = '';
    let contextId = '';
    for await (const event of client.sendStreamingMessage({
      message: userMessage('book'),
      configuration: { taskPushNotificationConfig: { url: hookUrl } },
    })) {
      if ('task' in event) [taskId, contextId] = [event.task.id, event.task.contextId ?? ''];
    }
    for await (const _ of client.sendStreamingMessage({
      message: { ...userMessage('2026-12-24'), taskId, contextId },
    })) {
      // read to the end
    }
    client.close();
    const pushes = () => sdk.spans().filter((s) => s.name === SPAN.push).length;
    // WORKING, INPUT_REQUIRED; the answer (SUBMITTED), WORKING, the artifact, COMPLETED.
    for (let i = 0; i < 500 && (receiver.calls.length < 6 || pushes() < 6); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect([receiver.calls.length, pushes()]).toEqual([6, 6]);
    const spans = sdk.spans();
    expect(spans.filter((s) => s.kind === SpanKind.CLIENT && s.name !== SPAN.push)).toHaveLength(2);
    const tree = renderTree(spans, [
      ATTR.taskState,
      ATTR.binding,
      ATTR.appendEvents,
      ATTR.httpStatus,
    ]);
    const doc = readFileSync(DOC, 'utf8');
    const block = `${BEGIN}\n\n\`\`\`text\n${tree}\n\`\`\`\n\n${END}`; // as prettier lays it out
    if (process.env['A2A_WRITE_TRACE']) {
      const at = doc.indexOf(BEGIN);
      const to = doc.indexOf(END) + END.length;
      writeFileSync(DOC, doc.slice(0, at) + block + doc.slice(to));
    } else {
      // The span tree itself, so a difference shows as a diff of the tree.
      const shown = doc.slice(doc.indexOf(BEGIN), doc.indexOf(END) + END.length);
      expect(block).toBe(shown);
    }
  });
});
