/**
 * The conformance suite of ownership leases (`facets.leases`), run by every store that keeps
 * them: `runLeaseStoreSuite({ name: 'sqlite', create: () => new SqliteTaskStore({ path }) })`.
 * Tests use fresh ids and only look at their own tasks, so stores may share data.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TaskState } from '../core/schemas/index.js';
import type { LeaseStore, OrphanedTask, Scope } from '../stores/types.js';
import {
  facet,
  freshScopes,
  newTask,
  sleep,
  statusEvent,
  storePerTest,
  taskIn,
  type StoreSuiteOptions,
} from './store-fixtures.js';

/** Options of {@link runLeaseStoreSuite}. */
export type LeaseStoreSuiteOptions = StoreSuiteOptions;

const LONG = 60_000;

/** Registers the LeaseStore conformance tests for one implementation. */
export function runLeaseStoreSuite(options: LeaseStoreSuiteOptions): void {
  describe(`LeaseStore conformance: ${options.name}`, () => {
    const store = storePerTest(options);
    let leases: LeaseStore;
    let scope: Scope;
    beforeEach(() => {
      leases = facet(store(), 'leases');
      scope = freshScopes().scope;
    });

    /** Creates a task, then moves it to `state`; returns its id. */
    const task = (state: TaskState = 'TASK_STATE_WORKING'): Promise<string> =>
      taskIn(store(), scope, state);
    const orphans = async (ids: string[], unclaimedMs = LONG): Promise<OrphanedTask[]> =>
      (await leases.expired(10_000, unclaimedMs)).filter((o) => ids.includes(o.taskId));

    it('gives a task to one instance at a time; the holder may claim again', async () => {
      const id = await task();
      expect(await leases.claim(id, 'a', LONG)).toBe(true);
      expect(await leases.claim(id, 'b', LONG)).toBe(false);
      expect(await leases.claim(id, 'a', LONG)).toBe(true);
    });

    it('lets exactly one of several instances claiming at once win', async () => {
      const id = await task();
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((instance) => leases.claim(id, instance, LONG)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('refuses leases on finished and unknown tasks', async () => {
      expect(await leases.claim(await task('TASK_STATE_COMPLETED'), 'a', LONG)).toBe(false);
      expect(await leases.claim(`missing-${scope.tenant}`, 'a', LONG)).toBe(false);
    });

    it('hands an expired lease to another instance; the old holder no longer renews it', async () => {
      const id = await task();
      expect(await leases.claim(id, 'a', 50)).toBe(true);
      await sleep(120);
      expect(await leases.claim(id, 'b', LONG)).toBe(true);
      expect(await leases.renew('a', [id], LONG)).toEqual([]);
      expect(await leases.renew('b', [id], LONG)).toEqual([id]);
    });

    it('keeps a renewed lease alive past its first expiry', async () => {
      const [one, two] = [await task(), await task()];
      expect(await leases.claim(one, 'a', 150)).toBe(true);
      expect(await leases.claim(two, 'a', 150)).toBe(true);
      expect((await leases.renew('a', [one, two, 'unknown'], LONG)).sort()).toEqual(
        [one, two].sort(),
      );
      await sleep(250);
      expect(await leases.claim(one, 'b', LONG)).toBe(false);
      expect(await orphans([one, two])).toEqual([]);
    });

    it('frees a released lease at once, but only when its holder releases it', async () => {
      const id = await task();
      await leases.claim(id, 'a', LONG);
      await leases.release(id, 'b');
      expect(await leases.claim(id, 'b', LONG)).toBe(false);
      await leases.release(id, 'a');
      expect(await leases.claim(id, 'b', LONG)).toBe(true);
    });

    it('lists running tasks whose lease expired, with their scope and last holder', async () => {
      const [expired, live] = [await task(), await task()];
      await leases.claim(expired, 'a', 30);
      await leases.claim(live, 'a', LONG);
      await sleep(80);
      expect(await orphans([expired, live])).toEqual([
        { scope, taskId: expired, previousOwner: 'a' },
      ]);
    });

    it('never lists tasks that are finished or wait for input', async () => {
      const ids = [
        await task('TASK_STATE_INPUT_REQUIRED'),
        await task('TASK_STATE_AUTH_REQUIRED'),
        await task('TASK_STATE_FAILED'),
      ];
      await sleep(30);
      expect(await orphans(ids, 0)).toEqual([]);
      await leases.expireOthers('me');
      expect(await orphans(ids, 0)).toEqual([]);
    });

    it('lists a task nobody claimed only once it has not changed for the grace period', async () => {
      const id = await task('TASK_STATE_SUBMITTED');
      expect(await orphans([id])).toEqual([]);
      await sleep(40);
      expect(await orphans([id], 10)).toEqual([{ scope, taskId: id, previousOwner: undefined }]);
    });

    it('respects the limit', async () => {
      const ids = [await task(), await task(), await task()];
      for (const id of ids) await leases.claim(id, 'a', 1);
      await sleep(30);
      expect((await leases.expired(2, LONG)).length).toBeLessThanOrEqual(2);
      expect(await orphans(ids)).toHaveLength(3);
    });

    it('expires the leases of other instances at once, keeping its own', async () => {
      const [theirs, unclaimed, mine] = [await task(), await task(), await task()];
      await leases.claim(theirs, 'old', LONG);
      await leases.claim(mine, 'me', LONG);
      expect(await leases.expireOthers('me')).toBeGreaterThanOrEqual(2);
      const found = await orphans([theirs, unclaimed, mine]);
      expect(found.map((o) => o.taskId).sort()).toEqual([theirs, unclaimed].sort());
      expect(await leases.claim(theirs, 'me', LONG)).toBe(true);
      expect(await leases.claim(unclaimed, 'me', LONG)).toBe(true);
      expect(await leases.claim(mine, 'other', LONG)).toBe(false);
    });

    it('lets a task waiting for input be claimed by any instance once released', async () => {
      const id = await task();
      await leases.claim(id, 'a', LONG);
      const record = await store().get(scope, id);
      const paused = statusEvent(record?.task ?? newTask({}), 'TASK_STATE_INPUT_REQUIRED');
      await store().append(scope, id, [paused], record?.seq ?? 0);
      await leases.release(id, 'a');
      expect(await leases.claim(id, 'b', LONG)).toBe(true);
    });
  });
}
