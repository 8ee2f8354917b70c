/**
 * The conformance suite of the idle interrupted-task index (`facets.interrupted`), run by every
 * store that keeps one: `runInterruptedTaskIndexSuite({ name, create })`. The server's expiry
 * of abandoned tasks (spec §3.1: INPUT_REQUIRED, AUTH_REQUIRED) reads it. Tests use fresh ids and
 * only look at their own tasks, so stores may share data.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TaskState } from '../core/schemas/index.js';
import type { InterruptedTaskIndex, Scope } from '../stores/types.js';
import {
  facet,
  freshScopes,
  sleep,
  statusEvent,
  storePerTest,
  taskIn,
  type StoreSuiteOptions,
} from './store-fixtures.js';

/** Options of {@link runInterruptedTaskIndexSuite}. */
export type InterruptedTaskIndexSuiteOptions = StoreSuiteOptions;

const LONG = 3_600_000;

/** Registers the InterruptedTaskIndex conformance tests for one implementation. */
export function runInterruptedTaskIndexSuite(options: InterruptedTaskIndexSuiteOptions): void {
  describe(`InterruptedTaskIndex conformance: ${options.name}`, () => {
    const store = storePerTest(options);
    let index: InterruptedTaskIndex;
    let scope: Scope;
    let other: Scope;
    beforeEach(() => {
      index = facet(store(), 'interrupted');
      ({ scope, otherTenant: other } = freshScopes());
    });

    /** Creates a task in `scope`, then moves it to `state`; returns its id. */
    const task = (state: TaskState, in_: Scope = scope): Promise<string> =>
      taskIn(store(), in_, state);
    const idleIds = async (idleMs: number, limit = 10_000) =>
      (await index.idle(idleMs, limit)).map((t) => t.taskId);

    it('finds INPUT_REQUIRED and AUTH_REQUIRED tasks of every scope once idle, with their scope', async () => {
      const input = await task('TASK_STATE_INPUT_REQUIRED');
      const auth = await task('TASK_STATE_AUTH_REQUIRED', other);
      await sleep(30);
      const found = (await index.idle(10, 10_000)).filter((t) => [input, auth].includes(t.taskId));
      expect(found).toHaveLength(2);
      expect(found.find((t) => t.taskId === input)?.scope).toEqual(scope);
      expect(found.find((t) => t.taskId === auth)?.scope).toEqual(other);
    });

    it('skips tasks that are running, finished, or changed within idleMs', async () => {
      const ids = [
        await task('TASK_STATE_WORKING'),
        await task('TASK_STATE_COMPLETED'),
        await task('TASK_STATE_CANCELED'),
      ];
      const fresh = await task('TASK_STATE_INPUT_REQUIRED');
      await sleep(30);
      const idle = await idleIds(10);
      for (const id of ids) expect(idle).not.toContain(id);
      expect(idle).toContain(fresh);
      expect(await idleIds(LONG)).not.toContain(fresh);
    });

    it('forgets a task once it leaves the interrupted state', async () => {
      const id = await task('TASK_STATE_INPUT_REQUIRED');
      await sleep(30);
      expect(await idleIds(10)).toContain(id);
      const record = await store().get(scope, id);
      if (!record) throw new Error('task missing');
      await store().append(
        scope,
        id,
        [statusEvent(record.task, 'TASK_STATE_CANCELED')],
        record.seq,
      );
      expect(await idleIds(0)).not.toContain(id);
    });

    it('counts the interrupted tasks of one scope (`held`, when the index offers it)', async () => {
      if (!index.held) return;
      await task('TASK_STATE_INPUT_REQUIRED');
      await task('TASK_STATE_AUTH_REQUIRED');
      await task('TASK_STATE_WORKING');
      await task('TASK_STATE_COMPLETED');
      await task('TASK_STATE_INPUT_REQUIRED', other);
      const [mine, theirs] = await Promise.all([index.held(scope), index.held(other)]);
      expect([mine, theirs]).toEqual([2, 1]);
      expect(await index.held(freshScopes().scope)).toBe(0);
    });

    it('returns at most `limit` tasks, those idle longest first', async () => {
      const first = await task('TASK_STATE_INPUT_REQUIRED');
      await sleep(20);
      const second = await task('TASK_STATE_INPUT_REQUIRED');
      await sleep(20);
      const page = await index.idle(0, 1);
      expect(page).toHaveLength(1);
      // Other tests' tasks may be older; ours keep their order relative to each other.
      const all = await idleIds(0);
      expect(all.indexOf(first)).toBeGreaterThanOrEqual(0);
      expect(all.indexOf(first)).toBeLessThan(all.indexOf(second));
      expect(await index.idle(0, 0)).toEqual([]);
    });
  });
}
