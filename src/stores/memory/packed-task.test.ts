import { describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../../core/schemas/index.js';
import { TaskProjection } from '../../core/task-state.js';
import {
  artifactEvent,
  at,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
} from '../../testing/store-fixtures.js';
import { packTask, unpackEvents, unpackTask, type PackKeys } from './packed-task.js';
import { MemoryTaskStore } from './task-store.js';

/** The log of an echo task as the server writes it. */
function echoLog(task: Task): StreamResponse[] {
  return [
    { task },
    statusEvent(task, 'TASK_STATE_WORKING', { timestamp: at(1) }),
    artifactEvent(task, { artifactId: 'a1', name: 'echo', parts: [{ text: 'echo: hello' }] }),
    statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(2) }),
  ];
}

function project(events: readonly StreamResponse[]): Task {
  const [first, ...rest] = events;
  if (!first || !('task' in first)) throw new Error('no task');
  const projection = new TaskProjection(first.task);
  for (const event of rest) projection.apply(event);
  return projection.task;
}

/** Packs and unpacks; checks the exact JSON text (key order included) and the objects. */
function roundTrip(events: StreamResponse[], keys: PackKeys) {
  const task = project(events);
  const expectedTask = JSON.parse(JSON.stringify(task)) as Task;
  const packed = packTask(events, task, keys);
  const log = unpackEvents(packed, keys);
  expect(JSON.stringify(log)).toBe(JSON.stringify(events));
  expect(log).toStrictEqual(JSON.parse(JSON.stringify(events)));
  const snapshot = unpackTask(packed, keys);
  expect(JSON.stringify(snapshot)).toBe(JSON.stringify(task));
  expect(snapshot).toStrictEqual(expectedTask);
  // Fresh objects on every read.
  expect(unpackTask(packed, keys)).not.toBe(snapshot);
  return packed;
}

const keysOf = (task: Task, ts: string, messageId?: string): PackKeys => ({
  id: task.id,
  contextId: task.contextId,
  ts,
  messageId,
});

describe('packed tasks', () => {
  it('round-trips an echo task and keeps it small', () => {
    const task = newTask({});
    const events = echoLog(task);
    const packed = roundTrip(events, keysOf(task, at(2), task.history?.[0]?.messageId));
    expect(typeof packed).toBe('string');
    expect((packed as string).length).toBeLessThan(JSON.stringify(events).length / 3);
  });

  it('round-trips whatever the ids and texts hold', () => {
    const awkward = [
      '$&$1$$',
      'quote"and\\backslash',
      'ünïcödé – 日本語 🙂',
      'control\u0001\u0005\u000bchars',
      '","timestamp":"x"}',
      '',
    ];
    for (const id of awkward) {
      for (const contextId of [...awkward, undefined]) {
        const taskId = id || 'plain-id';
        const task: Task = {
          id: taskId,
          ...(contextId === undefined ? {} : { contextId }),
          status: { state: 'TASK_STATE_SUBMITTED', timestamp: at(0) },
          history: [
            {
              messageId: id || 'm',
              role: 'ROLE_USER',
              // Texts that look like the values and the text around them.
              parts: [{ text: `${id}${contextId ?? ''}","timestamp":"${at(2)}"}\u0001` }],
              taskId,
              ...(contextId === undefined ? {} : { contextId }),
            },
          ],
        };
        const events: StreamResponse[] = [
          { task },
          statusEvent(task, 'TASK_STATE_WORKING', { timestamp: id }),
          artifactEvent(task, textArtifact(id, id, contextId ?? 'x')),
          statusEvent(task, 'TASK_STATE_FAILED', { timestamp: at(2) }),
        ];
        roundTrip(events, keysOf(task, at(2), id || undefined));
        roundTrip(events, keysOf(task, '', contextId));
      }
    }
  });

  it('leaves alone values that hold a mark, which could straddle one in the packed text', () => {
    const task = newTask({});
    const events = echoLog(task);
    // After the composites, "\u0005WORKING" is in the packed text: the mark of the status update.
    roundTrip(events, { ...keysOf(task, at(2)), messageId: '\u0005WORKING' });
    roundTrip(events, { ...keysOf(task, at(2)), contextId: '\u0005COMPLETED' });
  });

  it('round-trips a task without timestamps, context or messageId', () => {
    const task: Task = { id: 't', status: { state: 'TASK_STATE_REJECTED' } };
    roundTrip([{ task }], { id: 't', contextId: undefined, ts: '', messageId: undefined });
  });

  it('keeps the snapshot of a long log, and reads it without the events', () => {
    const task = newTask({ state: 'TASK_STATE_WORKING' });
    const events: StreamResponse[] = [{ task }];
    for (let i = 0; i < 40; i++) {
      events.push(artifactEvent(task, textArtifact('chunk', `part ${i}`), { append: i > 0 }));
    }
    events.push(statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(3) }));
    const packed = roundTrip(events, keysOf(task, at(3)));
    expect(typeof packed).toBe('object');
    expect(unpackTask(packed, keysOf(task, at(3))).artifacts?.[0]?.parts).toHaveLength(40);
  });

  it('throws on values JSON cannot hold, so the store keeps such a task as it is', () => {
    const task = newTask({});
    const events: StreamResponse[] = [
      { task: { ...task, metadata: { n: 1n as unknown as number } } },
    ];
    expect(() => packTask(events, task, keysOf(task, at(0)))).toThrow();
  });
});

describe('MemoryTaskStore packing of finished tasks', () => {
  it('reads packed tasks exactly as it read them before they were packed', async () => {
    const store = new MemoryTaskStore({ maxTasks: 10_000 });
    const { scope } = freshScopes();
    const seen: { id: string; messageId: string; record: unknown; log: unknown; tail: unknown }[] =
      [];
    // 300 echo tasks, a long one and one with a push config among them: the first ones are
    // packed once 256 more have finished after them.
    for (let i = 0; i < 300; i++) {
      const task = newTask({ timestamp: at(i) });
      const messageId = task.history?.[0]?.messageId ?? '';
      await store.create(scope, task, { messageId });
      const events: StreamResponse[] =
        i === 3
          ? Array.from({ length: 30 }, (_, k) =>
              artifactEvent(task, textArtifact('chunk', `part ${k}`), { append: k > 0 }),
            )
          : [
              statusEvent(task, 'TASK_STATE_WORKING', { timestamp: at(i) }),
              artifactEvent(task, { artifactId: `a${i}`, name: 'echo', parts: [{ text: 'hi' }] }),
            ];
      let seq = 1;
      for (const event of events) seq = await store.append(scope, task.id, [event], seq);
      if (i === 5) {
        await store.putPushConfig(scope, { taskId: task.id, id: 'p', url: 'https://x.test/hook' });
      }
      await store.append(
        scope,
        task.id,
        [
          statusEvent(task, i % 2 ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_FAILED', {
            timestamp: at(i + 1),
          }),
        ],
        seq,
      );
      seen.push({
        id: task.id,
        messageId,
        record: structuredClone(await store.get(scope, task.id)),
        log: structuredClone(await store.events(scope, task.id, 0)),
        tail: structuredClone(await store.events(scope, task.id, 2, 1)),
      });
    }
    for (const { id, messageId, record, log, tail } of seen.slice(0, 40)) {
      const now = await store.get(scope, id);
      expect(now).toStrictEqual(record);
      // Packed: a fresh snapshot on every read.
      expect((await store.get(scope, id))?.task).not.toBe(now?.task);
      expect(await store.events(scope, id, 0)).toStrictEqual(log);
      expect(await store.events(scope, id, 2, 1)).toStrictEqual(tail);
      expect(await store.events(scope, id, 999)).toStrictEqual([]);
      expect((await store.findByMessageId(scope, messageId))?.taskId).toBe(id);
    }
    const withConfig = seen[5]?.id ?? '';
    expect((await store.getPushConfig(scope, withConfig, 'p'))?.url).toBe('https://x.test/hook');
    const page = await store.list(scope, { pageSize: 100, pageToken: '' });
    expect(page.totalSize).toBe(300);
    const deeper = await store.list(scope, { pageSize: 100, pageToken: page.nextPageToken });
    const last = await store.list(scope, { pageSize: 100, pageToken: deeper.nextPageToken });
    expect(last.tasks.map((t) => t.id)).toEqual(
      seen
        .slice(0, 100)
        .map((s) => s.id)
        .reverse(),
    );
    for (const task of last.tasks) {
      const expected = seen.find((s) => s.id === task.id)?.record as { task: Task };
      expect(task).toStrictEqual(expected.task);
    }
    await store.close();
  });
});
