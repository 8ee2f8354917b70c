/**
 * A client streams a task from instance A, drops, and resumes on instance B with Last-Event-ID:
 * it gets the missed events from the log, then live ones, in order, with no duplicates. Two
 * in-process A2AServers share one PostgreSQL schema; only A runs the agent.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { A2AServer, type StreamItem } from '../../src/server/a2a-server.js';
import { PostgresEventBus, PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { scriptedAgent } from '../helpers/agents.js';
import { describePostgres, freshSchema, postgresFixture } from './postgres-helpers.js';

const schema = freshSchema();
const db = postgresFixture([schema]);
const servers: A2AServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.idle();
    await server.close();
  }
});

async function server(name: string, agent = scriptedAgent()) {
  const pool = db.pool({ application_name: name });
  const store = await PostgresTaskStore.open({ pool, schema });
  const bus = new PostgresEventBus({ pool, schema, store });
  const created = new A2AServer({ agent: agent.agent, store, bus, logger: null });
  servers.push(created);
  return { server: created, store, probe: agent.probe };
}

/** The next item of a stream, failing the test if the stream ends first. */
async function next(iterator: AsyncIterator<StreamItem>): Promise<StreamItem> {
  const result = await iterator.next();
  if (result.done) throw new Error('the stream ended early');
  return result.value;
}

describePostgres('PostgreSQL: resuming a stream on another instance', () => {
  it('replays what was missed from the log, then goes live, in order, without duplicates', async () => {
    const a = await server('resume-a');
    const b = await server('resume-b');
    const { gates } = a.probe;
    const message = {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER' as const,
      parts: [{ text: 'steps 4 g' }],
    };

    // On A: the task (1), WORKING (2), then step 1 (3); then the client goes away.
    const first = (await a.server.sendStreamingMessage({ message }, {}))[Symbol.asyncIterator]();
    const seen = [await next(first), await next(first)];
    gates.release('g');
    seen.push(await next(first));
    await first.return?.();
    expect(seen.map((i) => i.id)).toEqual(['1', '2', '3']);
    const task = seen[0]?.event;
    if (!task || !('task' in task)) throw new Error('the stream did not start with the task');
    const taskId = task.task.id;

    // Steps 2 and 3 happen while no client is connected.
    gates.release('g', 2);
    await vi.waitFor(async () =>
      expect((await a.store.get({ tenant: '', owner: '' }, taskId))?.seq).toBe(5),
    );

    // On B, with Last-Event-ID 3: 4 and 5 come from the log ...
    const resumed = (await b.server.subscribeToTask({ id: taskId, lastEventId: '3' }, {}))[
      Symbol.asyncIterator
    ]();
    const after = [await next(resumed), await next(resumed)];
    expect(after.map((i) => i.id)).toEqual(['4', '5']);
    // ... and step 4 (6) and COMPLETED (7) arrive live from A through the bus.
    gates.release('g');
    for (;;) {
      const result = await resumed.next();
      if (result.done) break;
      after.push(result.value);
    }
    expect(after.map((i) => i.id)).toEqual(['4', '5', '6', '7']);
    const log = await b.store.events({ tenant: '', owner: '' }, taskId, 3);
    expect(after.map((i) => i.event)).toStrictEqual(log.map((e) => e.event));
    expect(log.at(-1)?.event).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(a.probe.runs.get(message.messageId)).toBe(1);
    expect(b.probe.runs.size).toBe(0);
  });
});
