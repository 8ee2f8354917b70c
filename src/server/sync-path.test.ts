/**
 * The synchronous fast path (core/maybe-async.ts): with the memory store, which answers at once,
 * the task log writes without a promise and a blocking send waits only for the agent's steps;
 * with a store answering a turn later, the same code takes the asynchronous path. Both give the
 * same answers (a completed echo, a paused task resumed, a retry attached, a failing agent).
 */
import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { answeringLater } from '../../test/helpers/async-store.js';
import { isPromise } from '../core/maybe-async.js';
import { textOf, userMessage } from '../core/parts.js';
import type { Message, SendMessageResponse, Task } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { Scope, TaskStore } from '../stores/types.js';
import { A2AServer } from './a2a-server.js';
import { createAgent } from './agent.js';
import { TaskLog } from './task-log.js';

const scope: Scope = { tenant: '', owner: '' };

const agent = createAgent({
  card: { name: 'Sync path', description: 'echo, ask, fail', version: '1', skills: [] },
  async *execute({ message, task, current }) {
    const text = textOf(message);
    if (text === 'fail') throw new Error('boom');
    yield task.working();
    if (text === 'ask' && current === undefined) {
      yield task.inputRequired('more?');
      return;
    }
    yield task.artifact(`echo: ${text}`, { name: 'echo' });
    yield task.completed();
  },
});

const stores: [string, () => TaskStore][] = [
  ['the memory store (synchronous path)', () => new MemoryTaskStore()],
  ['a store answering later (asynchronous path)', () => answeringLater(new MemoryTaskStore())],
];

/** What a task answer says, without its ids and timestamps. */
function shape(response: SendMessageResponse): unknown {
  if (!('task' in response) || !response.task) return response;
  const task: Task = response.task;
  return {
    state: task.status.state,
    status: task.status.message && textOf(task.status.message),
    artifacts: task.artifacts?.map((a) => textOf(a)),
    history: task.history?.map((m) => `${m.role} ${textOf(m)}`),
  };
}

/** A conversation through A2AServer.sendMessage: echo, ask and answer, a retry, a failure. */
async function conversation(store: TaskStore): Promise<unknown[]> {
  const server = new A2AServer({ agent, store, logger: null, idempotency: { windowMs: 60_000 } });
  const send = (message: Message) => server.sendMessage({ message }, {});
  const answers: unknown[] = [];
  answers.push(shape(await send(userMessage('hello'))));
  const asked = await send(userMessage('ask'));
  answers.push(shape(asked));
  const taskId = 'task' in asked ? asked.task?.id : undefined;
  answers.push(shape(await send({ ...userMessage('here'), taskId })));
  const retried = userMessage('again');
  const first = await send(retried);
  const second = await send(retried);
  answers.push(
    shape(first),
    'task' in second && 'task' in first && second.task?.id === first.task?.id,
  );
  answers.push(shape(await send(userMessage('fail'))));
  await server.idle();
  await server.close();
  return answers;
}

/** Promises made by `calls` blocking echo sends (after a warm-up). */
async function promisesPerSend(store: TaskStore, calls: number): Promise<number> {
  const server = new A2AServer({ agent, store, logger: null });
  const send = () => server.sendMessage({ message: userMessage('hello') }, {});
  for (let i = 0; i < 20; i++) await send();
  let count = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') count++;
    },
  }).enable();
  for (let i = 0; i < calls; i++) await send();
  hook.disable();
  await server.close();
  return count / calls;
}

describe('the synchronous fast path', () => {
  it('gives the same answers on both paths', async () => {
    const [sync, async] = await Promise.all(stores.map(([, store]) => conversation(store())));
    expect(sync).toEqual(async);
    expect(sync).toMatchObject([
      { state: 'TASK_STATE_COMPLETED', artifacts: ['echo: hello'] },
      { state: 'TASK_STATE_INPUT_REQUIRED', status: 'more?' },
      { state: 'TASK_STATE_COMPLETED', artifacts: ['echo: here'] },
      { state: 'TASK_STATE_COMPLETED', artifacts: ['echo: again'] },
      true,
      { state: 'TASK_STATE_FAILED' },
    ]);
  });

  it('writes the task log without a promise when the store answers at once', async () => {
    for (const [name, store] of stores) {
      const log = new TaskLog({ store: store(), bus: new MemoryEventBus() });
      const task: Task = {
        id: `t-${name.length}`,
        contextId: 'c',
        status: { state: 'TASK_STATE_SUBMITTED' },
      };
      const created = log.create(scope, task);
      const at = { seq: 1, state: task.status.state };
      const working = {
        statusUpdate: {
          taskId: task.id,
          contextId: 'c',
          status: { state: 'TASK_STATE_WORKING' as const },
        },
      };
      const sync = !isPromise(created);
      await created;
      const appended = log.append(scope, task.id, [working], at);
      expect(isPromise(appended), name).toBe(!sync);
      expect(await appended).toBe(true);
      expect(at.seq).toBe(2);
      expect(sync, name).toBe(store() instanceof MemoryTaskStore);
    }
  });

  it('waits for no store call on the memory store: fewer promises per blocking send', async () => {
    const [sync, async] = [
      await promisesPerSend(new MemoryTaskStore(), 50),
      await promisesPerSend(answeringLater(new MemoryTaskStore()), 50),
    ];
    // The store calls of a send (the retry index, create, append, the answer's read) cost the
    // asynchronous path promises of their own; the synchronous path waits only for the agent's
    // steps (31 promises per send measured on Node 20: its async generator's, the readiness
    // turns, the settled wait). The budget fails if any store call were waited for again.
    expect(async - sync).toBeGreaterThanOrEqual(12);
    expect(sync).toBeLessThanOrEqual(32);
  });
});
