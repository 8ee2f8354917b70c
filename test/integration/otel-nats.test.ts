/**
 * Trace context across two instances whose event bus is NATS JetStream (a2a-kit/otel with the
 * real SDK, one tracer provider per instance; tasks in one shared PostgreSQL schema): a task
 * runs on instance A; a SubscribeToTask stream on instance B (spec §3.1.6) receives its events
 * through the NatsEventBus inside `a2a.bus.receive` spans that continue A's trace, and B records
 * the bus lag. Also when A publishes its entries without body (over `maxPayloadBytes`) and B
 * reads them from the store. Needs A2A_TEST_POSTGRES_URL and A2A_TEST_NATS_URL.
 */
import { afterAll, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/client.js';
import { AgentCardResolver } from '../../src/client/card-resolver.js';
import { userMessage } from '../../src/core/parts.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { METRIC, a2aTelemetry } from '../../src/otel/index.js';
import { createAgent } from '../../src/server/agent.js';
import { NatsEventBus } from '../../src/stores/nats/index.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { expectContinuedOnB, testSdk } from '../otel/sdk.js';
import { describeNats, dropStreams, freshPrefix, NATS_URL } from './nats-helpers.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);
const prefixes: string[] = [];
const instances: ServeResult[] = [];
const sdks: ReturnType<typeof testSdk>[] = [];
const gates: (() => void)[] = [];

afterAll(async () => {
  for (const open of gates.splice(0)) open();
  for (const i of instances.splice(0)) await i.close();
  for (const sdk of sdks.splice(0)) await sdk.shutdown();
  if (NATS_URL) await dropStreams(NATS_URL, prefixes);
});

/** An agent that works, waits for `gate`, then answers. */
function slowAgent(gate: Promise<void>) {
  return createAgent({
    card: { name: 'Slow', description: 'waits, then answers', version: '1.0.0', skills: [] },
    async *execute({ task }) {
      yield task.working('started');
      await gate;
      yield task.artifact('the answer');
      yield task.completed('done');
    },
  });
}

async function instance(
  name: string,
  sdk: ReturnType<typeof testSdk>,
  prefix: string,
  agent: ReturnType<typeof slowAgent>,
  maxPayloadBytes?: number,
): Promise<ServeResult> {
  const otel = a2aTelemetry({
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
    propagator: sdk.propagator,
  });
  const pool = db.pool({ application_name: name });
  const store = await PostgresTaskStore.open({ pool, schema });
  const bus = await NatsEventBus.open({
    servers: NATS_URL ?? '',
    prefix,
    store,
    logger: null,
    ...(maxPayloadBytes !== undefined ? { maxPayloadBytes } : {}),
  });
  const running = await serve(otel.agent(agent), {
    store: otel.store(store),
    bus: otel.bus(bus),
    middleware: [otel.middleware],
    logger: null,
  });
  instances.push(running);
  return running;
}

/** Runs a task on A, follows it on B; the spans of both and the task id. */
async function followedOnB(maxPayloadBytes?: number) {
  const prefix = freshPrefix();
  prefixes.push(prefix);
  const [sdkA, sdkB] = [testSdk(), testSdk()];
  sdks.push(sdkA, sdkB);
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  gates.push(release);
  const agent = slowAgent(gate);
  const a = await instance('otel-nats-a', sdkA, prefix, agent, maxPayloadBytes);
  const b = await instance('otel-nats-b', sdkB, prefix, agent);
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
    configuration: { returnImmediately: true },
  });
  const taskId = 'task' in sent ? sent.task.id : '';
  const states: string[] = [];
  for await (const event of onB.subscribeToTask({ id: taskId })) {
    if ('statusUpdate' in event) states.push(event.statusUpdate.status.state);
    release(); // B is subscribed once its first event (the snapshot) arrived
  }
  onA.close();
  onB.close();
  expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
  return { sdkA, sdkB, taskId };
}

describePostgres('a2a-kit/otel across two instances on the NATS bus', () => {
  describeNats('with the NATS JetStream bus', () => {
    it('continues the trace of a task running on A in a subscriber on B, and measures the bus lag', async () => {
      const run = await followedOnB();
      expectContinuedOnB(run.sdkA, run.sdkB, run.taskId);
      const lag = await run.sdkB.points(METRIC.busLag);
      const count = lag.reduce((n, p) => n + ((p.value as { count?: number }).count ?? 0), 0);
      expect(count).toBeGreaterThanOrEqual(2);
    });

    it('continues it too for entries sent without body (read from the store)', async () => {
      const run = await followedOnB(1);
      expectContinuedOnB(run.sdkA, run.sdkB, run.taskId);
    });
  });
});
