/**
 * Crash test, one machine (issue 4, item 5): the demo agent as `npm start` runs it, on a SQLite
 * file, is killed with SIGKILL while clients stream stories and send echoes; restarted on the
 * same file, it must still have every task whose creation a client saw, with every event a
 * client received, byte for byte; the tasks it was running are failed at once, saying why; and
 * a task that was waiting for input is continued after the restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../../src/core/task-state.js';
import { NOT_RESUMED_TEXT } from '../../src/server/recovery.js';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import { eventually, getTask, loops, newSeen, sendOne, streamOne } from './client-load.js';
import { startServer } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scope = { tenant: '', owner: '' };
const DEMO = 'src/demo/main.js';

describe('crash of a SQLite-backed server (kill -9 under load)', () => {
  it('keeps every task and acknowledged event, fails what was running, continues what was paused', async () => {
    const file = join(dir, 'tasks.db');
    const args = ['--port', '0', '--no-grpc', '--store', file];
    const first = await startServer(DEMO, args);
    const paused = await sendOne(first.url, 'book');
    expect(paused.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    // Load: 6 clients streaming 40-chunk stories (2 s each), 3 clients sending echoes.
    const seen = newSeen();
    const stop = new AbortController();
    const load = Promise.all([
      loops(6, stop.signal, () => streamOne(first.url, 'story 40', seen), seen),
      loops(3, stop.signal, async () => seen.sent.push(await sendOne(first.url, 'echo hi')), seen),
    ]);
    await eventually('load to build up', 10_000, async () =>
      seen.streamed.length >= 6 && seen.sent.length >= 50 ? true : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 700)); // mid-story for every stream
    await first.kill('SIGKILL');
    stop.abort();
    await load;
    const acknowledged = seen.streamed.reduce((n, t) => n + t.events.size, 0);
    expect(seen.streamed.length).toBeGreaterThanOrEqual(6);

    const second = await startServer(DEMO, args);
    const store = new SqliteTaskStore({ path: file });
    try {
      // Every task a client saw created is there, with every event it received, as received.
      for (const { taskId, events } of seen.streamed) {
        const log = await store.events(scope, taskId, 0, 10_000);
        for (const [seq, event] of events) {
          expect(log[seq - 1], `task ${taskId} lost acknowledged event ${seq}`).toEqual({
            seq,
            event,
          });
        }
      }
      for (const task of seen.sent) {
        expect((await getTask(second.url, task.id))?.status.state).toBe(task.status.state);
      }
      // What was running when the server died is failed, saying why, right after the restart.
      const interrupted = seen.streamed.filter(
        (t) =>
          ![...t.events.values()].some(
            (e) => 'statusUpdate' in e && isTerminal(e.statusUpdate.status.state),
          ),
      );
      expect(interrupted.length, 'no story was mid-way when the server was killed').toBeGreaterThan(
        0,
      );
      for (const { taskId } of interrupted) {
        const task = await eventually(`task ${taskId} to be taken over`, 5_000, async () => {
          const found = await getTask(second.url, taskId);
          return found && isTerminal(found.status.state) ? found : undefined;
        });
        expect(task.status.state).toBe('TASK_STATE_FAILED');
        expect(task.status.message?.parts).toEqual([{ text: NOT_RESUMED_TEXT }]);
      }
      // The paused booking survived and is continued.
      const done = await sendOne(second.url, '2026-12-24', paused.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      console.log(
        `crash-sqlite: ${seen.streamed.length} streamed + ${seen.sent.length} blocking tasks, ` +
          `${acknowledged} acknowledged stream events all kept; ${interrupted.length} interrupted tasks failed on restart`,
      );
    } finally {
      await store.close();
      await second.kill('SIGTERM');
    }
  });
});
