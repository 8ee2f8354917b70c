/**
 * TaskStore conformance, part 2: optimistic concurrency, terminal tasks, message de-duplication,
 * delete and long logs. Registered by `runTaskStoreSuite`.
 */
import { describe, expect, it } from 'vitest';
import type { StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { TaskTransitionError } from '../core/task-state.js';
import { ConcurrencyError, type Scope, type TaskStore } from '../stores/types.js';
import {
  agentText,
  artifactEvent,
  at,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
  uniqueId,
  userText,
  attempt,
} from './store-fixtures.js';

/** A deep copy of everything a store holds for a task, to check that nothing changed. */
async function state(store: TaskStore, scope: Scope, taskId: string): Promise<unknown> {
  const [record, log] = await Promise.all([
    store.get(scope, taskId),
    store.events(scope, taskId, 0, 100_000),
  ]);
  return structuredClone({ record, log });
}

/** Registers the concurrency, terminal, message-index, delete and long-log tests. */
export function describeTaskStoreWrites(store: () => TaskStore): void {
  describe('createWith (when the store offers it)', () => {
    it('holds what create then append would; an existing id is refused, nothing changed', async () => {
      const { scope } = freshScopes();
      const s = store();
      if (!s.createWith) return;
      const burst = (t: Task): StreamResponse[] => [
        statusEvent(t, 'TASK_STATE_WORKING'),
        artifactEvent(t, textArtifact('a', 'x')),
        statusEvent(t, 'TASK_STATE_COMPLETED'),
      ];
      const task = newTask({});
      const events = burst(task);
      const messageId = uniqueId('msg');
      expect(await s.createWith(scope, task, events, { messageId, fingerprint: 'f' })).toBe(4);
      const other = newTask({});
      await s.create(scope, other);
      await s.append(scope, other.id, burst(other), 1);
      const [a, b] = [await s.get(scope, task.id), await s.get(scope, other.id)];
      expect(a?.seq).toBe(4);
      expect(a?.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(a?.task.artifacts).toEqual(b?.task.artifacts);
      const log = await s.events(scope, task.id, 0);
      expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(log.slice(1).map((e) => e.event)).toEqual(events);
      expect(await s.findByMessageId(scope, messageId)).toMatchObject({
        taskId: task.id,
        fingerprint: 'f',
      });
      const before = await state(s, scope, task.id);
      await expect(s.createWith(scope, task, events)).rejects.toThrow();
      expect(await state(s, scope, task.id)).toStrictEqual(before);
    });
  });

  describe('optimistic concurrency', () => {
    it('refuses a stale or future expectedSeq with ConcurrencyError and changes nothing', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      await store().append(scope, task.id, [statusEvent(task, 'TASK_STATE_WORKING')], 1);
      const before = await state(store(), scope, task.id);
      for (const expectedSeq of [0, 1, 3, 10]) {
        const refused = attempt(() =>
          store().append(
            scope,
            task.id,
            [artifactEvent(task, textArtifact('a', 'x'))],
            expectedSeq,
          ),
        );
        await expect(refused).rejects.toBeInstanceOf(ConcurrencyError);
        await expect(refused).rejects.toMatchObject({ taskId: task.id, expectedSeq, actualSeq: 2 });
      }
      expect(await state(store(), scope, task.id)).toStrictEqual(before);
    });

    it('lets exactly one of two concurrent writers with the same expectedSeq win', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const a = [artifactEvent(task, textArtifact('from-a', 'a'))];
      const b = [
        statusEvent(task, 'TASK_STATE_WORKING'),
        artifactEvent(task, textArtifact('from-b', 'b')),
      ];
      const results = await Promise.allSettled([
        attempt(() => store().append(scope, task.id, a, 1)),
        attempt(() => store().append(scope, task.id, b, 1)),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]?.reason).toBeInstanceOf(ConcurrencyError);
      const winner = results[0]?.status === 'fulfilled' ? a : b;
      const log = await store().events(scope, task.id, 0);
      expect(log.map((e) => e.seq)).toEqual([1, ...winner.map((_, i) => i + 2)]);
      expect(log.slice(1).map((e) => e.event)).toStrictEqual(winner);
      const record = await store().get(scope, task.id);
      expect(record?.seq).toBe(1 + winner.length);
      expect(record?.task.artifacts?.map((x) => x.artifactId)).toEqual([
        winner === a ? 'from-a' : 'from-b',
      ]);
    });

    it('keeps the log gap-free and duplicate-free under racing writers that retry', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      await store().create(scope, task);
      const writers = 8;
      const perWriter = 10;
      let conflicts = 0;
      const write = async (w: number) => {
        for (let i = 0; i < perWriter;) {
          const record = await store().get(scope, task.id);
          const chunk = artifactEvent(task, textArtifact(`w${w}`, String(i)), { append: i > 0 });
          try {
            await store().append(scope, task.id, [chunk], record?.seq ?? 0);
            i++;
          } catch (error) {
            if (!(error instanceof ConcurrencyError)) throw error;
            conflicts++;
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, w) => write(w)));
      const log = await store().events(scope, task.id, 0);
      expect(log.map((e) => e.seq)).toEqual(
        Array.from({ length: 1 + writers * perWriter }, (_, i) => i + 1),
      );
      const record = await store().get(scope, task.id);
      expect(record?.seq).toBe(1 + writers * perWriter);
      const expected = Array.from({ length: perWriter }, (_, i) => ({ text: String(i) }));
      for (let w = 0; w < writers; w++) {
        expect(record?.task.artifacts?.find((x) => x.artifactId === `w${w}`)?.parts).toStrictEqual(
          expected,
        );
      }
      expect(conflicts).toBeGreaterThan(0); // the writers really raced
    });
  });

  describe('terminal tasks', () => {
    const terminal: TaskState[] = [
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
    ];
    it.each(terminal)('rejects every further event once the task is %s', async (final) => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      await store().append(scope, task.id, [statusEvent(task, final, { timestamp: at(7) })], 1);
      const before = await state(store(), scope, task.id);
      const attempts: StreamResponse[] = [
        statusEvent(task, 'TASK_STATE_WORKING'),
        statusEvent(task, final),
        artifactEvent(task, textArtifact('late', 'x')),
        { message: userText('too late') },
      ];
      for (const event of attempts) {
        await expect(
          attempt(() => store().append(scope, task.id, [event], 2)),
        ).rejects.toBeInstanceOf(TaskTransitionError);
      }
      expect(await state(store(), scope, task.id)).toStrictEqual(before);
    });

    it('rejects events for a task created in a terminal state', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_REJECTED' });
      await store().create(scope, task);
      const refused = attempt(() =>
        store().append(scope, task.id, [statusEvent(task, 'TASK_STATE_WORKING')], 1),
      );
      await expect(refused).rejects.toBeInstanceOf(TaskTransitionError);
      expect(await store().get(scope, task.id)).toStrictEqual({ task, seq: 1 });
    });

    it('rejects a batch with one forbidden change as a whole, and stays writable', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      await store().create(scope, task);
      const before = await state(store(), scope, task.id);
      const batches: StreamResponse[][] = [
        [
          artifactEvent(task, textArtifact('a', 'x')),
          statusEvent(task, 'TASK_STATE_COMPLETED'),
          statusEvent(task, 'TASK_STATE_WORKING'),
        ],
        [artifactEvent(task, textArtifact('a', 'x')), statusEvent(task, 'TASK_STATE_SUBMITTED')],
        [artifactEvent(task, textArtifact('a', 'x')), { task }],
      ];
      for (const batch of batches) {
        await expect(
          attempt(() => store().append(scope, task.id, batch, 1)),
        ).rejects.toBeInstanceOf(TaskTransitionError);
        expect(await state(store(), scope, task.id)).toStrictEqual(before);
      }
      expect(
        await store().append(scope, task.id, [artifactEvent(task, textArtifact('a', 'ok'))], 1),
      ).toBe(2);
      expect((await store().get(scope, task.id))?.task.artifacts).toStrictEqual([
        textArtifact('a', 'ok'),
      ]);
    });
  });

  describe('findByMessageId', () => {
    it('finds the task a message created or continued, within its scope only', async () => {
      const { scope, otherOwner, otherTenant } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_INPUT_REQUIRED' });
      const created = uniqueId('m');
      const answer = userText('Paris');
      await store().create(scope, task, { messageId: created });
      const resume = [{ message: answer }, statusEvent(task, 'TASK_STATE_SUBMITTED')];
      await store().append(scope, task.id, resume, 1, { messageId: answer.messageId });
      expect((await store().findByMessageId(scope, created))?.taskId).toBe(task.id);
      expect((await store().findByMessageId(scope, answer.messageId))?.taskId).toBe(task.id);
      expect(await store().findByMessageId(scope, uniqueId('unknown'))).toBeUndefined();
      for (const other of [otherOwner, otherTenant]) {
        expect(await store().findByMessageId(other, created)).toBeUndefined();
        expect(await store().findByMessageId(other, answer.messageId)).toBeUndefined();
      }
    });

    it('keeps the fingerprint and the age of the last write that indexed a messageId', async () => {
      const { scope } = freshScopes();
      const messageId = uniqueId('m');
      const first = newTask({ state: 'TASK_STATE_INPUT_REQUIRED' });
      await store().create(scope, first, { messageId, fingerprint: 'fp-first' });
      const found = await store().findByMessageId(scope, messageId);
      expect(found).toMatchObject({ taskId: first.id, fingerprint: 'fp-first' });
      expect(found?.ageMs).toBeGreaterThanOrEqual(0);
      expect(found?.ageMs).toBeLessThan(60_000);
      // Another message reusing the id (a new task, or an answer to a paused one) replaces it.
      const second = newTask({});
      await store().create(scope, second, { messageId, fingerprint: 'fp-second' });
      expect(await store().findByMessageId(scope, messageId)).toMatchObject({
        taskId: second.id,
        fingerprint: 'fp-second',
      });
      const answer = [{ message: userText('again') }];
      await store().append(scope, first.id, answer, 1, { messageId, fingerprint: 'fp-third' });
      expect(await store().findByMessageId(scope, messageId)).toMatchObject({
        taskId: first.id,
        fingerprint: 'fp-third',
      });
      const plain = uniqueId('m');
      await store().create(scope, newTask({}), { messageId: plain });
      expect((await store().findByMessageId(scope, plain))?.fingerprint).toBe('');
    });

    it('keeps the same messageId apart in different scopes', async () => {
      const { scope, otherTenant } = freshScopes();
      const messageId = uniqueId('m');
      const mine = newTask({});
      const theirs = newTask({});
      await store().create(scope, mine, { messageId });
      await store().create(otherTenant, theirs, { messageId });
      expect((await store().findByMessageId(scope, messageId))?.taskId).toBe(mine.id);
      expect((await store().findByMessageId(otherTenant, messageId))?.taskId).toBe(theirs.id);
    });
  });

  describe('delete', () => {
    it('removes the task, its log and its message index, and frees the id', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_INPUT_REQUIRED' });
      const created = uniqueId('m');
      const answer = userText('yes');
      await store().create(scope, task, { messageId: created });
      await store().append(scope, task.id, [{ message: answer }], 1, {
        messageId: answer.messageId,
      });
      await store().delete(scope, task.id);
      expect(await store().get(scope, task.id)).toBeUndefined();
      expect(await store().events(scope, task.id, 0)).toEqual([]);
      expect(await store().findByMessageId(scope, created)).toBeUndefined();
      expect(await store().findByMessageId(scope, answer.messageId)).toBeUndefined();
      expect((await store().list(scope, { pageSize: 10 })).totalSize).toBe(0);
      const again: Task = { ...newTask({}), id: task.id };
      await store().create(scope, again);
      expect(await store().get(scope, task.id)).toStrictEqual({ task: again, seq: 1 });
      expect(await store().events(scope, task.id, 0)).toHaveLength(1);
    });

    it('ignores a delete from another scope and a delete of an unknown task', async () => {
      const { scope, otherOwner, otherTenant } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      await store().delete(otherOwner, task.id);
      await store().delete(otherTenant, task.id);
      await store().delete(scope, uniqueId('missing'));
      expect(await store().get(scope, task.id)).toStrictEqual({ task, seq: 1 });
    });
  });

  describe('long logs', () => {
    it('reads a 10,000-event log and its snapshot correctly', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      await store().create(scope, task);
      const sent = Array.from({ length: 10_000 }, (_, i): StreamResponse =>
        i % 1000 === 999
          ? statusEvent(task, 'TASK_STATE_WORKING', {
              timestamp: at(i),
              message: agentText(`step ${i}`),
            })
          : artifactEvent(task, textArtifact('stream', `chunk ${i}`), { append: i > 0 }),
      );
      let seq = 1;
      for (const event of sent) seq = await store().append(scope, task.id, [event], seq);
      expect(seq).toBe(10_001);
      const record = await store().get(scope, task.id);
      expect(record?.seq).toBe(10_001);
      const parts = record?.task.artifacts?.[0]?.parts ?? [];
      expect(parts).toHaveLength(9_990);
      expect(parts[0]).toStrictEqual({ text: 'chunk 0' });
      expect(parts[9_989]).toStrictEqual({ text: 'chunk 9998' });
      expect(record?.task.history).toHaveLength(11);
      expect(record?.task.status.timestamp).toBe(at(9_999));
      const middle = await store().events(scope, task.id, 5_000, 100);
      expect(middle.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 5_001 + i));
      expect(middle.map((e) => e.event)).toStrictEqual(
        Array.from({ length: 100 }, (_, i) => sent[4_999 + i]),
      );
      expect(await store().events(scope, task.id, 9_990)).toHaveLength(11);
      const done = statusEvent(task, 'TASK_STATE_COMPLETED', { timestamp: at(20_000) });
      expect(await store().append(scope, task.id, [done], seq)).toBe(10_002);
      const final = await store().get(scope, task.id);
      expect(final?.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(final?.task.artifacts?.[0]?.parts).toHaveLength(9_990);
    });
  });
}
