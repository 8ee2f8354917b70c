/**
 * A server instance killed mid-task, with NATS JetStream as the event bus (issue 21, item 4):
 * two server processes share one PostgreSQL schema and fan events out over NATS
 * (`A2A_BUS=nats://…/<prefix>`) instead of LISTEN/NOTIFY. A client subscribed on B to a task
 * running on A sees A's events live through NATS; A is killed with SIGKILL, B takes the task
 * over after the lease timeout and resumes it, and the subscriber on B sees every number once,
 * in order, to the end. Needs A2A_TEST_POSTGRES_URL and A2A_TEST_NATS_URL (a private nats-server
 * is started for the bus).
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, expect, it } from 'vitest';
import type { StreamResponse } from '../../src/core/schemas/index.js';
import { parseSse } from '../../src/transport/sse-parse.js';
import { eventually, getTask, newSeen, streamOne } from './client-load.js';
import { describeNats, PrivateNats } from './nats-helpers.js';
import {
  POSTGRES_URL,
  describePostgres,
  freshSchema,
  postgresFixture,
} from './postgres-helpers.js';
import { startServer, type ServerProcess } from './processes.js';

const schema = freshSchema();
postgresFixture([schema]);
const TTL = 1_500;
let nats: PrivateNats | undefined;
afterAll(async () => nats?.dispose());

/** SubscribeToTask over HTTP+JSON on `base`, recording events by SSE id until the stream ends. */
async function subscribe(base: string, id: string, events: Map<number, StreamResponse>) {
  const response = await fetch(`${base}/a2a/rest/tasks/${id}:subscribe`, {
    method: 'POST',
    headers: { 'A2A-Version': '1.0' },
  });
  if (!response.ok || !response.body) throw new Error(`subscribe refused: ${response.status}`);
  for await (const sse of parseSse(response.body)) {
    events.set(Number(sse.id), JSON.parse(sse.data) as StreamResponse);
  }
}

describePostgres('NATS bus: a killed instance (PostgreSQL leases)', () => {
  describeNats('with the NATS JetStream bus', () => {
    it('a subscriber on B sees A’s task through NATS, and B resumes it once A is killed', async () => {
      const server = await PrivateNats.start();
      nats = server;
      const env = (id: string) => ({
        A2A_PG_SCHEMA: schema,
        A2A_LEASE_TTL_MS: String(TTL),
        A2A_INSTANCE_ID: id,
        A2A_BUS: `${server.url}/crash`,
      });
      const args = ['--agent', 'counter', '--tick', '100', '--store', POSTGRES_URL ?? ''];
      const [a, b] = (await Promise.all(
        ['a', 'b'].map((id) =>
          startServer('test/integration/fixtures/agent-server.js', args, env(id)),
        ),
      )) as [ServerProcess, ServerProcess];
      const seen = newSeen();
      const onA = streamOne(a.url, 'count 30', seen).catch(() => undefined);
      const taskId = await eventually(
        'the task to start on A',
        5_000,
        async () => seen.streamed[0]?.taskId,
      );
      const onB = new Map<number, StreamResponse>();
      const subscribed = subscribe(b.url, taskId, onB);
      await eventually('numbers on B, published by A over NATS', 5_000, async () =>
        onB.size >= 5 ? true : undefined,
      );
      await a.kill('SIGKILL');
      await onA;
      const done = await eventually(
        'B to resume and finish the count',
        TTL * 1.25 + 8_000,
        async () => {
          const task = await getTask(b.url, taskId);
          return task?.status.state === 'TASK_STATE_COMPLETED' ? task : undefined;
        },
      );
      await subscribed; // the stream on B ends with the task
      const parts = done.artifacts?.find((x) => x.artifactId === 'count')?.parts ?? [];
      expect(parts.map((p) => ('text' in p ? p.text : '?'))).toEqual(
        Array.from({ length: 30 }, (_, i) => String(i)),
      );
      // The subscriber on B saw a gapless run of seqs up to the end, each once.
      const seqs = [...onB.keys()].sort((x, y) => x - y);
      const first = seqs[0] ?? 0;
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => first + i));
      expect(onB.get(seqs.at(-1) ?? 0)).toMatchObject({
        statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
      });
      // The events went over NATS (not LISTEN/NOTIFY): the bus's stream holds them.
      const nc = await connect({ servers: server.url });
      const info = await (await jetstreamManager(nc)).streams.info('CRASH_EVENTS');
      await nc.close();
      expect(info.state.messages).toBeGreaterThanOrEqual(seqs.length);
      await b.kill('SIGTERM');
    });
  });
});
