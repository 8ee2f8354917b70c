/**
 * Retried sends across instances on PostgreSQL (spec §3.3.1): the message index keeps each
 * message's fingerprint and time (database clock), so a retry reaching another instance gets the
 * first task, and another message reusing the messageId is processed there; the index keeps
 * where the message is recorded (the task's history entry), so answers to paused tasks and every
 * form of taskId and contextId are recognized from the task the other instance reads.
 */
import { afterEach, expect, it } from 'vitest';
import { A2AServer } from '../../src/server/a2a-server.js';
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

/** A server on the shared database; retries count for 10 minutes unless `windowMs` says otherwise. */
async function server(name: string, agent: ReturnType<typeof scriptedAgent>, windowMs = 600_000) {
  const pool = db.pool({ application_name: name });
  const store = await PostgresTaskStore.open({ pool, schema });
  const bus = new PostgresEventBus({ pool, schema, store });
  const created = new A2AServer({
    agent: agent.agent,
    store,
    bus,
    logger: null,
    idempotency: { windowMs },
  });
  servers.push(created);
  return created;
}

const message = (messageId: string, text: string) => ({
  messageId,
  role: 'ROLE_USER' as const,
  parts: [{ text }],
});

describePostgres('PostgreSQL: retried sends across instances', () => {
  it('[68] a retry on another instance gets the first task; another message is processed', async () => {
    const agent = scriptedAgent();
    const a = await server('idem-a', agent);
    const b = await server('idem-b', agent);
    const messageId = crypto.randomUUID();
    const call = { principal: { id: 'alice' } };
    const first = await a.sendMessage({ message: message(messageId, 'echo one') }, call);
    const retried = await b.sendMessage({ message: message(messageId, 'echo one') }, call);
    if (!('task' in first) || !('task' in retried)) throw new Error('expected tasks');
    expect(retried.task.id).toBe(first.task.id);
    expect(agent.probe.runs.get(messageId)).toBe(1);

    const other = await b.sendMessage({ message: message(messageId, 'echo two') }, call);
    if (!('task' in other)) throw new Error('expected a task');
    expect(other.task.id).not.toBe(first.task.id);
    expect(other.task.artifacts?.[0]?.parts[0]?.text).toBe('echo: echo two');
    expect(agent.probe.runs.get(messageId)).toBe(2);
  });

  it('[68] the window is measured on the database clock, for every instance', async () => {
    const agent = scriptedAgent();
    const a = await server('idem-c', agent, 200);
    const b = await server('idem-d', agent, 200);
    const messageId = crypto.randomUUID();
    const first = await a.sendMessage({ message: message(messageId, 'echo w') }, {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = await b.sendMessage({ message: message(messageId, 'echo w') }, {});
    if (!('task' in first) || !('task' in late)) throw new Error('expected tasks');
    expect(late.task.id).not.toBe(first.task.id);
    expect(agent.probe.runs.get(messageId)).toBe(2);
  });

  it('[68] a retried answer, and a message with its own or an empty contextId, on another instance', async () => {
    const agent = scriptedAgent();
    const a = await server('idem-e', agent);
    const b = await server('idem-f', agent);
    const call = { principal: { id: 'alice' } };
    const own = { ...message(crypto.randomUUID(), 'ask'), contextId: crypto.randomUUID() };
    const asked = await a.sendMessage({ message: own }, call);
    if (!('task' in asked)) throw new Error('expected a task');
    const again = await b.sendMessage({ message: { ...own } }, call);
    expect('task' in again && again.task.id).toBe(asked.task.id);

    const answerId = crypto.randomUUID();
    const answer = { ...message(answerId, 'Ada'), taskId: asked.task.id, contextId: '' };
    const answered = await a.sendMessage({ message: answer }, call);
    const retried = await b.sendMessage({ message: JSON.parse(JSON.stringify(answer)) }, call);
    if (!('task' in answered) || !('task' in retried)) throw new Error('expected tasks');
    expect(retried.task.id).toBe(asked.task.id);
    expect(agent.probe.runs.get(own.messageId)).toBe(1);
    expect(agent.probe.runs.get(answerId)).toBe(1);
    // The same text with the contextId left out is another message (a finished task: refused).
    const { contextId: _c, ...other } = answer;
    await expect(b.sendMessage({ message: other }, call)).rejects.toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
    });
  });
});
