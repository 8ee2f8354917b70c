/**
 * TaskLog, the one write path of a task, in isolation on the memory store: store, then bus, then
 * push, in that order; push deliveries enqueued by the store's own append when it keeps the
 * notifier's outbox; the batch rule; a bus that refuses a publish never fails the write; a store
 * that fails is reported as a StorageError; the per-task byte budget refuses a batch whole.
 */
import { describe, expect, it } from 'vitest';
import { userMessage } from '../core/parts.js';
import type { StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import {
  ConcurrencyError,
  StorageError,
  type EventBus,
  type LogEntry,
  type Scope,
} from '../stores/types.js';
import { FaultPlan, faultyStore } from '../../test/helpers/faulty-store.js';
import type { PushNotifier } from './push-configs.js';
import { TaskBytes } from './event-size.js';
import { TaskBudgetError, TaskLog } from './task-log.js';

const scope: Scope = { tenant: 't', owner: 'o' };
/** A log call as a promise: with the memory store it answers (or throws) synchronously. */
const settled = <T>(call: () => T | Promise<T>): Promise<T> => Promise.resolve().then(call);
let n = 0;
const newTask = (): Task => ({
  id: `task-${++n}`,
  contextId: 'ctx',
  status: { state: 'TASK_STATE_SUBMITTED' },
  history: [userMessage('hi')],
});
const status = (task: Task, state: TaskState): StreamResponse => ({
  statusUpdate: { taskId: task.id, contextId: 'ctx', status: { state } },
});
const chunk = (task: Task): StreamResponse => ({
  artifactUpdate: {
    taskId: task.id,
    contextId: 'ctx',
    artifact: { artifactId: 'a', parts: [{ text: 'x' }] },
  },
});

/** A bus that records what it publishes into a shared trace. */
function tracingBus(trace: string[], inner: EventBus = new MemoryEventBus()): EventBus {
  return {
    publish: (tenant, taskId, entry) => {
      trace.push(`bus ${entry.seq}`);
      return inner.publish(tenant, taskId, entry);
    },
    subscribe: (tenant, taskId, listener) => inner.subscribe(tenant, taskId, listener),
    close: () => inner.close(),
  };
}

/** A notifier without an outbox: it is handed the entries after the bus. */
function notifyingNotifier(trace: string[]): PushNotifier {
  return {
    notify: async (_scope, _taskId, entries) => {
      trace.push(`notify ${entries.map((e) => e.seq).join(',')}`);
    },
  };
}

describe('TaskLog', () => {
  it('writes store, then bus, then push, and advances the position it was given', async () => {
    const trace: string[] = [];
    const store = new MemoryTaskStore();
    const log = new TaskLog({ store, bus: tracingBus(trace), notifier: notifyingNotifier(trace) });
    const task = newTask();
    const created = await log.create(scope, task, { messageId: 'm1' });
    expect(created).toEqual({ seq: 1, event: { task } });
    expect(trace).toEqual([]); // create writes the store only; announce publishes
    await log.announce(scope, task.id, [created]);
    const at = { seq: 1, state: 'TASK_STATE_SUBMITTED' as TaskState };
    const written = await log.append(
      scope,
      task.id,
      [status(task, 'TASK_STATE_WORKING'), chunk(task)],
      at,
    );
    expect(written).toBe(true);
    expect(at).toEqual({ seq: 3, state: 'TASK_STATE_WORKING' });
    expect(trace).toEqual(['bus 1', 'notify 1', 'bus 2', 'bus 3', 'notify 2,3']);
    expect((await store.get(scope, task.id))?.seq).toBe(3);
    expect((await store.findByMessageId(scope, 'm1'))?.taskId).toBe(task.id);
  });

  it('writes nothing for a batch the state machine refuses (batchProblem)', async () => {
    const trace: string[] = [];
    const store = new MemoryTaskStore();
    const log = new TaskLog({ store, bus: tracingBus(trace) });
    const task = newTask();
    await log.create(scope, task);
    const at = { seq: 1, state: 'TASK_STATE_SUBMITTED' as TaskState };
    await log.append(scope, task.id, [status(task, 'TASK_STATE_CANCELED')], at);
    const late = await log.append(scope, task.id, [status(task, 'TASK_STATE_WORKING')], at);
    expect(late).toBe(false);
    expect(at).toEqual({ seq: 2, state: 'TASK_STATE_CANCELED' });
    expect(trace).toEqual(['bus 2']);
  });

  it('enqueues the deliveries in the store append when the store keeps the notifier outbox, then wakes it', async () => {
    const trace: string[] = [];
    const store = new MemoryTaskStore();
    const outbox = store.pushOutbox();
    const notifier: PushNotifier = {
      notify: async () => {
        trace.push('notify');
      },
      fanout: {
        outbox,
        configs: store,
        pushes: (event) => 'statusUpdate' in event,
        wake: () => trace.push('wake'),
      },
    };
    const log = new TaskLog({ store, bus: tracingBus(trace), notifier });
    expect(log.fansOutInStore).toBe(true);
    const task = newTask();
    await log.create(scope, task);
    await store.putPushConfig(scope, { taskId: task.id, id: 'c', url: 'https://hook.example/' });
    const at = { seq: 1, state: 'TASK_STATE_SUBMITTED' as TaskState };
    await log.append(scope, task.id, [status(task, 'TASK_STATE_WORKING'), chunk(task)], at);
    expect(trace).toEqual(['bus 2', 'bus 3', 'wake']);
    const queued = await outbox.list(task.id);
    expect(queued.map((d) => [d.configId, d.seq, d.body])).toEqual([
      ['c', 2, JSON.stringify(status(task, 'TASK_STATE_WORKING'))],
    ]);
    // Nothing to deliver (artifact only): no wake.
    trace.length = 0;
    await log.append(scope, task.id, [chunk(task)], at);
    expect(trace).toEqual(['bus 4']);
  });

  it('hands the entries to notify when the notifier outbox is not the store one', async () => {
    const trace: string[] = [];
    const store = new MemoryTaskStore();
    const other = new MemoryTaskStore();
    const notifier: PushNotifier = {
      notify: async (_s, _t, entries) => {
        trace.push(`notify ${entries.length}`);
      },
      fanout: {
        outbox: other.pushOutbox(),
        configs: other,
        pushes: () => true,
        wake: () => trace.push('wake'),
      },
    };
    const log = new TaskLog({ store, bus: tracingBus(trace), notifier });
    expect(log.fansOutInStore).toBe(false);
    const task = newTask();
    await log.create(scope, task);
    await log.append(scope, task.id, [status(task, 'TASK_STATE_WORKING')], {
      seq: 1,
      state: 'TASK_STATE_SUBMITTED',
    });
    expect(trace).toEqual(['bus 2', 'notify 1']);
  });

  it('a publish the bus refuses does not fail the write and is retried', async () => {
    const warnings: string[] = [];
    const delivered: LogEntry[] = [];
    const inner = new MemoryEventBus();
    let refuse = 1;
    const bus: EventBus = {
      publish: async (tenant, taskId, entry) => {
        if (refuse-- > 0) throw new Error('connection lost');
        inner.publish(tenant, taskId, entry);
      },
      subscribe: (tenant, taskId, listener) => inner.subscribe(tenant, taskId, listener),
      close: () => inner.close(),
    };
    const store = new MemoryTaskStore();
    const log = new TaskLog({
      store,
      bus,
      logger: { warn: (m: string) => warnings.push(m), error: () => undefined },
    });
    const task = newTask();
    await log.create(scope, task);
    await bus.subscribe(scope.tenant, task.id, (entry) => delivered.push(entry));
    const ok = await log.append(scope, task.id, [status(task, 'TASK_STATE_WORKING')], {
      seq: 1,
      state: 'TASK_STATE_SUBMITTED',
    });
    expect(ok).toBe(true);
    expect(warnings.join()).toMatch(
      /publishing entry 2 of task .* failed \(it is stored\); retrying/,
    );
    await expect.poll(() => delivered.map((e) => e.seq)).toEqual([2]);
  });

  it('reports a failing store as a StorageError and a lost race as a ConcurrencyError', async () => {
    const plan = new FaultPlan();
    const store = faultyStore(new MemoryTaskStore(), plan);
    const log = new TaskLog({ store, bus: new MemoryEventBus() });
    const task = newTask();
    plan.fail('create');
    await expect(settled(() => log.create(scope, task))).rejects.toBeInstanceOf(StorageError);
    await log.create(scope, task);
    plan.fail('append');
    const at = { seq: 1, state: 'TASK_STATE_SUBMITTED' as TaskState };
    const failed = settled(() =>
      log.append(scope, task.id, [status(task, 'TASK_STATE_WORKING')], at),
    );
    await expect(failed).rejects.toThrow(
      /the task store failed to append to task .*: Connection terminated/,
    );
    expect(at.seq).toBe(1); // not advanced
    await expect(
      settled(() =>
        log.append(scope, task.id, [status(task, 'TASK_STATE_WORKING')], {
          seq: 5,
          state: 'TASK_STATE_SUBMITTED',
        }),
      ),
    ).rejects.toBeInstanceOf(ConcurrencyError);
  });
});

describe('TaskLog byte budget (memory.maxTaskBytes)', () => {
  const big = (task: Task, id: string, size: number): StreamResponse => ({
    artifactUpdate: {
      taskId: task.id,
      contextId: 'ctx',
      artifact: { artifactId: id, parts: [{ text: 'x'.repeat(size) }] },
    },
  });

  it('refuses a batch past the budget whole: nothing stored, published or counted', async () => {
    const store = new MemoryTaskStore();
    const trace: string[] = [];
    const log = new TaskLog({ store, bus: tracingBus(trace), maxTaskBytes: 10_000 });
    const task = newTask();
    await log.create(scope, task);
    const at = { seq: 1, state: 'TASK_STATE_SUBMITTED' as TaskState, bytes: new TaskBytes(task) };
    const before = at.bytes.total;
    const refused = settled(() =>
      log.append(scope, task.id, [big(task, 'a', 4_000), big(task, 'b', 7_000)], at),
    );
    await expect(refused).rejects.toBeInstanceOf(TaskBudgetError);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_PARAMS', maxTaskBytes: 10_000 });
    expect(await store.events(scope, task.id, 1)).toEqual([]);
    expect(trace).toEqual([]);
    expect(at).toMatchObject({ seq: 1, state: 'TASK_STATE_SUBMITTED' });
    expect(at.bytes.total).toBe(before);
    // What fits is written and counted; a small closing status always fits.
    expect(await log.append(scope, task.id, [big(task, 'a', 4_000)], at)).toBe(true);
    expect(at.bytes.total).toBeGreaterThan(before + 4_000);
    await expect(
      settled(() => log.append(scope, task.id, [big(task, 'b', 7_000)], at)),
    ).rejects.toBeInstanceOf(TaskBudgetError);
    expect(await log.append(scope, task.id, [status(task, 'TASK_STATE_FAILED')], at)).toBe(true);
    expect((await store.get(scope, task.id))?.task.status.state).toBe('TASK_STATE_FAILED');
  });

  it('refuses to create a task whose first message is past the budget', async () => {
    const log = new TaskLog({
      store: new MemoryTaskStore(),
      bus: new MemoryEventBus(),
      maxTaskBytes: 1_000,
    });
    const task = { ...newTask(), history: [userMessage('y'.repeat(2_000))] };
    await expect(settled(() => log.create(scope, task))).rejects.toBeInstanceOf(TaskBudgetError);
  });
});
