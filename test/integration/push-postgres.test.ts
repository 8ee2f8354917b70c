/**
 * Push storage on PostgreSQL: the shared PushConfigStore and PushOutbox suites, retention purging
 * configs and deliveries, and several instances sharing one outbox without taking a delivery
 * twice or out of order. Runs when A2A_TEST_POSTGRES_URL is set; otherwise skipped, loudly.
 */
import { expect, it } from 'vitest';
import { userMessage } from '../../src/core/parts.js';
import type { StreamResponse } from '../../src/core/schemas/index.js';
import { A2AServer, createAgent } from '../../src/server/index.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import {
  pushConfig,
  runPushConfigStoreSuite,
  runPushOutboxSuite,
} from '../../src/testing/index.js';
import { freshScopes, newTask, uniqueId } from '../../src/testing/store-fixtures.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';
import { startWebhook, testNotifier, waitFor } from './push-helpers.js';

const schema = freshSchema();
// The delivery test gets a schema of its own: the suites leave rows for made-up webhooks.
const deliverySchema = freshSchema();
const db = postgresFixture([schema, deliverySchema]);

const agent = createAgent({
  card: { name: 'Pusher', description: 'pushes', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.working();
    yield task.artifact([{ text: 'result' }]);
    yield task.completed();
  },
});

describePostgres('PostgreSQL push storage', () => {
  const open = () => PostgresTaskStore.open({ pool: db.pool(), schema });
  runPushConfigStoreSuite({ name: 'postgres', create: open });
  runPushOutboxSuite({ name: 'postgres', create: open });

  it('[129,134] drops deliveries with their config, and both with a purged task', async () => {
    const store = await open();
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_COMPLETED' });
    await store.create(scope, task);
    for (const id of ['c1', 'c2']) await store.putPushConfig(scope, pushConfig(task.id, id));
    const delivery = (configId: string) => ({
      id: uniqueId('d'),
      scope,
      taskId: task.id,
      configId,
      seq: 2,
      body: '{}',
    });
    await store.pushOutbox().enqueue([delivery('c1'), delivery('c2')]);
    await store.deletePushConfig(scope, task.id, 'c1');
    expect((await store.pushOutbox().list(task.id)).map((d) => d.configId)).toEqual(['c2']);
    // A delivery for a config deleted before it was written is skipped, not an error.
    await store.pushOutbox().enqueue([delivery('c1')]);
    expect(await store.pushOutbox().list(task.id)).toHaveLength(1);
    expect(await store.purge({ finishedBefore: new Date(Date.now() + 60_000) })).toBeGreaterThan(0);
    expect(await store.listPushConfigs(scope, task.id)).toEqual([]);
    expect(await store.pushOutbox().list(task.id)).toEqual([]);
    await store.close();
  });

  it('lets several instances share the outbox: each delivery claimed once, pairs in order', async () => {
    const instances = await Promise.all([open(), open(), open()]);
    const first = instances[0];
    const { scope } = freshScopes();
    const tasks = [newTask({}), newTask({})];
    for (const task of tasks) {
      await first.create(scope, task);
      await first.putPushConfig(scope, pushConfig(task.id, 'c'));
      await first.pushOutbox().enqueue(
        Array.from({ length: 20 }, (_, i) => ({
          id: uniqueId('d'),
          scope,
          taskId: task.id,
          configId: 'c',
          seq: i + 2,
          body: String(i),
        })),
      );
    }
    const ids = new Set(tasks.map((t) => t.id));
    const seen = new Map<string, number[]>();
    // Every instance claims concurrently until nothing is left; deliveries complete at once.
    await Promise.all(
      instances.map(async (store) => {
        for (let idle = 0; idle < 20;) {
          const claimed = await store.pushOutbox().claim(5, 60_000);
          const mine = claimed.filter((d) => ids.has(d.taskId));
          for (const d of claimed) if (!ids.has(d.taskId)) await store.pushOutbox().release(d);
          if (mine.length === 0) {
            idle++;
            await new Promise((resolve) => setTimeout(resolve, 5));
            continue;
          }
          for (const d of mine) {
            seen.set(d.taskId, [...(seen.get(d.taskId) ?? []), d.seq]);
            await store.pushOutbox().complete(d);
          }
        }
      }),
    );
    const expected = Array.from({ length: 20 }, (_, i) => i + 2);
    for (const task of tasks) expect(seen.get(task.id)).toEqual(expected);
    await Promise.all(instances.map((s) => s.close()));
  });

  it('[143] delivers pending notifications after a restart; two instances share them, each once, in order', async () => {
    let healthy = false;
    const hook = await startWebhook(() => (healthy ? { status: 200 } : { status: 503 }));
    const open2 = () => PostgresTaskStore.open({ pool: db.pool(), schema: deliverySchema });
    try {
      const store1 = await open2();
      const first = testNotifier({ store: store1, retry: { baseDelayMs: 40, maxDelayMs: 80 } });
      const server1 = new A2AServer({ agent, store: store1, push: { notifier: first.notifier } });
      const reply = await server1.sendMessage(
        {
          message: userMessage('go'),
          configuration: { taskPushNotificationConfig: { url: `${hook.url}/hook` } },
        },
        {},
      );
      const taskId = 'task' in reply ? reply.task.id : '';
      await waitFor(() => first.outcomes.length >= 3, 10_000, 'retries');
      await first.notifier.close();
      await server1.idle();
      await server1.close();
      const attempts = hook.calls.length;
      healthy = true;

      const instances = await Promise.all([open2(), open2()]);
      expect((await instances[0].pushOutbox().list(taskId)).map((d) => d.seq)).toEqual([2, 3, 4]);
      const notifiers = instances.map((store) => testNotifier({ store, pollIntervalMs: 10 }));
      const servers = instances.map(
        (store, i) => new A2AServer({ agent, store, push: { notifier: notifiers[i]!.notifier } }),
      );
      const delivered = () => notifiers.reduce((n, x) => n + x.notifier.metrics().delivered, 0);
      await waitFor(() => delivered() === 3, 10_000, 'deliveries after the restart');
      for (const n of notifiers) await n.notifier.close();
      for (const server of servers) await server.close();
      const kinds = hook.calls.slice(attempts).map((c) => {
        const event = JSON.parse(c.body) as StreamResponse;
        return 'statusUpdate' in event ? event.statusUpdate.status.state : Object.keys(event)[0];
      });
      expect(kinds).toEqual(['TASK_STATE_WORKING', 'artifactUpdate', 'TASK_STATE_COMPLETED']);
    } finally {
      await hook.close();
    }
  });
});
