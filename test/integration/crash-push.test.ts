/**
 * Push survives kill -9: a server with push notifications on SQLite, then on
 * PostgreSQL, is killed with SIGKILL while its tasks stream and while every delivery is still
 * refused (503), so all of them sit between the append and their delivery. Restarted on the same
 * store, with the webhook accepting, it delivers every event a client acknowledged (received on
 * its stream), exactly once, in log order per task: the deliveries were enqueued in the same
 * transaction as the events, so no crash falls between the two (spec §4.3.3 push deliveries).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StreamResponse } from '../../src/core/schemas/index.js';
import { isTerminal } from '../../src/core/task-state.js';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import type { TaskStore } from '../../src/stores/types.js';
import { eventually, getTask, newSeen, type Seen } from './client-load.js';
import {
  POSTGRES_URL,
  describePostgres,
  freshSchema,
  postgresFixture,
} from './postgres-helpers.js';
import { startServer, type ServerProcess } from './processes.js';
import { startWebhook } from './push-helpers.js';
import { parseSse } from '../../src/transport/sse-parse.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-crash-push-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scope = { tenant: '', owner: '' };
const SCRIPT = 'test/integration/fixtures/push-server.js';
const schema = freshSchema();
const db = postgresFixture([schema]);
const TASKS = 6;

/** Streams `count 40` with an inline push config, recording what the client received. */
async function streamWithPush(base: string, hook: string, seen: Seen): Promise<void> {
  const response = await fetch(`${base}/a2a/rest/message:stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'count 40' }] },
      configuration: { taskPushNotificationConfig: { url: hook, token: 'tok' } },
    }),
  }).catch(() => undefined);
  if (!response?.ok || !response.body) return;
  let events: Map<number, StreamResponse> | undefined;
  try {
    for await (const sse of parseSse(response.body)) {
      const event = JSON.parse(sse.data) as StreamResponse;
      if (!events) {
        if (!('task' in event)) return;
        events = new Map();
        seen.streamed.push({ taskId: event.task.id, events });
      }
      events.set(Number(sse.id), event);
    }
  } catch {
    // The server was killed mid-stream: what arrived before is what the client acknowledged.
  }
}

async function crashAndDeliver(
  storeArgs: string[],
  env: Record<string, string>,
  open: () => Promise<TaskStore>,
) {
  let accepting = false;
  const hook = await startWebhook(() => (accepting ? { status: 200 } : { status: 503 }));
  const first = await startServer(SCRIPT, [...storeArgs, '--tick', '25'], env);
  let second: ServerProcess | undefined;
  try {
    const seen = newSeen();
    const streams = Array.from({ length: TASKS }, () =>
      streamWithPush(first.url, `${hook.url}/hook`, seen),
    );
    await eventually('every stream to be mid-way', 10_000, async () =>
      seen.streamed.length === TASKS && seen.streamed.every((t) => t.events.size >= 8)
        ? true
        : undefined,
    );
    await first.kill('SIGKILL');
    await Promise.all(streams);
    const refused = hook.calls.length;

    accepting = true;
    second = await startServer(SCRIPT, [...storeArgs, '--tick', '25'], env);
    const store = await open();
    try {
      for (const { taskId } of seen.streamed) {
        await eventually(`task ${taskId} to finish after the restart`, 20_000, async () => {
          const task = await getTask(second?.url ?? '', taskId);
          return task && isTerminal(task.status.state) ? task : undefined;
        });
      }
      // Every pushed event of the log (status and artifact updates) is delivered once.
      const logs = new Map<string, Map<string, number>>();
      let expected = 0;
      for (const { taskId } of seen.streamed) {
        const bySeq = new Map<string, number>();
        for (const { seq, event } of await store.events(scope, taskId, 0, 10_000)) {
          if ('statusUpdate' in event || 'artifactUpdate' in event) {
            bySeq.set(JSON.stringify(event), seq);
            expected++;
          }
        }
        logs.set(taskId, bySeq);
      }
      await eventually('every delivery', 20_000, async () =>
        hook.calls.slice(refused).length >= expected ? true : undefined,
      ).catch(async (error: unknown) => {
        const pending = await Promise.all(
          seen.streamed.map(async (t) => (await store.facets?.pushOutbox?.list(t.taskId))?.length),
        );
        throw new Error(
          `${String(error)}: ${hook.calls.length - refused} of ${expected} delivered; outbox holds ${pending.join(',')}; server said:\n${second?.output()}`,
        );
      });
      await new Promise((resolve) => setTimeout(resolve, 300)); // room for a duplicate to show
      const delivered = new Map<string, number[]>();
      for (const call of hook.calls.slice(refused)) {
        const event = JSON.parse(call.body) as StreamResponse;
        const taskId =
          'statusUpdate' in event
            ? event.statusUpdate.taskId
            : 'artifactUpdate' in event
              ? event.artifactUpdate.taskId
              : '';
        const seq = logs.get(taskId)?.get(call.body);
        expect(seq, `a delivery matches no logged event: ${call.body}`).toBeDefined();
        delivered.set(taskId, [...(delivered.get(taskId) ?? []), seq as number]);
      }
      let acknowledged = 0;
      for (const { taskId, events } of seen.streamed) {
        const seqs = delivered.get(taskId) ?? [];
        expect(seqs, `task ${taskId}: in order, each once`).toEqual(
          [...(logs.get(taskId)?.values() ?? [])].sort((a, b) => a - b),
        );
        for (const [seq, event] of events) {
          if ('task' in event || 'message' in event) continue;
          acknowledged++;
          expect(seqs, `task ${taskId}: acknowledged event ${seq} delivered`).toContain(seq);
        }
      }
      console.log(
        `crash-push ${storeArgs[1]?.startsWith('postgres') ? 'postgres' : 'sqlite'}: ${acknowledged} acknowledged events of ${TASKS} tasks, ${expected} pushed events delivered exactly once in order after kill -9 (${refused} attempts refused before it)`,
      );
    } finally {
      await store.close();
    }
  } finally {
    await second?.kill('SIGTERM');
    await hook.close();
  }
}

describe('push across kill -9, SQLite', () => {
  it('delivers every acknowledged event exactly once, in order, after the restart', async () => {
    const file = join(dir, 'push.db');
    await crashAndDeliver(['--store', file], {}, async () => new SqliteTaskStore({ path: file }));
  });
});

describePostgres('push across kill -9, PostgreSQL', () => {
  it('delivers every acknowledged event exactly once, in order, after the restart', async () => {
    await crashAndDeliver(
      ['--store', POSTGRES_URL ?? ''],
      { A2A_PG_SCHEMA: schema, A2A_LEASE_TTL_MS: '1000', A2A_INSTANCE_ID: 'one' },
      () => PostgresTaskStore.open({ pool: db.pool(), schema, cacheSize: 0 }),
    );
  });
});
