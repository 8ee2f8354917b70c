/**
 * Abandoned interrupted tasks on PostgreSQL (spec §3.1): three instances sharing one schema all
 * sweep; an unanswered INPUT_REQUIRED task is CANCELED exactly once (the cancel is an
 * expected-seq append, so the instances that lose the race write nothing), and the per-caller
 * cap counts the caller's tasks on every instance.
 */
import { afterEach, expect, it } from 'vitest';
import { A2AError } from '../../src/core/errors.js';
import { userMessage } from '../../src/core/parts.js';
import { A2AServer, type A2AServerOptions } from '../../src/server/a2a-server.js';
import { PostgresEventBus, PostgresTaskStore } from '../../src/stores/postgres/index.js';
import { scriptedAgent } from '../helpers/agents.js';
import { sleep } from '../helpers/requests.js';
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

async function server(name: string, interrupted: NonNullable<A2AServerOptions['interrupted']>) {
  const pool = db.pool({ application_name: name });
  const store = await PostgresTaskStore.open({ pool, schema });
  const bus = new PostgresEventBus({ pool, schema, store });
  const agent = scriptedAgent().agent;
  const created = new A2AServer({ agent, store, bus, logger: null, interrupted });
  servers.push(created);
  return created;
}

const call = { principal: { id: 'alice' } };

describePostgres('PostgreSQL: abandoned interrupted tasks', () => {
  it('cancels an unanswered task once, whichever instance sweeps', async () => {
    const instances = [
      await server('ttl-a', { ttlMs: 60 }),
      await server('ttl-b', { ttlMs: 60 }),
      await server('ttl-c', { ttlMs: 60 }),
    ];
    const reply = await instances[0]!.sendMessage({ message: userMessage('ask') }, call);
    if (!('task' in reply)) throw new Error('expected a task');
    expect(reply.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await sleep(100);
    await Promise.all(instances.map((i) => i.interrupted?.sweep() ?? Promise.resolve()));
    for (;;) {
      const task = await instances[2]!.getTask({ id: reply.task.id }, call);
      if (task.status.state === 'TASK_STATE_CANCELED') break;
      await sleep(20);
    }
    const scope = { tenant: '', owner: 'alice' };
    const log = await instances[1]!.store.events(scope, reply.task.id, 0);
    const cancels = log.filter(
      (e) =>
        'statusUpdate' in e.event && e.event.statusUpdate.status.state === 'TASK_STATE_CANCELED',
    );
    expect(cancels).toHaveLength(1);
  });

  it('counts a caller’s interrupted tasks across instances', async () => {
    const a = await server('cap-a', { maxPerCaller: 2 });
    const b = await server('cap-b', { maxPerCaller: 2 });
    const caller = { principal: { id: `cap-${crypto.randomUUID()}` } };
    await a.sendMessage({ message: userMessage('ask') }, caller);
    await b.sendMessage({ message: userMessage('auth') }, caller);
    const refused = await a
      .sendMessage({ message: userMessage('ask') }, caller)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(A2AError);
    expect((refused as A2AError).code).toBe('RATE_LIMITED');
  });
});
