/**
 * Ownership across instances, with two or three A2AServers sharing one MemoryTaskStore and one
 * MemoryEventBus (what instances sharing PostgreSQL do, without the database; the integration
 * suite repeats the essentials with real processes). An instance "dies" when its ownership is
 * closed: no more heartbeats, no recovery loop, no bus watches, its agent stuck.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { Scope } from '../stores/types.js';
import { A2AServer } from './a2a-server.js';
import { createAgent, type Agent, type ExecutionContext } from './agent.js';
import { NOT_RESUMED_TEXT } from './recovery.js';

const TTL = 200;
const scope: Scope = { tenant: '', owner: '' };
const card = {
  name: 'T',
  description: 'ownership test agent',
  version: '1',
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
};

/** An agent that works in steps, each waiting for the test to call `step()`. */
function steppingAgent(recovery?: Agent['recovery']) {
  const seen: ExecutionContext[] = [];
  let release: (() => void)[] = [];
  const aborted: string[] = [];
  const wait = (signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (signal.aborted) return resolve(false);
      release.push(() => resolve(true));
      signal.addEventListener('abort', () => resolve(false), { once: true });
    });
  const agent = createAgent({
    card,
    ...(recovery ? { recovery } : {}),
    async *execute(context) {
      seen.push(context);
      const { task, signal, message } = context;
      if (context.current && !context.recovered) {
        yield task.completed(`answered ${textOf(message)}`);
        return;
      }
      yield task.working(context.recovered ? 'recovered' : 'started');
      if (textOf(message) === 'ask') {
        yield task.inputRequired('which one?');
        return;
      }
      for (let i = 0; i < 3; i++) {
        if (!(await wait(signal))) {
          aborted.push(task.id);
          return;
        }
        yield task.artifact(`step ${i}`, { artifactId: 'a', append: i > 0 });
      }
      yield task.completed();
    },
  });
  const step = () => {
    const pending = release;
    release = [];
    for (const r of pending) r();
  };
  return { agent, seen, aborted, step };
}

const opened: A2AServer[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.ownership?.close();
});

/** Instances sharing one store and one bus. */
function cluster(agent: Agent) {
  const store = new MemoryTaskStore();
  const bus = new MemoryEventBus();
  const warnings: string[] = [];
  const logger = { warn: (...a: unknown[]) => warnings.push(a.join(' ')), error: () => undefined };
  const instance = (ownership: ConstructorParameters<typeof A2AServer>[0]['ownership'] = {}) => {
    const options = ownership === false ? false : { leaseTtlMs: TTL, ...ownership };
    const server = new A2AServer({ agent, store, bus, logger, ownership: options });
    opened.push(server);
    return server;
  };
  return { store, instance, warnings };
}

async function start(server: A2AServer, text = 'work'): Promise<Task> {
  const result = await server.sendMessage(
    { message: userMessage(text), configuration: { returnImmediately: true } },
    {},
  );
  if (!('task' in result)) throw new Error('expected a task');
  return result.task;
}

async function stateOf(store: MemoryTaskStore, id: string): Promise<TaskState | undefined> {
  return (await store.get(scope, id))?.task.status.state;
}

async function log(store: MemoryTaskStore, id: string): Promise<StreamResponse[]> {
  return (await store.events(scope, id, 0)).map((e) => e.event);
}

const statusText = (task: Task | undefined) => textOf(task?.status.message ?? { parts: [] });

describe('task ownership across instances', () => {
  it('stops the work where it runs when CancelTask reaches another instance', async () => {
    const { agent, aborted, step } = steppingAgent();
    const { store, instance } = cluster(agent);
    const [a, b] = [instance(), instance()];
    const task = await start(a);
    await vi.waitFor(async () => expect(await stateOf(store, task.id)).toBe('TASK_STATE_WORKING'));

    const canceled = await b.cancelTask({ id: task.id }, {});
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await vi.waitFor(() => expect(aborted).toEqual([task.id]));
    step();
    await a.idle();
    const events = await log(store, task.id);
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_CANCELED' } },
    });
    expect(events.filter((e) => 'artifactUpdate' in e)).toEqual([]);
    expect(a.ownership?.size).toBe(0);
  });

  it('fails the task of a stopped instance within the lease timeout, saying why', async () => {
    const { agent, step } = steppingAgent();
    const { store, instance, warnings } = cluster(agent);
    const a = instance();
    const task = await start(a);
    await vi.waitFor(async () => expect(await stateOf(store, task.id)).toBe('TASK_STATE_WORKING'));
    await a.ownership?.close(); // a dies: no heartbeat, no watch
    const died = Date.now();
    instance();

    await vi.waitFor(async () => expect(await stateOf(store, task.id)).toBe('TASK_STATE_FAILED'), {
      timeout: 3 * TTL,
      interval: 10,
    });
    expect(Date.now() - died).toBeLessThanOrEqual(1.25 * TTL + 100);
    const failed = (await store.get(scope, task.id))?.task;
    expect(statusText(failed)).toBe(NOT_RESUMED_TEXT);
    expect(warnings.join('\n')).toMatch(/taking over task .* marking it failed/);

    // The old instance wakes up: its next append loses, and it stops without a word.
    const before = (await store.get(scope, task.id))?.seq;
    const warned = warnings.length;
    step();
    await a.idle();
    expect((await store.get(scope, task.id))?.seq).toBe(before);
    expect(warnings.length).toBe(warned);
  });

  it("resumes the task of a stopped instance when the agent declares recovery: 'resume'", async () => {
    const { agent, seen, step } = steppingAgent('resume');
    const { store, instance } = cluster(agent);
    const a = instance();
    const task = await start(a);
    step();
    await vi.waitFor(async () => expect((await store.get(scope, task.id))?.seq).toBe(3));
    await a.ownership?.close();
    const b = instance();

    await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 3 * TTL, interval: 10 });
    const context = seen[1];
    expect(context?.recovered).toBe(true);
    expect(textOf(context?.message ?? { parts: [] })).toBe('work');
    expect(context?.current?.artifacts?.[0]?.parts).toEqual([{ text: 'step 0' }]);
    expect(seen[0]?.recovered).toBe(false);
    // Both executions wait for a step now; b's continues and completes, a's is halted.
    for (let i = 0; i < 3; i++) {
      step();
      await new Promise((r) => setTimeout(r, 10));
    }
    await vi.waitFor(async () =>
      expect(await stateOf(store, task.id)).toBe('TASK_STATE_COMPLETED'),
    );
    await b.idle();
    await a.idle();
    const statuses = (await log(store, task.id)).flatMap((e) =>
      'statusUpdate' in e ? [e.statusUpdate.status.state] : [],
    );
    expect(statuses.filter((s) => s === 'TASK_STATE_COMPLETED')).toHaveLength(1);
  });

  it('halts an execution whose lease another instance took over while it was stalled', async () => {
    const { agent, step } = steppingAgent('resume');
    const { store, instance, warnings } = cluster(agent);
    const a = instance({ leaseTtlMs: 60_000 });
    const b = instance({ leaseTtlMs: 60_000, instanceId: 'b' });
    const task = await start(a);
    await vi.waitFor(async () => expect(await stateOf(store, task.id)).toBe('TASK_STATE_WORKING'));
    // As if a had missed its heartbeats: b finds the lease expired and resumes the task.
    await store.leaseStore().expireOthers('b');
    await b.ownership?.scan();
    await vi.waitFor(() => expect(b.ownership?.size).toBe(1));
    await a.ownership?.renew();
    expect(warnings.join('\n')).toMatch(/lost the lease of task/);
    for (let i = 0; i < 4; i++) {
      step();
      await new Promise((r) => setTimeout(r, 10));
    }
    await a.idle();
    await b.idle();
    const events = await log(store, task.id);
    expect(events.filter((e) => 'artifactUpdate' in e)).toHaveLength(3); // b's three steps only
    expect(await stateOf(store, task.id)).toBe('TASK_STATE_COMPLETED');
  });

  it('lets a task waiting for input be continued on another instance', async () => {
    const { agent } = steppingAgent();
    const { store, instance } = cluster(agent);
    const [a, b] = [instance(), instance()];
    const asked = await a.sendMessage({ message: userMessage('ask') }, {});
    const task = 'task' in asked ? asked.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await a.idle();
    expect(a.ownership?.size).toBe(0);

    const answer = userMessage('the blue one', { taskId: task?.id ?? '' });
    const done = await b.sendMessage({ message: answer }, {});
    expect('task' in done && done.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(statusText((await store.get(scope, task?.id ?? ''))?.task)).toBe(
      'answered the blue one',
    );
  });

  it('takes over at once, when told no other instance is alive, the tasks of the previous run', async () => {
    const { agent } = steppingAgent();
    const { store, instance } = cluster(agent);
    const a = instance({ leaseTtlMs: 60_000 });
    const task = await start(a);
    await vi.waitFor(async () => expect(await stateOf(store, task.id)).toBe('TASK_STATE_WORKING'));
    await a.ownership?.close(); // the process was killed
    await instance({ leaseTtlMs: 60_000 }).ownership?.takeOverAll();
    await vi.waitFor(async () => expect(await stateOf(store, task.id)).toBe('TASK_STATE_FAILED'), {
      timeout: 1_000,
    });
  });

  it('takes over a task whose instance died before it claimed it', async () => {
    const { agent } = steppingAgent();
    const { store, instance } = cluster(agent);
    const orphan: Task = {
      id: 'never-claimed',
      contextId: 'ctx',
      status: { state: 'TASK_STATE_SUBMITTED' },
      history: [userMessage('work')],
    };
    await store.create(scope, orphan);
    instance();
    await vi.waitFor(
      async () => expect(await stateOf(store, orphan.id)).toBe('TASK_STATE_FAILED'),
      {
        timeout: 4 * TTL,
      },
    );
  });

  it('keeps out of the way when ownership is off', async () => {
    const { agent, step } = steppingAgent();
    const { instance } = cluster(agent);
    const a = instance(false);
    expect(a.ownership).toBeUndefined();
    const task = await start(a);
    for (let i = 0; i < 3; i++) {
      step();
      await new Promise((r) => setTimeout(r, 5));
    }
    await a.idle();
    expect((await a.getTask({ id: task.id }, {})).status.state).toBe('TASK_STATE_COMPLETED');
  });
});
