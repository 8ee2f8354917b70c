/**
 * Unit tests of one reader's stream (task-stream.ts): order without gaps or duplicates, and the
 * memory bounds: catch-up pages bounded by bytes, a reader that falls behind paused (its live
 * buffer dropped) and caught up from the log when it reads again; with `readFirst`, the log read
 * before any subscription, and nothing missed between that read and the subscription.
 */
import { describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../core/schemas/index.js';
import { isTerminal } from '../core/task-state.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import type { EventBus, Scope, TaskStore } from '../stores/types.js';
import { openTaskStream } from './task-stream.js';

const scope: Scope = { tenant: '', owner: '' };

/** A SQLite store in memory that records the JSON size of every page `events()` returns. */
function recordingStore() {
  const store = new SqliteTaskStore({ path: ':memory:' });
  const pages: { entries: number; bytes: number; maxBytes: number | undefined }[] = [];
  const events: TaskStore['events'] = async (s, id, after, limit, maxBytes) => {
    const page = await store.events(s, id, after, limit, maxBytes);
    const bytes = page.reduce((n, e) => n + JSON.stringify(e.event).length, 0);
    pages.push({ entries: page.length, bytes, maxBytes });
    return page;
  };
  return { store: Object.assign(Object.create(store) as TaskStore, { events }), raw: store, pages };
}

function chunk(task: Task, i: number, bytes: number): StreamResponse {
  const artifact = { artifactId: `a${i}`, parts: [{ text: 'x'.repeat(bytes) }] };
  return { artifactUpdate: { taskId: task.id, contextId: task.contextId ?? '', artifact } };
}

const completed = (task: Task): StreamResponse => ({
  statusUpdate: {
    taskId: task.id,
    contextId: task.contextId ?? '',
    status: { state: 'TASK_STATE_COMPLETED' },
  },
});

async function* take(stream: AsyncIterable<{ id?: string | undefined }>) {
  for await (const item of stream) yield item.id;
}

/**
 * A recording store with one WORKING task `id`, and a stream of it opened from its snapshot
 * (already read: the snapshot is entry 1) with `limits`.
 */
async function snapshotStream(
  id: string,
  limits: { maxBufferedBytes?: number; maxPageBytes?: number } = {},
) {
  const { store, raw, pages } = recordingStore();
  const bus = new MemoryEventBus();
  const task: Task = { id, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
  await raw.create(scope, task);
  const stream = await openTaskStream({
    store,
    bus,
    scope,
    taskId: task.id,
    start: { mode: 'snapshot' },
    closeWhen: isTerminal,
    ...limits,
  });
  const iterator = stream[Symbol.asyncIterator]();
  expect((await iterator.next()).value).toMatchObject({ id: '1' });
  return { raw, pages, bus, task, iterator };
}

describe('openTaskStream', () => {
  it('replays a large log in pages bounded by maxPageBytes, every event once, in order', async () => {
    const { store, raw, pages } = recordingStore();
    const bus = new MemoryEventBus();
    const task: Task = { id: 't1', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
    await raw.create(scope, task);
    const events = Array.from({ length: 30 }, (_, i) => chunk(task, i, 100_000));
    await raw.append(scope, task.id, [...events, completed(task)], 1);
    const stream = await openTaskStream({
      store,
      bus,
      scope,
      taskId: task.id,
      start: { mode: 'replay', afterSeq: 0 },
      closeWhen: isTerminal,
      maxPageBytes: 250_000,
    });
    const ids: (string | undefined)[] = [];
    for await (const id of take(stream)) ids.push(id);
    expect(ids).toEqual(Array.from({ length: 32 }, (_, i) => String(i + 1)));
    expect(pages.every((p) => p.maxBytes === 250_000)).toBe(true);
    // A page ends with the entry that reaches the bound: never more than one entry beyond it.
    expect(Math.max(...pages.map((p) => p.bytes))).toBeLessThan(250_000 + 101_000);
    expect(pages.length).toBeGreaterThan(10);
    await raw.close();
  });

  it('pauses a reader that falls behind by maxBufferedBytes, then catches it up from the log', async () => {
    const { raw, pages, bus, task, iterator } = await snapshotStream('t2', {
      maxBufferedBytes: 300_000,
      maxPageBytes: 300_000,
    });
    // Nothing read while 20 events of 100 KB arrive: far past the live buffer.
    let seq = 1;
    for (let i = 0; i < 20; i++) {
      const event = chunk(task, i, 100_000);
      seq = await raw.append(scope, task.id, [event], seq);
      void bus.publish(scope.tenant, task.id, { seq, event });
    }
    seq = await raw.append(scope, task.id, [completed(task)], seq);
    void bus.publish(scope.tenant, task.id, { seq, event: completed(task) });
    const before = pages.length;
    const ids: (string | undefined)[] = [];
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) ids.push(r.value.id);
    expect(ids).toEqual(Array.from({ length: 21 }, (_, i) => String(i + 2)));
    // It read the dropped events from the log, in pages, instead of holding them.
    expect(pages.length - before).toBeGreaterThan(3);
    await raw.close();
  });

  it('delivers live events from the buffer while the reader keeps up', async () => {
    const { raw, pages, bus, task, iterator } = await snapshotStream('t3');
    const event = chunk(task, 0, 10);
    await raw.append(scope, task.id, [event, completed(task)], 1);
    void bus.publish(scope.tenant, task.id, { seq: 2, event });
    void bus.publish(scope.tenant, task.id, { seq: 3, event: completed(task) });
    const read = pages.length;
    expect((await iterator.next()).value).toMatchObject({ id: '2' });
    expect((await iterator.next()).value).toMatchObject({ id: '3' });
    expect((await iterator.next()).done).toBe(true);
    expect(pages.length - read).toBeLessThanOrEqual(1); // the opening catch-up at most
    await raw.close();
  });

  describe('readFirst', () => {
    /** A memory store with task `id` (WORKING) and `events` recorded after its snapshot. */
    function memoryTask(id: string, events: (task: Task) => StreamResponse[]) {
      const store = new MemoryTaskStore();
      const task: Task = { id, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
      void store.create(scope, task);
      let seq = 1;
      const record = (event: StreamResponse) => {
        void store.append(scope, id, [event], seq);
        return ++seq;
      };
      for (const event of events(task)) record(event);
      return { store, task, record };
    }

    /** A memory bus whose subscriptions take effect a turn late, counted. */
    function lateBus(onSubscribe: () => void = () => undefined) {
      const bus = new MemoryEventBus();
      let subscriptions = 0;
      const late: EventBus = Object.assign(Object.create(bus) as EventBus, {
        subscribe: async (...args: Parameters<EventBus['subscribe']>) => {
          subscriptions++;
          onSubscribe();
          await new Promise((r) => setImmediate(r));
          return bus.subscribe(...args);
        },
      });
      return { bus, late, subscriptions: () => subscriptions };
    }

    /** A readFirst stream of the whole log until a terminal state; `extra` adds options. */
    function replayAll(
      store: TaskStore,
      bus: EventBus,
      taskId: string,
      extra: Partial<Parameters<typeof openTaskStream>[0]> = {},
    ) {
      return openTaskStream({
        store,
        bus,
        scope,
        taskId,
        start: { mode: 'replay', afterSeq: 0 },
        closeWhen: isTerminal,
        readFirst: true,
        ...extra,
      });
    }

    it('streams a task whose closing event is recorded without subscribing or reading the signal', async () => {
      const { store, task } = memoryTask('r1', (t) => [chunk(t, 0, 10), completed(t)]);
      const { late, subscriptions } = lateBus();
      let signalReads = 0;
      const stream = await replayAll(store, late, task.id, {
        signalOf: () => {
          signalReads++;
          return undefined;
        },
      });
      const ids: (string | undefined)[] = [];
      for await (const id of take(stream)) ids.push(id);
      expect(ids).toEqual(['1', '2', '3']);
      expect(subscriptions()).toBe(0);
      expect(signalReads).toBe(0);
    });

    it('subscribes once the log is read, and reads again: an event recorded meanwhile is not missed', async () => {
      const { store, task, record } = memoryTask('r2', (t) => [chunk(t, 0, 10)]);
      // Recorded (and published to nobody yet) while the subscription is being made.
      let recordedMeanwhile = false;
      const { bus, late, subscriptions } = lateBus(() => {
        if (recordedMeanwhile) return;
        recordedMeanwhile = true;
        const seq = record(chunk(task, 1, 10));
        bus.publish('', task.id, { seq, event: chunk(task, 1, 10) });
      });
      let signalReads = 0;
      const stream = await replayAll(store, late, task.id, {
        signalOf: () => {
          signalReads++;
          return new AbortController().signal;
        },
      });
      const iterator = stream[Symbol.asyncIterator]();
      const ids: (string | undefined)[] = [];
      for (let i = 0; i < 3; i++) ids.push(((await iterator.next()).value as { id: string }).id);
      expect(ids).toEqual(['1', '2', '3']);
      expect(subscriptions()).toBe(1);
      expect(signalReads).toBe(1);
      // Live from here: through the bus.
      const pending = iterator.next();
      const seq = record(completed(task));
      bus.publish('', task.id, { seq, event: completed(task) });
      expect((await pending).value).toMatchObject({ id: '4' });
      expect((await iterator.next()).done).toBe(true);
      expect(bus.activeTasks).toBe(0);
    });

    it('subscribes first, and reads again, when the store answers with a promise', async () => {
      const { store: at, task, record } = memoryTask('r3', (t) => [chunk(t, 0, 10)]);
      const memory: TaskStore = at;
      const store = Object.assign(Object.create(memory) as TaskStore, {
        events: (...args: Parameters<TaskStore['events']>) =>
          Promise.resolve(memory.events(...args)),
      });
      const { bus, late, subscriptions } = lateBus();
      let promisedReads = 0;
      const stream = await replayAll(store, late, task.id, {
        onPromisedRead: () => promisedReads++,
      });
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ id: '1' });
      expect((await iterator.next()).value).toMatchObject({ id: '2' });
      const pending = iterator.next();
      await new Promise((r) => setImmediate(r));
      const seq = record(completed(task));
      bus.publish('', task.id, { seq, event: completed(task) });
      expect((await pending).value).toMatchObject({ id: '3' });
      expect((await iterator.next()).done).toBe(true);
      expect(promisedReads).toBe(1);
      expect(subscriptions()).toBe(1);
      expect(bus.activeTasks).toBe(0);
    });

    it('leaves no subscription behind when the reader stops while it waits for a live event', async () => {
      const { store, task } = memoryTask('r4', () => []);
      const { bus, late } = lateBus();
      const stream = await replayAll(store, late, task.id);
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ id: '1' });
      const pending = iterator.next(); // waiting for a live event
      await iterator.return?.();
      expect((await pending).done).toBe(true);
      expect(bus.activeTasks).toBe(0);
    });

    it('fails the open without readFirst, and the stream after the recorded events with it, when the subscription fails', async () => {
      const { store, task } = memoryTask('r5', (t) => [chunk(t, 0, 10)]);
      const failing: EventBus = Object.assign(Object.create(new MemoryEventBus()) as EventBus, {
        subscribe: () => Promise.reject(new Error('bus down')),
      });
      const open = (readFirst: boolean) => replayAll(store, failing, task.id, { readFirst });
      await expect(Promise.resolve().then(() => open(false))).rejects.toThrow('bus down');
      const iterator = (await open(true))[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ id: '1' });
      expect((await iterator.next()).value).toMatchObject({ id: '2' });
      await expect(iterator.next()).rejects.toThrow('bus down');
    });
  });
});
