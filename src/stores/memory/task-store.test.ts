import { afterEach, describe, expect, it, vi } from 'vitest';
import { runTaskStoreSuite } from '../../testing/index.js';
import { freshScopes, newTask, statusEvent, uniqueId } from '../../testing/store-fixtures.js';
import { MemoryTaskStore } from './task-store.js';

runTaskStoreSuite({ name: 'memory', create: () => new MemoryTaskStore(), pagesByBytes: false });

describe('MemoryTaskStore retention', () => {
  const stores: MemoryTaskStore[] = [];
  const open = (options: ConstructorParameters<typeof MemoryTaskStore>[0]) => {
    const store = new MemoryTaskStore(options);
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('sweeps finished tasks older than the TTL and keeps running and recent ones', async () => {
    const store = open({ ttlMs: 1_000, sweepIntervalMs: 60_000 });
    const { scope } = freshScopes();
    const running = newTask({ state: 'TASK_STATE_WORKING' });
    const finished = newTask({});
    const messageId = uniqueId('m');
    await store.create(scope, running);
    await store.create(scope, finished, { messageId });
    await store.append(scope, finished.id, [statusEvent(finished, 'TASK_STATE_COMPLETED')], 1);
    store.sweep(Date.now() + 500);
    expect(store.size).toBe(2);
    store.sweep(Date.now() + 2_000);
    expect(await store.get(scope, finished.id)).toBeUndefined();
    expect(await store.findByMessageId(scope, messageId)).toBeUndefined();
    expect((await store.get(scope, running.id))?.task.status.state).toBe('TASK_STATE_WORKING');
    store.sweep(Date.now() + 10_000_000);
    expect(store.size).toBe(1);
  });

  it('sweeps a finished task even when an older running task changed recently', async () => {
    const store = open({ ttlMs: 1_000, sweepIntervalMs: 60_000 });
    const { scope } = freshScopes();
    const running = newTask({ state: 'TASK_STATE_WORKING' });
    const finished = newTask({ state: 'TASK_STATE_COMPLETED' });
    await store.create(scope, running);
    await store.create(scope, finished);
    vi.useFakeTimers({ now: Date.now() + 5_000, toFake: ['Date'] });
    // An artifact changes the running task without moving it in the retention order.
    await store.append(
      scope,
      running.id,
      [{ message: { messageId: 'x', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } }],
      1,
    );
    store.sweep();
    expect(await store.get(scope, finished.id)).toBeUndefined();
    expect(await store.get(scope, running.id)).toBeDefined();
  });

  it('packs a finished task at the end of the turn it finished in, not before', async () => {
    const store = open({});
    const { scope } = freshScopes();
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    await store.create(scope, task);
    await store.append(scope, task.id, [statusEvent(task, 'TASK_STATE_COMPLETED')], 1);
    // In the turn it finished in, reads get the task as it was (the same objects).
    const first = store.get(scope, task.id) as { task: unknown } | undefined;
    expect((store.get(scope, task.id) as { task: unknown } | undefined)?.task).toBe(first?.task);
    await new Promise((resolve) => setImmediate(resolve));
    // Packed: an equal snapshot, rebuilt on every read.
    const packed = await store.get(scope, task.id);
    expect(packed).toStrictEqual(first);
    expect((await store.get(scope, task.id))?.task).not.toBe(packed?.task);
    expect(await store.events(scope, task.id, 0)).toHaveLength(2);
  });

  it('sweeps on its own timer', async () => {
    vi.useFakeTimers();
    const store = open({ ttlMs: 1_000, sweepIntervalMs: 500 });
    const { scope } = freshScopes();
    const finished = newTask({ state: 'TASK_STATE_FAILED' });
    await store.create(scope, finished);
    vi.advanceTimersByTime(999);
    expect(store.size).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(store.size).toBe(0);
  });

  it('evicts the oldest finished tasks beyond the cap, whether created or finished by append', async () => {
    const store = open({ maxTasks: 3 });
    const { scope } = freshScopes();
    const created = Array.from({ length: 3 }, () => newTask({ state: 'TASK_STATE_COMPLETED' }));
    for (const task of created) await store.create(scope, task);
    const later = newTask({});
    await store.create(scope, later);
    await store.append(scope, later.id, [statusEvent(later, 'TASK_STATE_CANCELED')], 1);
    expect(await store.get(scope, created[0]?.id ?? '')).toBeUndefined();
    for (const task of [...created.slice(1), later])
      expect(await store.get(scope, task.id)).toBeDefined();
    await store.create(scope, newTask({ state: 'TASK_STATE_REJECTED' }));
    expect(await store.get(scope, created[1]?.id ?? '')).toBeUndefined();
    expect(store.size).toBe(3);
  });

  it('finds each scope after scopes alternate, empty and come back', async () => {
    const store = open({});
    const { scope, otherOwner, otherTenant } = freshScopes();
    const ids = new Map<string, string>();
    for (const s of [scope, otherOwner, scope, otherTenant, otherOwner]) {
      const task = newTask({ state: 'TASK_STATE_COMPLETED' });
      const messageId = uniqueId('m');
      await store.create(s, task, { messageId });
      ids.set(messageId, task.id);
      expect((await store.findByMessageId({ ...s }, messageId))?.taskId).toBe(task.id);
    }
    const page = (s: typeof scope) => store.list(s, { pageSize: 10 });
    expect((await page(scope)).totalSize).toBe(2);
    expect((await page(otherOwner)).totalSize).toBe(2);
    expect((await page(otherTenant)).totalSize).toBe(1);
    // The last task of a scope goes, then the scope gets a new one.
    const [only] = (await page(otherTenant)).tasks;
    await store.delete(otherTenant, only?.id ?? '');
    expect((await page(otherTenant)).totalSize).toBe(0);
    const again = newTask({});
    await store.create(otherTenant, again);
    expect((await page(otherTenant)).tasks.map((t) => t.id)).toEqual([again.id]);
    expect((await page(scope)).totalSize).toBe(2);
  });

  it('never evicts running or interrupted tasks, whatever the cap', async () => {
    const store = open({ maxTasks: 2, ttlMs: 1 });
    const { scope } = freshScopes();
    const states = [
      'TASK_STATE_WORKING',
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_INPUT_REQUIRED',
    ] as const;
    const live = Array.from({ length: 9 }, (_, i) =>
      newTask({ state: states[i % 3] ?? 'TASK_STATE_WORKING' }),
    );
    for (const task of live) await store.create(scope, task);
    for (let i = 0; i < 5; i++)
      await store.create(scope, newTask({ state: 'TASK_STATE_COMPLETED' }));
    store.sweep(Date.now() + 1_000);
    expect(store.size).toBe(9);
    for (const task of live) expect(await store.get(scope, task.id)).toBeDefined();
  });

  it('keeps the message index of a reused messageId when the first task goes', async () => {
    const store = open({});
    const { scope } = freshScopes();
    const [first, second] = [newTask({}), newTask({})];
    await store.create(scope, first, { messageId: 'same' });
    await store.create(scope, second, { messageId: 'same' });
    await store.delete(scope, first.id);
    expect((await store.findByMessageId(scope, 'same'))?.taskId).toBe(second.id);
  });
});

describe('MemoryTaskStore audit hashes of packed tasks', () => {
  // Past the tasks kept unpacked (256), a finished task is packed, its hashes into one string.
  const finishMany = async (store: MemoryTaskStore, chains: (n: number) => string[][]) => {
    const { scope } = freshScopes();
    const ids: string[] = [];
    for (let n = 0; n < 300; n++) {
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      const [first, ...rest] = chains(n);
      await store.create(scope, task, { chain: first });
      const events = [statusEvent(task, 'TASK_STATE_COMPLETED')];
      await store.append(scope, task.id, events, 1, rest[0] ? { chain: rest[0] } : {});
      ids.push(task.id);
    }
    return { scope, ids };
  };

  it('returns the same hash for every event once the task is packed', async () => {
    const store = new MemoryTaskStore();
    const hash = (n: number, seq: number) => `${String(n).padStart(40, 'h')}-${seq}`;
    const { scope, ids } = await finishMany(store, (n) => [[hash(n, 1)], [hash(n, 2)]]);
    for (const [n, id] of ids.entries()) {
      const log = await store.events(scope, id, 0);
      expect(log.map((e) => e.hash)).toEqual([hash(n, 1), hash(n, 2)]);
      expect((await store.events(scope, id, 1, 1)).map((e) => e.hash)).toEqual([hash(n, 2)]);
    }
    await store.close();
  });

  it('keeps hashes of different lengths, and a log linked only in part, as they were given', async () => {
    const store = new MemoryTaskStore();
    const { scope, ids } = await finishMany(store, (n) =>
      n % 2 === 0 ? [['a'], ['bbb']] : [['only-the-first']],
    );
    for (const [n, id] of ids.entries()) {
      const log = await store.events(scope, id, 0);
      expect(log.map((e) => e.hash)).toEqual(
        n % 2 === 0 ? ['a', 'bbb'] : ['only-the-first', undefined],
      );
    }
    await store.close();
  });
});
