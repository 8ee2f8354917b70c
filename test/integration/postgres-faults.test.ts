/**
 * No task stranded after a database fault, on the real PostgreSQL: two
 * instances share one schema (store, LISTEN/NOTIFY bus, leases) while the test kills their
 * database connections again and again (`pg_terminate_backend`, only connections of this test:
 * they carry its application_name). Afterwards every task is terminal or interrupted, a failed
 * one says the store failed or that it was taken over (never "the agent failed"); a blocking
 * SendMessage never answered with a non-final state (spec §3.1.1); and a retry of every send
 * that got an error, with the same messageId, answers (no hang).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { A2AError } from '../../src/core/errors.js';
import { textOf, userMessage } from '../../src/core/parts.js';
import type { Message, Task } from '../../src/core/schemas/index.js';
import { isSettled } from '../../src/core/task-state.js';
import { A2AServer } from '../../src/server/a2a-server.js';
import { createAgent } from '../../src/server/agent.js';
import { NOT_RESUMED_TEXT } from '../../src/server/recovery.js';
import { STORAGE_FAILED_TEXT } from '../../src/server/task-runner.js';
import { PostgresEventBus, PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);
const app = `a2a-fault-${randomBytes(4).toString('hex')}`;
const quiet = { warn: () => undefined, error: () => undefined };

const agent = createAgent({
  card: { name: 'F', description: 'fault test agent', version: '1', skills: [] },
  async *execute({ task }) {
    yield task.working();
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      yield task.artifact(String(i), { artifactId: 'n', append: i > 0 });
    }
    yield task.completed();
  },
});

const servers: A2AServer[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) {
    await server.idle();
    await server.close().catch(() => undefined);
  }
});

async function instance(id: string): Promise<A2AServer> {
  const pool = db.pool({ application_name: app, max: 6 });
  const store = await PostgresTaskStore.open({ pool, schema, logger: null });
  const bus = new PostgresEventBus({
    pool,
    schema,
    store,
    logger: null,
    backoffMs: { initial: 20, max: 200 },
  });
  const server = new A2AServer({
    agent,
    store,
    bus,
    ownership: { instanceId: id, leaseTtlMs: 600 },
    logger: quiet,
  });
  servers.push(server);
  return server;
}

/** Kills every connection of this test's pools, `times` times, `everyMs` apart. */
async function killConnections(times: number, everyMs: number): Promise<number> {
  const admin = db.pool({ max: 1 });
  let killed = 0;
  for (let i = 0; i < times; i++) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    const { rows } = await admin.query<{ ok: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
      [app],
    );
    killed += rows.filter((r) => r.ok).length;
  }
  return killed;
}

type Outcome = { message: Message; task?: Task; error?: unknown };

async function sendBlocking(server: A2AServer, message: Message): Promise<Outcome> {
  try {
    const reply = await server.sendMessage({ message }, {});
    return { message, ...('task' in reply ? { task: reply.task } : {}) };
  } catch (error) {
    return { message, error };
  }
}

/** Settles with the outcome, or with a note that it hung for `ms`. */
function bounded(outcome: Promise<Outcome>, ms: number, what: string): Promise<Outcome> {
  return Promise.race([
    outcome,
    new Promise<Outcome>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} hung for ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describePostgres('PostgreSQL connections killed under load, two instances', () => {
  it('strands no task, never answers a blocking send with a non-final state, and retries answer', async () => {
    const a = await instance('a');
    const b = await instance('b');
    const outcomes: Promise<Outcome>[] = [];
    const load = (async () => {
      for (let round = 0; round < 12; round++) {
        for (let i = 0; i < 6; i++) {
          const server = i % 2 === 0 ? a : b;
          outcomes.push(sendBlocking(server, userMessage(`go ${round}.${i}`)));
        }
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    const killed = await killConnections(6, 90);
    await load;
    const first = await Promise.all(outcomes.map((o, i) => bounded(o, 30_000, `send ${i}`)));

    // A blocking send answers a settled task, or an error; never a task still running.
    for (const { task } of first) if (task) expect(isSettled(task.status.state)).toBe(true);
    const errors = first.filter((o) => o.error !== undefined);
    for (const { error } of errors) {
      expect(error, String(error)).toBeInstanceOf(Error);
      expect(String((error as Error).message)).not.toMatch(/agent failed/);
    }

    // The same message again (same messageId) answers a settled task: nothing hangs.
    const retried = await Promise.all(
      errors.map((o, i) =>
        bounded(sendBlocking(i % 2 ? a : b, o.message), 30_000, `retry of ${o.message.messageId}`),
      ),
    );
    const stillFailing = retried.filter((o) => o.error !== undefined);
    expect(
      stillFailing.map((o) => (o.error instanceof A2AError ? o.error.code : String(o.error))),
    ).toEqual([]);

    // Every task ended settled; a failed one names the storage fault or the takeover.
    const tasks = [...first, ...retried].flatMap((o) => (o.task ? [o.task] : []));
    for (const task of tasks) {
      const now = await a.getTask({ id: task.id }, {});
      expect(isSettled(now.status.state), `${task.id} is ${now.status.state}`).toBe(true);
      if (now.status.state === 'TASK_STATE_FAILED') {
        expect([STORAGE_FAILED_TEXT, NOT_RESUMED_TEXT]).toContain(
          textOf(now.status.message as Message),
        );
      }
    }
    const states = new Map<string, number>();
    for (const t of tasks) states.set(t.status.state, (states.get(t.status.state) ?? 0) + 1);
    console.log(
      `postgres-faults: ${killed} connections killed; ${first.length} sends, ${errors.length} answered an error and were retried; final states ${JSON.stringify(Object.fromEntries(states))}`,
    );
    expect(killed).toBeGreaterThan(0);
  });
});
