/**
 * Crash tests, several instances (issue 4, items 4 and 5): two server processes share one
 * PostgreSQL schema and the LISTEN/NOTIFY bus. CancelTask on B stops the task running on A; A
 * is killed with SIGKILL mid-task and B takes its task over within the lease timeout, failing it
 * with a clear message (the demo agent) or resuming it (an agent that declares it safe); a task
 * waiting for input on A is continued on B.
 */
import { afterAll, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import { NOT_RESUMED_TEXT } from '../../src/server/recovery.js';
import { PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { cancelTask, eventually, getTask, newSeen, sendOne, streamOne } from './client-load.js';
import {
  POSTGRES_URL,
  describePostgres,
  freshSchema,
  postgresFixture,
} from './postgres-helpers.js';
import { startServer, type ServerProcess } from './processes.js';

const demoSchema = freshSchema();
const counterSchema = freshSchema();
const db = postgresFixture([demoSchema, counterSchema]);
const TTL = 1_500;
const scope = { tenant: '', owner: '' };

const stores: PostgresTaskStore[] = [];
afterAll(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function reader(schema: string): Promise<PostgresTaskStore> {
  const store = await PostgresTaskStore.open({ pool: db.pool(), schema, cacheSize: 0 });
  stores.push(store);
  return store;
}

/** Two instances of a server on `schema`, named a and b. */
async function pair(script: string, args: string[], schema: string): Promise<ServerProcess[]> {
  const env = (id: string) => ({
    A2A_PG_SCHEMA: schema,
    A2A_LEASE_TTL_MS: String(TTL),
    A2A_INSTANCE_ID: id,
  });
  const store = ['--store', POSTGRES_URL ?? ''];
  return Promise.all(['a', 'b'].map((id) => startServer(script, [...args, ...store], env(id))));
}

const stateIs = (base: string, id: string, state: Task['status']['state']) => async () => {
  const task = await getTask(base, id);
  return task?.status.state === state ? task : undefined;
};

const statusStates = (log: { event: StreamResponse }[]) =>
  log.flatMap(({ event }) => ('statusUpdate' in event ? [event.statusUpdate.status.state] : []));

describePostgres('crash of one of two PostgreSQL-backed instances', () => {
  it('cancels from B a task running on A, and fails A’s task on B once A is killed', async () => {
    const [a, b] = (await pair('src/demo/main.js', ['--port', '0', '--no-grpc'], demoSchema)) as [
      ServerProcess,
      ServerProcess,
    ];
    const store = await reader(demoSchema);

    // CancelTask received by B stops the work where it runs (A): nothing follows CANCELED.
    const canceled = await sendOne(a.url, 'slow 60', undefined, true);
    await eventually(
      'the task to work on A',
      5_000,
      stateIs(b.url, canceled.id, 'TASK_STATE_WORKING'),
    );
    expect((await cancelTask(b.url, canceled.id)).status.state).toBe('TASK_STATE_CANCELED');
    const atCancel = await store.events(scope, canceled.id, 0);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // two ticks of `slow`
    const later = await store.events(scope, canceled.id, 0);
    expect(later).toEqual(atCancel);
    expect(statusStates(later).at(-1)).toBe('TASK_STATE_CANCELED');

    // A dies mid-task: B takes the task over within the lease timeout and fails it, saying why.
    const running = await sendOne(a.url, 'slow 60', undefined, true);
    const paused = await sendOne(a.url, 'book');
    expect(paused.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await eventually('a progress update on A', 5_000, async () =>
      (await store.events(scope, running.id, 0)).length >= 4 ? true : undefined,
    );
    await a.kill('SIGKILL');
    const died = Date.now();
    const failed = await eventually(
      `B to take over task ${running.id}`,
      TTL * 1.25 + 3_000,
      stateIs(b.url, running.id, 'TASK_STATE_FAILED'),
    );
    const takeoverMs = Date.now() - died;
    expect(failed.status.message?.parts).toEqual([{ text: NOT_RESUMED_TEXT }]);
    expect(takeoverMs).toBeLessThanOrEqual(TTL * 1.25 + 500);

    // The paused task of the dead instance is continued on the other one.
    const done = await sendOne(b.url, '2026-12-24', paused.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    console.log(
      `crash-postgres: task of the killed instance failed by the other after ${takeoverMs} ms (lease ${TTL} ms)`,
    );
    await b.kill('SIGTERM');
  });

  it('resumes on B, exactly where it stopped, the task of an agent that declares it safe', async () => {
    const args = ['--agent', 'counter', '--tick', '100'];
    const [a, b] = (await pair(
      'test/integration/fixtures/agent-server.js',
      args,
      counterSchema,
    )) as [ServerProcess, ServerProcess];
    const store = await reader(counterSchema);
    const seen = newSeen();
    const streaming = streamOne(a.url, 'count 30', seen).catch(() => undefined);
    await eventually('a few numbers on A', 5_000, async () =>
      (seen.streamed[0]?.events.size ?? 0) >= 8 ? true : undefined,
    );
    await a.kill('SIGKILL');
    const died = Date.now();
    await streaming;
    const seenTask = seen.streamed[0];
    if (!seenTask) throw new Error('no task was streamed');

    const done = await eventually(
      'B to resume and finish the count',
      TTL * 1.25 + 3 * 1_000 + 3_000,
      stateIs(b.url, seenTask.taskId, 'TASK_STATE_COMPLETED'),
    );
    const parts = done.artifacts?.find((x) => x.artifactId === 'count')?.parts ?? [];
    expect(parts.map((p) => ('text' in p ? p.text : '?'))).toEqual(
      Array.from({ length: 30 }, (_, i) => String(i)),
    );
    const log = await store.events(scope, seenTask.taskId, 0);
    for (const [seq, event] of seenTask.events) expect(log[seq - 1]).toEqual({ seq, event });
    const resumedAt = log.find(({ event }) => {
      const part =
        'statusUpdate' in event ? event.statusUpdate.status.message?.parts[0] : undefined;
      return /^resuming after \d+$/.test(part?.text ?? '');
    });
    expect(resumedAt, 'the log shows where B resumed').toBeDefined();
    console.log(
      `crash-postgres: counter task resumed on B and completed ${Date.now() - died} ms after A was killed`,
    );
    await b.kill('SIGTERM');
  });
});
