/**
 * The memory store's ListTasks index, retention queue and packed finished tasks against a model:
 * thousands of random creates, status changes (timestamps in and out of order, equal or
 * missing), artifacts, deletes, TTL sweeps and evictions, with every list page, snapshot, log and
 * messageId lookup compared to a brute-force filter and sort over the model.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamResponse, Task, TaskState } from '../../core/schemas/index.js';
import {
  TaskProjection,
  TaskTransitionError,
  canTransition,
  isTerminal,
} from '../../core/task-state.js';
import { at, attempt, textArtifact } from '../../testing/store-fixtures.js';
import { encodePageToken, newestFirst } from '../paging.js';
import { ConcurrencyError, type Scope, type TaskQuery } from '../types.js';
import { MemoryTaskStore } from './task-store.js';

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATES: TaskState[] = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

interface Modeled {
  scope: Scope;
  projection: TaskProjection;
  events: StreamResponse[];
  messageIds: string[];
  finishedAt?: number;
}

const TTL = 60_000;
const MAX_TASKS = 300;

describe('MemoryTaskStore index, retention and packing against a model', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([1, 2, 3])('agrees with a brute-force model (seed %i)', async (seed) => {
    const next = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    let now = Date.UTC(2030, 0, 1);
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const store = new MemoryTaskStore({ ttlMs: TTL, maxTasks: MAX_TASKS, sweepIntervalMs: 1e9 });
    const scopes: Scope[] = [
      { tenant: 't1', owner: 'alice' },
      { tenant: 't1', owner: 'bob' },
      { tenant: '', owner: '' },
    ];
    const contexts = ['ctx-a', 'ctx-b', 'ctx-c'];
    const model = new Map<string, Modeled>();
    const finishedOrder: string[] = [];
    const messages = new Map<string, string>();
    const messageKey = (scope: Scope, m: string) => `${scope.tenant}|${scope.owner}|${m}`;
    let seconds = 0;
    let serial = 0;
    let evicted = 0;
    let swept = 0;

    /** Mostly the newest time, sometimes an earlier or the same one, rarely none. */
    const timestamp = (): string | undefined => {
      const r = next();
      if (r < 0.04) return undefined;
      if (r < 0.2) return at(Math.floor(next() * (seconds + 1)));
      if (r < 0.35) return at(seconds);
      return at(++seconds);
    };
    const forget = (id: string) => {
      const task = model.get(id);
      if (!task) return;
      model.delete(id);
      for (const m of task.messageIds) {
        const key = messageKey(task.scope, m);
        if (messages.get(key) === id) messages.delete(key);
      }
    };
    const finished = () => [...model.values()].filter((t) => t.finishedAt !== undefined).length;
    const finish = (id: string) => {
      const task = model.get(id) as Modeled;
      task.finishedAt = now;
      finishedOrder.push(id);
      while (finished() > MAX_TASKS) {
        const oldest = finishedOrder.shift() as string;
        if (model.get(oldest)?.finishedAt === undefined) continue;
        forget(oldest);
        evicted++;
      }
    };
    const indexMessage = (id: string, m: string) => {
      const task = model.get(id) as Modeled;
      messages.set(messageKey(task.scope, m), id);
      task.messageIds.push(m);
    };
    const running = () => [...model.entries()].filter(([, t]) => t.finishedAt === undefined);

    const check = async () => {
      expect(store.size).toBe(model.size);
      for (const scope of scopes) {
        for (let q = 0; q < 4; q++) {
          const query: TaskQuery = { pageSize: 1 + Math.floor(next() * 40) };
          if (next() < 0.4) query.contextId = pick([...contexts, 'ctx-none']);
          if (next() < 0.4) query.status = pick(STATES);
          if (next() < 0.3) query.statusTimestampAfter = at(Math.floor(next() * (seconds + 2)));
          const expected = [...model.values()]
            .filter((t) => t.scope.tenant === scope.tenant && t.scope.owner === scope.owner)
            .map((t) => t.projection.task)
            .filter((t) => !query.contextId || t.contextId === query.contextId)
            .filter((t) => !query.status || t.status.state === query.status)
            .filter(
              (t) =>
                !query.statusTimestampAfter ||
                (t.status.timestamp ?? '') >= query.statusTimestampAfter,
            )
            .sort(newestFirst);
          let pageToken = '';
          let offset = 0;
          do {
            const page = await store.list(scope, { ...query, ...(pageToken ? { pageToken } : {}) });
            const want = expected.slice(offset, offset + query.pageSize);
            offset += query.pageSize;
            expect(page.tasks).toEqual(want);
            expect(page.totalSize).toBe(expected.length);
            const last = want[want.length - 1];
            expect(page.nextPageToken).toBe(
              offset < expected.length && last ? encodePageToken(last) : '',
            );
            pageToken = page.nextPageToken;
          } while (pageToken);
        }
      }
      for (let k = 0; k < 10 && model.size > 0; k++) {
        const [id, task] = pick([...model.entries()]);
        const record = await store.get(task.scope, id);
        expect(record).toEqual({ task: task.projection.task, seq: task.events.length });
        const after = Math.floor(next() * (task.events.length + 1));
        const limit = 1 + Math.floor(next() * 5);
        expect(await store.events(task.scope, id, after, limit)).toEqual(
          task.events
            .slice(after, after + limit)
            .map((event, i) => ({ seq: after + i + 1, event })),
        );
      }
      for (const [key, id] of messages) {
        const [tenant, owner, m] = key.split('|') as [string, string, string];
        expect((await store.findByMessageId({ tenant, owner }, m))?.taskId).toBe(id);
      }
    };

    for (let step = 0; step < 4_000; step++) {
      const r = next();
      const live = running();
      if (r < 0.3 || live.length === 0) {
        const scope = pick(scopes);
        const state = next() < 0.75 ? pick(STATES.slice(0, 4)) : pick(STATES.slice(4));
        const ts = timestamp();
        const task: Task = {
          id: `task-${serial++}`,
          ...(next() < 0.1 ? {} : { contextId: next() < 0.6 ? pick(contexts) : `ctx-${serial}` }),
          status: { state, ...(ts === undefined ? {} : { timestamp: ts }) },
          history: [{ messageId: `m-${serial}`, role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
        };
        const messageId = next() < 0.7 ? `m-${Math.floor(next() * serial)}` : undefined;
        await store.create(scope, task, messageId ? { messageId } : {});
        model.set(task.id, {
          scope,
          projection: new TaskProjection(task),
          events: [{ task }],
          messageIds: [],
        });
        if (messageId) indexMessage(task.id, messageId);
        if (isTerminal(state)) finish(task.id);
      } else if (r < 0.6) {
        const [id, task] = pick(live);
        const from = task.projection.task.status.state;
        const to = pick(STATES.filter((s) => canTransition(from, s)));
        const ts = timestamp();
        const event: StreamResponse = {
          statusUpdate: {
            taskId: id,
            contextId: task.projection.task.contextId ?? '',
            status: { state: to, ...(ts === undefined ? {} : { timestamp: ts }) },
          },
        };
        const messageId = next() < 0.2 ? `m-${Math.floor(next() * serial)}` : undefined;
        const seq = await store.append(
          task.scope,
          id,
          [event],
          task.events.length,
          messageId ? { messageId } : {},
        );
        task.projection.apply(event);
        task.events.push(event);
        expect(seq).toBe(task.events.length);
        if (messageId) indexMessage(id, messageId);
        if (isTerminal(to)) finish(id);
      } else if (r < 0.7) {
        const [id, task] = pick(live);
        const event: StreamResponse = {
          artifactUpdate: {
            taskId: id,
            contextId: task.projection.task.contextId ?? '',
            artifact: textArtifact(`a${Math.floor(next() * 2)}`, `chunk ${step}`),
            ...(next() < 0.5 ? { append: true } : {}),
          },
        };
        await store.append(task.scope, id, [event], task.events.length);
        task.projection.apply(event);
        task.events.push(event);
      } else if (r < 0.74 && model.size > 0) {
        const [id, task] = pick([...model.entries()]);
        const event: StreamResponse = {
          statusUpdate: {
            taskId: id,
            contextId: '',
            status: { state: 'TASK_STATE_WORKING', timestamp: at(seconds) },
          },
        };
        if (task.finishedAt !== undefined) {
          await expect(
            attempt(() => store.append(task.scope, id, [event], task.events.length)),
          ).rejects.toThrow(TaskTransitionError);
        }
        await expect(
          attempt(() => store.append(task.scope, id, [event], task.events.length + 1)),
        ).rejects.toThrow(ConcurrencyError);
      } else if (r < 0.8 && model.size > 0) {
        const [id, task] = pick([...model.entries()]);
        await store.delete(next() < 0.1 ? pick(scopes) : task.scope, id);
        if (model.get(id) && (await store.get(task.scope, id)) === undefined) forget(id);
      } else if (r < 0.83) {
        // Now and then (in the first half) long enough for the TTL to remove some tasks.
        if (step < 2_000 && next() < 0.15) {
          now += Math.floor(next() * TTL);
          vi.setSystemTime(now);
        }
        store.sweep();
        while (finishedOrder.length > 0) {
          const id = finishedOrder[0] as string;
          const finishedAt = model.get(id)?.finishedAt;
          if (finishedAt !== undefined && finishedAt > now - TTL) break;
          finishedOrder.shift();
          if (finishedAt === undefined) continue;
          forget(id);
          swept++;
        }
      } else {
        now += Math.floor(next() * 400);
        vi.setSystemTime(now);
      }
      if (step % 100 === 99) await check();
    }
    await check();
    // Every path ran: evictions, sweeps, and tasks old enough to be packed (read back above).
    expect(evicted).toBeGreaterThan(0);
    expect(swept).toBeGreaterThan(0);
    const stillHeld = finishedOrder.filter((id) => model.get(id)?.finishedAt !== undefined);
    expect(stillHeld.length).toBeGreaterThan(260);
    const oldest = model.get(stillHeld[0] as string) as Modeled;
    const first = await store.get(oldest.scope, stillHeld[0] as string);
    expect((await store.get(oldest.scope, stillHeld[0] as string))?.task).not.toBe(first?.task);
    await store.close();
  });

  it('keeps scopes apart whatever characters their tenant and owner hold', async () => {
    const store = new MemoryTaskStore();
    const first: Scope = { tenant: 'a\u0000b', owner: 'c' };
    const second: Scope = { tenant: 'a', owner: 'b\u0000c' };
    const [one, two] = [
      { id: 'one', status: { state: 'TASK_STATE_WORKING' as const, timestamp: at(1) } },
      { id: 'two', status: { state: 'TASK_STATE_WORKING' as const, timestamp: at(2) } },
    ];
    await store.create(first, one, { messageId: 'm' });
    await store.create(second, two, { messageId: 'm' });
    expect((await store.list(first, { pageSize: 10 })).tasks.map((t) => t.id)).toEqual(['one']);
    expect((await store.list(second, { pageSize: 10 })).tasks.map((t) => t.id)).toEqual(['two']);
    expect((await store.findByMessageId(first, 'm'))?.taskId).toBe('one');
    expect((await store.findByMessageId(second, 'm'))?.taskId).toBe('two');
    await store.close();
  });
});
