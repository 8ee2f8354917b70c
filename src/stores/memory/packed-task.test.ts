import fc from 'fast-check';
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

  it('round-trips members written as one piece with what precedes them, and empty objects', () => {
    const task = newTask({});
    const { id, contextId } = task;
    const messageId = 'm1';
    const events = [
      { task: { ...task, metadata: {} } },
      {
        message: {
          role: 'ROLE_AGENT',
          messageId,
          parts: [{ text: 'x', metadata: { 'a"b': 1, '': {}, plain: 'p', 'c\nd': 'q"' } }],
          contextId,
          taskId: id,
          extensions: [],
        },
      },
      {
        statusUpdate: {
          metadata: {},
          taskId: id,
          contextId,
          status: { state: 'TASK_STATE_WORKING' },
        },
      },
      { artifactUpdate: { taskId: id, contextId, artifact: { artifactId: 'a', parts: [] } } },
      statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(2) }),
    ] as unknown as StreamResponse[];
    roundTrip(events, keysOf(task, at(2), messageId));
    roundTrip(events, keysOf(task, '', undefined));
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

// The writer against JSON.stringify: events of every shape, with the values the marks stand for
// in every place (and values that only look like them), odd strings and members, and objects
// JSON.stringify writes its own way (toJSON, another prototype, bigint, cycles).
const ID = 't-1';
const CONTEXT = 'c-1';
const FINAL = '2025-01-01T00:00:02.000Z';
const MESSAGE = 'm-1';
const text = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(ID, CONTEXT, FINAL, MESSAGE, 'a1', 'TASK_STATE_WORKING'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('', 'TASK_STATE_', 'TASK_STATE_X', 'ROLE_USER', ',', '"'),
  },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('a"b', 'a\\b', 'line\n', '\u0001', '\u0005', '😀', '\ud800'),
  },
);
const odd = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, NaN, -0, 1e21, 1.5, null, true, () => 1, [undefined, 1]),
);
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 5, arbitrary: a }, odd);
/** Mostly the value the server would write there (what the marks stand for), else any text. */
const likely = (...values: string[]) =>
  maybe(
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: text }),
  );
const taskId = likely(ID);
const contextId = likely(CONTEXT);
const timestamp = likely(FINAL, '2025-01-01T00:00:01.000Z');
const state = likely('TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_X');
const metadata = maybe(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }));

/**
 * An object of these members (some left out), in this order or (one in four) another, maybe with
 * an extra one, rarely odd: one odd object sends the whole log to JSON.stringify or makes it throw.
 */
function object(members: [string, fc.Arbitrary<unknown>][]) {
  const count = members.length;
  return fc
    .tuple(
      fc.tuple(...members.map(([, a]) => a)),
      fc.array(fc.boolean(), { minLength: count, maxLength: count }),
      fc.option(fc.array(fc.nat(), { minLength: count, maxLength: count }), { freq: 4 }),
      fc.option(fc.tuple(text, fc.jsonValue({ maxDepth: 1 })), { freq: 6 }),
      fc.oneof(
        { weight: 60, arbitrary: fc.constant('plain') },
        { weight: 1, arbitrary: fc.constantFrom('null-proto', 'toJSON', 'odd') },
      ),
    )
    .map(([values, kept, order, extra, kind]) => {
      const indexes = members.map((_, i) => i);
      if (order) indexes.sort((a, b) => (order[a] as number) - (order[b] as number));
      const out: Record<string, unknown> = {};
      for (const i of indexes) {
        if (kept[i]) out[(members[i] as [string, unknown])[0]] = values[i];
      }
      if (extra) out[extra[0]] = extra[1];
      if (kind === 'null-proto') return Object.assign(Object.create(null) as object, out);
      if (kind === 'toJSON') return { ...out, toJSON: () => ({ replaced: out }) };
      if (kind === 'odd') return { ...out, n: 1n };
      return out;
    });
}
const list = <T>(a: fc.Arbitrary<T>) => maybe(fc.array(a, { maxLength: 3 }));
const part = object([
  ['text', maybe(text)],
  ['data', maybe(fc.jsonValue({ maxDepth: 2 }))],
  ['metadata', metadata],
]);
const message = object([
  ['messageId', likely(MESSAGE)],
  ['role', maybe(text)],
  ['parts', list(part)],
  ['taskId', taskId],
  ['contextId', contextId],
  ['metadata', metadata],
]);
const status = object([
  ['state', state],
  ['message', maybe(message)],
  ['timestamp', timestamp],
]);
const artifact = object([
  ['artifactId', likely('a1', ID)],
  ['name', maybe(text)],
  ['parts', list(part)],
]);
const task = object([
  ['id', taskId],
  ['contextId', contextId],
  ['status', maybe(status)],
  ['history', list(message)],
  ['artifacts', list(artifact)],
  ['metadata', metadata],
]);
const statusUpdate = object([
  ['taskId', taskId],
  ['contextId', contextId],
  ['status', maybe(status)],
  ['metadata', metadata],
]);
const artifactUpdate = object([
  ['taskId', taskId],
  ['contextId', contextId],
  ['artifact', maybe(artifact)],
  ['append', maybe(fc.boolean())],
  ['lastChunk', maybe(fc.boolean())],
]);
const event = fc.oneof(
  { weight: 3, arbitrary: object([['task', maybe(task)]]) },
  { weight: 3, arbitrary: object([['statusUpdate', maybe(statusUpdate)]]) },
  { weight: 3, arbitrary: object([['artifactUpdate', maybe(artifactUpdate)]]) },
  { weight: 1, arbitrary: object([['message', maybe(message)]]) },
  { weight: 1, arbitrary: odd },
);
const keys = fc.record({
  id: fc.constantFrom(ID, ID, ID, 'other', 'a"b'),
  contextId: fc.constantFrom(CONTEXT, CONTEXT, CONTEXT, undefined, ''),
  ts: fc.constantFrom(FINAL, ''),
  messageId: fc.constantFrom(MESSAGE, undefined, '\u0005WORKING'),
});

/** JSON.stringify's text, or the fact that it threw. */
function stringified(value: unknown): string | { threw: true } {
  try {
    return JSON.stringify(value);
  } catch {
    return { threw: true };
  }
}

describe('the packed text against JSON.stringify', () => {
  it("unpacks to JSON.stringify's text byte for byte, and throws exactly when it does", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), keys, (events, k) => {
        const log = events as StreamResponse[];
        const snapshot = { id: k.id, status: { state: 'TASK_STATE_COMPLETED' } } as Task;
        const expected = stringified(log);
        let packed: ReturnType<typeof packTask>;
        try {
          packed = packTask(log, snapshot, k);
        } catch {
          expect(expected).toEqual({ threw: true });
          return;
        }
        expect(typeof expected).toBe('string');
        expect(JSON.stringify(unpackEvents(packed, k))).toBe(expected);
        if (typeof packed !== 'string') {
          expect(JSON.stringify(unpackTask(packed, k))).toBe(JSON.stringify(snapshot));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('writes an echo task with one mark for each text the server repeats', () => {
    const task = newTask({});
    const events = echoLog(task);
    const packed = packTask(events, task, keysOf(task, at(2), task.history?.[0]?.messageId));
    expect(packed).toBe(
      `[\u0007SUBMITTED\u000b${task.status.timestamp}"},"history":[{\n,"role":"ROLE_USER",` +
        `"parts":[{"text":"hello"}]}]}},\u0005WORKING\u000b${at(1)}"}}},\u0006a1","name":"echo",` +
        `"parts":[{"text":"echo: hello"}]}}},\u0005COMPLETED\t}}]`,
    );
  });

  it('writes what JSON.stringify writes for a cycle: it throws', () => {
    const task = newTask({});
    const loop: Record<string, unknown> = { task };
    loop['self'] = loop;
    expect(() => packTask([loop as StreamResponse], task, keysOf(task, at(0)))).toThrow(TypeError);
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
