import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userMessage } from '../core/parts.js';
import type { StreamResponse } from '../core/schemas/index.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { SqliteTaskStore } from '../stores/sqlite/task-store.js';
import { startWebhook, testNotifier, waitFor } from '../../test/integration/push-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-push-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const agent = createAgent({
  card: { name: 'Pusher', description: 'pushes', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.working();
    yield task.artifact([{ text: 'result' }]);
    yield task.completed();
  },
});

const kind = (body: string) => {
  const event = JSON.parse(body) as StreamResponse;
  return 'statusUpdate' in event ? event.statusUpdate.status.state : Object.keys(event)[0];
};

describe('push deliveries across a restart', () => {
  it('[143] delivers what was pending when the server stopped, after it starts again on the same SQLite file', async () => {
    const path = join(dir, 'tasks.sqlite');
    let healthy = false;
    const hook = await startWebhook(() => (healthy ? { status: 200 } : { status: 503 }));
    try {
      // First life: every delivery fails and is being retried when the server stops.
      const store1 = new SqliteTaskStore({ path });
      const first = testNotifier({ store: store1, retry: { baseDelayMs: 40, maxDelayMs: 80 } });
      const server1 = new A2AServer({ agent, store: store1, push: { notifier: first.notifier } });
      const reply = await server1.sendMessage(
        {
          message: userMessage('go'),
          configuration: { taskPushNotificationConfig: { url: `${hook.url}/hook`, token: 't' } },
        },
        {},
      );
      const taskId = 'task' in reply ? reply.task.id : '';
      await waitFor(() => first.outcomes.length >= 3, 5_000, 'retries');
      await first.notifier.close();
      await server1.idle();
      await server1.close();
      expect(first.notifier.metrics().delivered).toBe(0);

      // Second life: a new store, notifier and server on the same file.
      healthy = true;
      const store2 = new SqliteTaskStore({ path });
      const pending = await store2.pushOutbox().list(taskId);
      expect(pending.map((d) => [d.seq, d.state])).toEqual([
        [2, 'pending'],
        [3, 'pending'],
        [4, 'pending'],
      ]);
      const second = testNotifier({ store: store2 });
      const server2 = new A2AServer({ agent, store: store2, push: { notifier: second.notifier } });
      await waitFor(() => second.notifier.metrics().delivered === 3, 5_000, 'deliveries');
      await second.notifier.close();
      await server2.close();

      // The second notifier's three deliveries are the webhook's last calls. (An attempt of the
      // first life may still reach the webhook after close(): push is at least once, and that
      // delivery stays pending in the store, so it is sent again here.)
      const delivered = hook.calls.slice(-3).map((c) => kind(c.body));
      expect(delivered).toEqual(['TASK_STATE_WORKING', 'artifactUpdate', 'TASK_STATE_COMPLETED']);
      expect(second.outcomes.map((o) => o.seq)).toEqual([2, 3, 4]);
    } finally {
      await hook.close();
    }
  });
});
