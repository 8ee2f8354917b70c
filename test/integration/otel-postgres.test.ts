/**
 * Trace context across two instances sharing PostgreSQL (a2a-kit/otel with the real SDK, one
 * tracer provider per instance): a task runs on instance A; a SubscribeToTask stream on
 * instance B (spec §3.1.6) receives its events through the PostgreSQL bus inside
 * `a2a.bus.receive` spans that continue A's trace, and every push delivery (spec §4.3.3), which
 * either instance may send from the shared outbox, carries a `traceparent` of A's trace.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { AgentCardResolver } from '../../src/client/card-resolver.js';
import { userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { SPAN, a2aTelemetry } from '../../src/otel/index.js';
import { createAgent } from '../../src/server/agent.js';
import { PostgresEventBus, PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { expectContinuedOnB, parentOf, testSdk } from '../otel/sdk.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);
const sdkA = testSdk();
const sdkB = testSdk();
let release: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (release = resolve));
const hooks: IncomingHttpHeaders[] = [];
let receiver: Server;
let hookUrl = '';
const instances: ServeResult[] = [];

const agent = createAgent({
  card: { name: 'Slow', description: 'waits, then answers', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.working('started');
    await gate;
    yield task.artifact('the answer');
    yield task.completed('done');
  },
});

async function instance(name: string, sdk: ReturnType<typeof testSdk>): Promise<ServeResult> {
  const otel = a2aTelemetry({
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
    propagator: sdk.propagator,
  });
  const pool = db.pool({ application_name: name });
  const store = await PostgresTaskStore.open({ pool, schema });
  const bus = new PostgresEventBus({ pool, schema, store });
  const running = await serve(otel.agent(agent), {
    store: otel.store(store),
    bus: otel.bus(bus),
    middleware: [otel.middleware],
    push: { allowHosts: ['127.0.0.1'], logger: null, pollIntervalMs: 50, ...otel.push },
    logger: null,
  });
  instances.push(running);
  return running;
}

describePostgres('a2a-kit/otel across two PostgreSQL instances', () => {
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hooks.push(req.headers);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    release();
    for (const i of instances.splice(0)) await i.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await sdkA.shutdown();
    await sdkB.shutdown();
  });

  it('continues the trace of a task running on A in a subscriber on B and in every push delivery', async () => {
    const a = await instance('otel-a', sdkA);
    const b = await instance('otel-b', sdkB);
    const connect = (url: string, sdk: ReturnType<typeof testSdk>) =>
      A2AClient.connect(url, {
        interceptors: [
          a2aTelemetry({ tracerProvider: sdk.tracerProvider, propagator: sdk.propagator })
            .interceptor,
        ],
        cardResolver: new AgentCardResolver(),
      });
    const onA = await connect(a.url, sdkA);
    const onB = await connect(b.url, sdkB);
    const sent = await onA.sendMessage({
      message: userMessage('go'),
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: { url: hookUrl, token: 'pg-hook-token' },
      },
    });
    const taskId = 'task' in sent ? sent.task.id : '';
    const states: string[] = [];
    const stream = onB.subscribeToTask({ id: taskId });
    const reading = (async () => {
      for await (const event of stream) {
        if ('statusUpdate' in event) states.push(event.statusUpdate.status.state);
        release(); // B is subscribed once its first event (the snapshot) arrived
      }
    })();
    await reading;
    onA.close();
    onB.close();
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    for (let i = 0; i < 500 && hooks.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(hooks.length).toBe(3); // WORKING, the artifact, COMPLETED

    // B's subscriber received A's events inside spans of A's trace, children of A's spans.
    const { traceId, idsOnA } = expectContinuedOnB(sdkA, sdkB, taskId);
    // Each push delivery, whichever instance sent it, continues A's trace.
    const pushSpans = [...sdkA.spans(), ...sdkB.spans()].filter((s) => s.name === SPAN.push);
    expect(pushSpans).toHaveLength(3);
    const pushIds = new Set(pushSpans.map((s) => s.spanContext().spanId));
    for (const h of hooks) {
      const [, t, s] = String(h.traceparent).split('-');
      expect(t).toBe(traceId);
      expect(pushIds.has(s ?? '')).toBe(true);
    }
    for (const p of pushSpans) expect(idsOnA.has(parentOf(p))).toBe(true);
  });
});
