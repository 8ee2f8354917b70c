/**
 * No task stranded after a database fault: the store (or bus, or lease store) fails on chosen
 * calls, as a dropped connection makes it fail. Whatever fails, the task ends terminal or is
 * failed with a status message that names the storage fault (never "the agent failed"); the
 * execution leaves this process and gives its lease up, so recovery can take the task over; a
 * blocking SendMessage (spec §3.1.1: returns once terminal or interrupted) never answers with a
 * non-final state; and a retry with the same messageId never hangs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import { textOf, userMessage } from '../core/parts.js';
import type { Message, StreamResponse, Task } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { FaultPlan, faultyBus, faultyStore } from '../../test/helpers/faulty-store.js';
import { A2AServer } from './a2a-server.js';
import { createAgent } from './agent.js';
import { NOT_RESUMED_TEXT } from './recovery.js';
import { STORAGE_FAILED_TEXT } from './task-runner.js';

const TTL = 150;
const card = {
  name: 'T',
  description: 'storage fault test agent',
  version: '1',
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
};
const agent = createAgent({
  card,
  async *execute({ task }) {
    yield task.working();
    await new Promise((resolve) => setTimeout(resolve, 1)); // WORKING gets an append of its own
    yield task.artifact('result');
    yield task.completed();
  },
});

const servers: A2AServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.idle();
    await server.close();
  }
});

/** A server on a store, bus and leases that fail as planned; warnings and errors are kept. */
function setup(plan = new FaultPlan()) {
  const logged: string[] = [];
  const log = (...parts: unknown[]) => logged.push(parts.map(String).join(' '));
  const server = new A2AServer({
    agent,
    store: faultyStore(new MemoryTaskStore(), plan),
    bus: faultyBus(new MemoryEventBus(), plan),
    ownership: { leaseTtlMs: TTL, instanceId: 'one' },
    logger: { warn: log, error: log },
    // A retry finds its first task even once recovery has ended it (the default, window 0,
    // would process a retry after the end as a new message).
    idempotency: { windowMs: 600_000 },
  });
  servers.push(server);
  return { server, plan, logged };
}

const hasArtifact = (args: readonly unknown[]) =>
  (args[1] as StreamResponse[]).some((e) => 'artifactUpdate' in e);

async function send(server: A2AServer, message: Message = userMessage('go')): Promise<Task> {
  const reply = await server.sendMessage({ message }, {});
  if (!('task' in reply)) throw new Error('expected a task');
  return reply.task;
}

describe('storage faults', () => {
  it('a publish the bus rejects (the creation snapshot) neither fails the send nor strands the task', async () => {
    const { server, plan } = setup();
    plan.fail('publish', { when: (args) => (args[1] as { seq: number }).seq === 1 });
    const task = await send(server);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(plan.failed).toEqual(['publish']);
    await server.idle();
    expect(server.ownership?.size).toBe(0); // no lease kept alive by the heartbeat
  });

  it('an append that fails fails the task with a message naming the storage fault, not the agent', async () => {
    const { server, plan, logged } = setup();
    plan.fail('append', { when: hasArtifact });
    const task = await send(server);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(task.status.message as Message)).toBe(STORAGE_FAILED_TEXT);
    expect(logged.join('\n')).not.toMatch(/agent failed/);
    expect(logged.join('\n')).toMatch(/the task store failed on task/);
    await server.idle();
    expect(server.ownership?.size).toBe(0);
  });

  it('a lease claim that fails at creation fails the task as a storage fault', async () => {
    const { server, plan } = setup();
    plan.fail('claim');
    const task = await send(server);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(task.status.message as Message)).toBe(STORAGE_FAILED_TEXT);
  });

  it('when even the failure cannot be recorded: a blocking send answers an error naming the store, the lease is freed, recovery ends the task, a retry does not hang', async () => {
    const { server, plan } = setup();
    plan.fail('append', { times: 4 }); // the artifact, then each attempt to record FAILED
    const message = userMessage('go');
    const error = await server.sendMessage({ message }, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe('INTERNAL');
    expect((error as A2AError).message).toMatch(/task store failed.*not an agent failure/);
    await server.idle();
    expect(server.ownership?.size).toBe(0);
    // The same message again follows the task until recovery (lease given up) has ended it.
    const retried = await send(server, message);
    expect(retried.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(retried.status.message as Message)).toBe(NOT_RESUMED_TEXT);
  });

  it('an append committed whose acknowledgement was lost: the blocking send answers the task as recorded', async () => {
    const { server, plan } = setup();
    plan.fail('append', { when: hasArtifact, after: true });
    const task = await send(server);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.map((a) => a.parts)).toEqual([[{ text: 'result' }]]);
    await server.idle();
    expect(server.ownership?.size).toBe(0);
  });

  it('an unfinished batch committed whose acknowledgement was lost: the send follows the task until recovery ends it', async () => {
    const { server, plan } = setup();
    plan.fail('append', {
      when: (args) =>
        (args[1] as StreamResponse[]).every(
          (e) => 'statusUpdate' in e && e.statusUpdate.status.state === 'TASK_STATE_WORKING',
        ),
      after: true,
    });
    const task = await send(server);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(task.status.message as Message)).toBe(NOT_RESUMED_TEXT);
  });

  it('a create that fails answers an error and leaves nothing running', async () => {
    const { server, plan } = setup();
    plan.fail('create');
    await expect(send(server)).rejects.toThrow(/the task store failed to create task/);
    expect(server.ownership?.size).toBe(0);
    expect((await send(server)).status.state).toBe('TASK_STATE_COMPLETED');
  });
});
