/**
 * TaskStore conformance, part 3: ListTasks (spec §3.1.4): filters, scope isolation,
 * newest status first, cursor pagination, totalSize and invalid tokens. Registered by
 * `runTaskStoreSuite`.
 */
import { describe, expect, it } from 'vitest';
import type { Task, TaskState } from '../core/schemas/index.js';
import {
  InvalidPageTokenError,
  type Scope,
  type TaskQuery,
  type TaskStore,
} from '../stores/types.js';
import {
  artifactEvent,
  at,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
} from './store-fixtures.js';

/** Newest status timestamp first, ties by id descending: the order ListTasks must return. */
function expectedOrder(tasks: Task[]): string[] {
  return [...tasks]
    .sort((a, b) => {
      const ta = a.status.timestamp ?? '';
      const tb = b.status.timestamp ?? '';
      if (ta !== tb) return ta < tb ? 1 : -1;
      return a.id < b.id ? 1 : -1;
    })
    .map((t) => t.id);
}

/** Reads every page of a query; returns the pages' ids, tokens and totals. */
async function allPages(store: TaskStore, scope: Scope, query: TaskQuery) {
  const pages: { ids: string[]; token: string; total: number }[] = [];
  let pageToken: string | undefined;
  do {
    const page = await store.list(scope, { ...query, ...(pageToken ? { pageToken } : {}) });
    pages.push({
      ids: page.tasks.map((t) => t.id),
      token: page.nextPageToken,
      total: page.totalSize,
    });
    pageToken = page.nextPageToken;
  } while (pageToken && pages.length < 100);
  return pages;
}

/** Registers the ListTasks tests. */
export function describeListTasks(store: () => TaskStore): void {
  const seed = async (scope: Scope, tasks: Task[]) => {
    for (const task of tasks) await store().create(scope, task);
    return tasks;
  };
  const ids = async (scope: Scope, query: Omit<TaskQuery, 'pageSize'>) =>
    (await store().list(scope, { pageSize: 100, ...query })).tasks.map((t) => t.id);

  describe('list', () => {
    it('filters by contextId, status and statusTimestampAfter (inclusive)', async () => {
      const { scope } = freshScopes();
      const [t1, t2, t3, t4] = await seed(scope, [
        newTask({ contextId: 'ctx-a', state: 'TASK_STATE_WORKING', timestamp: at(10) }),
        newTask({ contextId: 'ctx-a', state: 'TASK_STATE_COMPLETED', timestamp: at(20) }),
        newTask({ contextId: 'ctx-b', state: 'TASK_STATE_WORKING', timestamp: at(30) }),
        newTask({ contextId: 'ctx-b', state: 'TASK_STATE_INPUT_REQUIRED', timestamp: at(40) }),
      ]).then((tasks) => tasks.map((t) => t.id));
      const cases: [Omit<TaskQuery, 'pageSize'>, (string | undefined)[]][] = [
        [{}, [t4, t3, t2, t1]],
        [{ contextId: 'ctx-a' }, [t2, t1]],
        [{ status: 'TASK_STATE_WORKING' }, [t3, t1]],
        [{ statusTimestampAfter: at(20) }, [t4, t3, t2]],
        [{ contextId: 'ctx-b', status: 'TASK_STATE_WORKING' }, [t3]],
        [{ contextId: 'ctx-a', statusTimestampAfter: at(21) }, []],
        [{ status: 'TASK_STATE_CANCELED' }, []],
        [{ contextId: 'ctx-none' }, []],
      ];
      for (const [query, expected] of cases) {
        const page = await store().list(scope, { pageSize: 50, ...query });
        expect(
          page.tasks.map((t) => t.id),
          JSON.stringify(query),
        ).toEqual(expected);
        expect(page.totalSize).toBe(expected.length);
        expect(page.nextPageToken).toBe('');
      }
    });

    it('filters and orders by the current status after appends', async () => {
      const { scope } = freshScopes();
      const [older, newer] = await seed(scope, [
        newTask({ timestamp: at(10) }),
        newTask({ timestamp: at(20) }),
      ]);
      if (!older || !newer) throw new Error('seed failed');
      expect(await ids(scope, {})).toEqual([newer.id, older.id]);
      await store().append(
        scope,
        older.id,
        [statusEvent(older, 'TASK_STATE_WORKING', { timestamp: at(30) })],
        1,
      );
      expect(await ids(scope, {})).toEqual([older.id, newer.id]);
      expect(await ids(scope, { status: 'TASK_STATE_WORKING' })).toEqual([older.id]);
      expect(await ids(scope, { status: 'TASK_STATE_SUBMITTED' })).toEqual([newer.id]);
      expect(await ids(scope, { statusTimestampAfter: at(25) })).toEqual([older.id]);
    });

    it('lists only the tasks of the caller tenant and owner', async () => {
      const { scope, otherOwner, otherTenant } = freshScopes();
      const mine = await seed(scope, [
        newTask({ timestamp: at(1) }),
        newTask({ timestamp: at(2) }),
      ]);
      const bobs = await seed(otherOwner, [newTask({ timestamp: at(3) })]);
      const theirs = await seed(otherTenant, [newTask({ timestamp: at(4) })]);
      expect(await ids(scope, {})).toEqual(expectedOrder(mine));
      expect(await ids(otherOwner, {})).toEqual(expectedOrder(bobs));
      expect(await ids(otherTenant, {})).toEqual(expectedOrder(theirs));
      expect((await store().list(scope, { pageSize: 1 })).totalSize).toBe(2);
    });

    it('returns full snapshots with artifacts and history', async () => {
      const { scope } = freshScopes();
      const task = newTask({ state: 'TASK_STATE_WORKING' });
      await store().create(scope, task);
      await store().append(scope, task.id, [artifactEvent(task, textArtifact('a1', 'x'))], 1);
      const page = await store().list(scope, { pageSize: 10 });
      expect(page.tasks).toStrictEqual([(await store().get(scope, task.id))?.task]);
      expect(page.tasks[0]?.artifacts).toStrictEqual([textArtifact('a1', 'x')]);
    });

    it('pages 125 tasks as 50, 50 and 25, newest first, with no duplicates or gaps', async () => {
      const { scope } = freshScopes();
      const states: TaskState[] = ['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'];
      // Groups of five share a timestamp, so the id tie-break is exercised across page borders.
      const tasks = await seed(
        scope,
        Array.from({ length: 125 }, (_, i) =>
          newTask({
            timestamp: at(Math.floor(i / 5)),
            state: states[i % 2] ?? 'TASK_STATE_WORKING',
          }),
        ),
      );
      const pages = await allPages(store(), scope, { pageSize: 50 });
      expect(pages.map((p) => p.ids.length)).toEqual([50, 50, 25]);
      expect(pages.map((p) => p.token === '')).toEqual([false, false, true]);
      expect(pages.map((p) => p.total)).toEqual([125, 125, 125]);
      expect(pages.flatMap((p) => p.ids)).toEqual(expectedOrder(tasks));

      const working = tasks.filter((t) => t.status.state === 'TASK_STATE_WORKING');
      const filtered = await allPages(store(), scope, {
        pageSize: 30,
        status: 'TASK_STATE_WORKING',
      });
      expect(filtered.map((p) => p.ids.length)).toEqual([30, 30, 3]);
      expect(filtered.flatMap((p) => p.ids)).toEqual(expectedOrder(working));
      expect(filtered.every((p) => p.total === 63)).toBe(true);
    });

    it('ends with an empty token when the last page is exactly full', async () => {
      const { scope } = freshScopes();
      const tasks = await seed(
        scope,
        Array.from({ length: 10 }, (_, i) => newTask({ timestamp: at(i) })),
      );
      const pages = await allPages(store(), scope, { pageSize: 5 });
      expect(pages.map((p) => p.ids.length)).toEqual([5, 5]);
      expect(pages[1]?.token).toBe('');
      expect(pages.flatMap((p) => p.ids)).toEqual(expectedOrder(tasks));
    });

    it('returns an empty page with an empty token and totalSize 0 when nothing matches', async () => {
      const { scope } = freshScopes();
      expect(await store().list(scope, { pageSize: 50 })).toStrictEqual({
        tasks: [],
        nextPageToken: '',
        totalSize: 0,
      });
    });

    it.each([
      ['garbage', 'not a token!'],
      ['base64 of an object', Buffer.from('{"a":1}').toString('base64url')],
      ['base64 of numbers', Buffer.from('[1,2]').toString('base64url')],
      ['base64 of text', Buffer.from('hello').toString('base64url')],
    ])(
      'rejects a page token it did not issue (%s) with InvalidPageTokenError',
      async (_, pageToken) => {
        const { scope } = freshScopes();
        await store().create(scope, newTask({}));
        await expect(store().list(scope, { pageSize: 50, pageToken })).rejects.toBeInstanceOf(
          InvalidPageTokenError,
        );
      },
    );
  });
}
