/**
 * The conformance suite every TaskStore runs: create/get, append and the
 * projected snapshot, the event log, then (in sibling files) concurrency, terminal tasks, message
 * de-duplication, delete, long logs, ListTasks and the audit chain hashes. Use it from a vitest file:
 * `runTaskStoreSuite({ name: 'sqlite', create: () => new SqliteTaskStore({ path }) })`.
 */
import { describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import type { StreamResponse, Task } from '../core/schemas/index.js';
import type { TaskStore } from '../stores/types.js';
import {
  agentText,
  artifactEvent,
  at,
  freshScopes,
  newTask,
  statusEvent,
  storePerTest,
  textArtifact,
  uniqueId,
  userText,
  type StoreSuiteOptions,
  attempt,
} from './store-fixtures.js';
import { describeListTasks } from './task-store-list-suite.js';
import { describeTaskStoreWrites } from './task-store-write-suite.js';
import { describeAuditChain } from './task-store-chain-suite.js';

/** Options of {@link runTaskStoreSuite}. */
export interface TaskStoreSuiteOptions extends StoreSuiteOptions {
  /**
   * Whether `events()` honours `maxBytes` (default true). A store that hands out entries it keeps
   * in memory anyway (the memory store) may ignore it; the page is still a prefix of the log.
   */
  pagesByBytes?: boolean;
}

/** Registers the TaskStore conformance tests for one implementation. */
export function runTaskStoreSuite(options: TaskStoreSuiteOptions): void {
  describe(`TaskStore conformance: ${options.name}`, () => {
    const store = storePerTest(options);

    describeCreateAndGet(store);
    describeAppend(store);
    describeEvents(store, options.pagesByBytes ?? true);
    describeTaskStoreWrites(store);
    describeListTasks(store);
    describeAuditChain(store);
  });
}

function describeCreateAndGet(store: () => TaskStore): void {
  describe('create and get', () => {
    it('returns the created task unchanged at seq 1, in ProtoJSON shape', async () => {
      const { scope } = freshScopes();
      const task: Task = {
        id: uniqueId('task'),
        contextId: uniqueId('ctx'),
        status: { state: 'TASK_STATE_WORKING', timestamp: at(5), message: agentText('on it') },
        artifacts: [
          {
            artifactId: 'a1',
            name: 'report',
            parts: [
              { text: 'x', metadata: { lang: 'en' } },
              { data: { n: 1, list: [true, null, 'z'] } },
              { url: 'https://example.com/f.pdf', mediaType: 'application/pdf', filename: 'f.pdf' },
              { raw: 'aGk=' },
            ],
            metadata: { nested: { deep: ['v'] } },
          },
        ],
        history: [userText('hello', { metadata: { source: 'test' }, extensions: ['urn:x'] })],
        metadata: { priority: 3, tags: ['a', 'b'] },
      };
      const expected = structuredClone(task);
      await store().create(scope, task);
      expect(await store().get(scope, task.id)).toStrictEqual({ task: expected, seq: 1 });
      expect(await store().events(scope, task.id, 0)).toStrictEqual([
        { seq: 1, event: { task: expected } },
      ]);
    });

    it('returns undefined for a task that does not exist', async () => {
      const { scope } = freshScopes();
      expect(await store().get(scope, uniqueId('missing'))).toBeUndefined();
      expect(await store().events(scope, uniqueId('missing'), 0)).toEqual([]);
    });

    it('hides a task from another tenant and from another owner', async () => {
      const { scope, otherOwner, otherTenant } = freshScopes();
      const task = newTask({});
      const messageId = uniqueId('m');
      await store().create(scope, task, { messageId });
      for (const other of [otherOwner, otherTenant]) {
        expect(await store().get(other, task.id)).toBeUndefined();
        expect(await store().events(other, task.id, 0)).toEqual([]);
        expect(await store().findByMessageId(other, messageId)).toBeUndefined();
        await expect(
          attempt(() =>
            store().append(other, task.id, [statusEvent(task, 'TASK_STATE_WORKING')], 1),
          ),
        ).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
        await store().delete(other, task.id);
      }
      expect(await store().get(scope, task.id)).toStrictEqual({ task, seq: 1 });
    });

    it('refuses a second task with an id that exists, in any scope', async () => {
      const { scope, otherTenant } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const again = { ...newTask({}), id: task.id };
      await expect(attempt(() => store().create(scope, again))).rejects.toThrow();
      await expect(attempt(() => store().create(otherTenant, again))).rejects.toThrow();
      expect(await store().get(scope, task.id)).toStrictEqual({ task, seq: 1 });
      expect(await store().get(otherTenant, task.id)).toBeUndefined();
    });
  });
}

function describeAppend(store: () => TaskStore): void {
  describe('append', () => {
    it('returns the new seq and applies the events to the snapshot', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const working = statusEvent(task, 'TASK_STATE_WORKING', { timestamp: at(2) });
      const artifact = artifactEvent(task, textArtifact('a1', 'result'));
      expect(await store().append(scope, task.id, [working, artifact], 1)).toBe(3);
      const record = await store().get(scope, task.id);
      expect(record?.seq).toBe(3);
      expect(record?.task.status).toStrictEqual({ state: 'TASK_STATE_WORKING', timestamp: at(2) });
      expect(record?.task.artifacts).toStrictEqual([textArtifact('a1', 'result')]);
      const done = statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(3) });
      expect(await store().append(scope, task.id, [done], 3)).toBe(4);
      expect((await store().get(scope, task.id))?.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('replaces the status and adds status and user messages to the history', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const [hello] = task.history ?? [];
      const ask = agentText('which city?');
      const answer = userText('Paris');
      const thanks = agentText('thanks');
      const inputRequired = statusEvent(task, 'TASK_STATE_INPUT_REQUIRED', {
        timestamp: at(3),
        message: ask,
      });
      let seq = await store().append(scope, task.id, [inputRequired], 1);
      seq = await store().append(scope, task.id, [{ message: answer }], seq);
      const working = statusEvent(task, 'TASK_STATE_WORKING', {
        timestamp: at(4),
        message: thanks,
      });
      await store().append(scope, task.id, [working], seq);
      const record = await store().get(scope, task.id);
      expect(record?.seq).toBe(4);
      expect(record?.task.status).toStrictEqual({
        state: 'TASK_STATE_WORKING',
        timestamp: at(4),
        message: thanks,
      });
      expect(record?.task.history).toStrictEqual([hello, ask, answer, thanks]);
    });

    it('builds artifacts chunk by chunk: append, lastChunk, replace, metadata merge', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      await store().create(scope, task);
      const chunks: StreamResponse[] = [
        artifactEvent(task, { ...textArtifact('a1', 'Hel'), metadata: { a: 1 } }),
        artifactEvent(task, { ...textArtifact('a1', 'lo'), metadata: { b: 2 } }, { append: true }),
        artifactEvent(task, textArtifact('a2', 'other')),
        artifactEvent(task, textArtifact('a1', ' world'), { append: true, lastChunk: true }),
      ];
      let seq = 1;
      for (const chunk of chunks) seq = await store().append(scope, task.id, [chunk], seq);
      expect((await store().get(scope, task.id))?.task.artifacts).toStrictEqual([
        {
          artifactId: 'a1',
          parts: [{ text: 'Hel' }, { text: 'lo' }, { text: ' world' }],
          metadata: { a: 1, b: 2 },
        },
        textArtifact('a2', 'other'),
      ]);
      await store().append(scope, task.id, [artifactEvent(task, textArtifact('a1', 'v2'))], seq);
      expect((await store().get(scope, task.id))?.task.artifacts).toStrictEqual([
        textArtifact('a1', 'v2'),
        textArtifact('a2', 'other'),
      ]);
    });

    it('rejects an append to a task that does not exist with TASK_NOT_FOUND', async () => {
      const { scope } = freshScopes();
      const ghost = newTask({});
      const refused = attempt(() =>
        store().append(scope, ghost.id, [statusEvent(ghost, 'TASK_STATE_WORKING')], 1),
      );
      await expect(refused).rejects.toBeInstanceOf(A2AError);
      await expect(refused).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    });
  });
}

function describeEvents(store: () => TaskStore, pagesByBytes: boolean): void {
  describe('events', () => {
    it('ends a page with the entry that reaches maxBytes of JSON', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const big = (i: number) => artifactEvent(task, textArtifact(`a${i}`, 'x'.repeat(10_000)));
      await store().append(scope, task.id, [big(1), big(2), big(3), big(4)], 1);
      const log = await store().events(scope, task.id, 1);
      expect(log.map((e) => e.seq)).toEqual([2, 3, 4, 5]);
      const page = await store().events(scope, task.id, 1, 100, 25_000);
      expect(page).toStrictEqual(log.slice(0, page.length));
      // Two entries are below 25,000 characters, the third reaches it and ends the page.
      if (pagesByBytes) expect(page.map((e) => e.seq)).toEqual([2, 3, 4]);
      const one = await store().events(scope, task.id, 1, 100, 10);
      expect(one.length).toBeGreaterThanOrEqual(1);
      if (pagesByBytes) expect(one.map((e) => e.seq)).toEqual([2]);
    });

    it('reads the log in order after any seq, at most limit entries', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const appended: StreamResponse[] = [
        statusEvent(task, 'TASK_STATE_WORKING'),
        artifactEvent(task, textArtifact('a1', 'one')),
        { message: agentText('note') },
        artifactEvent(task, textArtifact('a1', 'two'), { append: true }),
        statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(9) }),
      ];
      await store().append(scope, task.id, appended.slice(0, 2), 1);
      await store().append(scope, task.id, appended.slice(2), 3);
      const log = [{ task }, ...appended].map((event, i) => ({ seq: i + 1, event }));
      expect(await store().events(scope, task.id, 0)).toStrictEqual(log);
      expect(await store().events(scope, task.id, 2, 2)).toStrictEqual(log.slice(2, 4));
      expect(await store().events(scope, task.id, 4)).toStrictEqual(log.slice(4));
      expect(await store().events(scope, task.id, 0, 1)).toStrictEqual(log.slice(0, 1));
      expect(await store().events(scope, task.id, 6)).toEqual([]);
    });

    it('keeps each event as appended, untouched by later chunks of the same artifact', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      await store().create(scope, task);
      const first = artifactEvent(task, textArtifact('a1', 'x'));
      await store().append(scope, task.id, [first], 1);
      await store().append(
        scope,
        task.id,
        [artifactEvent(task, textArtifact('a1', 'y'), { append: true })],
        2,
      );
      const [, entry] = await store().events(scope, task.id, 0);
      expect(entry).toStrictEqual({ seq: 2, event: artifactEvent(task, textArtifact('a1', 'x')) });
    });
  });
}
