/**
 * The conformance suite every PushConfigStore runs: configs are kept per task and
 * scope, paged by id, replaced by id, deleted idempotently, and deleted with their task. Use it
 * from a vitest file: `runPushConfigStoreSuite({ name: 'sqlite', create: () => store })`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushConfigStore, Scope, StoredPushConfig, TaskStore } from '../stores/types.js';
import { freshScopes, newTask, uniqueId } from './store-fixtures.js';

/** A store that keeps tasks and their push configs. */
export type PushConfigTaskStore = TaskStore & PushConfigStore;

/** Options of {@link runPushConfigStoreSuite}. */
export interface PushConfigStoreSuiteOptions {
  /** Shown in the test names. */
  name: string;
  /** A new open store for one test. Tests use fresh ids and tenants, so stores may share data. */
  create: () => Promise<PushConfigTaskStore> | PushConfigTaskStore;
}

/** A config for `taskId` with every field set. */
export function pushConfig(taskId: string, id: string, url?: string): StoredPushConfig {
  return {
    taskId,
    id,
    url: url ?? `https://hooks.example.com/${id}`,
    token: `token-${id}`,
    authentication: { scheme: 'Bearer', credentials: `secret-${id}` },
  };
}

/** Registers the PushConfigStore conformance tests for one implementation. */
export function runPushConfigStoreSuite(options: PushConfigStoreSuiteOptions): void {
  describe(`PushConfigStore conformance: ${options.name}`, () => {
    let current: PushConfigTaskStore | undefined;
    const store = (): PushConfigTaskStore => {
      if (!current) throw new Error('the store is only available inside a test');
      return current;
    };
    beforeEach(async () => {
      current = await options.create();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    const task = async (scope: Scope): Promise<string> => {
      const created = newTask({});
      await store().create(scope, created);
      return created.id;
    };

    it('[128,131] returns a stored config unchanged, token and credentials included', async () => {
      const { scope } = freshScopes();
      const taskId = await task(scope);
      const config = pushConfig(taskId, 'c1');
      await store().putPushConfig(scope, config);
      expect(await store().getPushConfig(scope, taskId, 'c1')).toStrictEqual(config);
      expect(await store().getPushConfig(scope, taskId, 'missing')).toBeUndefined();
    });

    it('keeps the A2A version a config was registered over (its deliveries take that form)', async () => {
      const { scope } = freshScopes();
      const taskId = await task(scope);
      const legacy = { ...pushConfig(taskId, 'c03'), protocolVersion: '0.3' };
      await store().putPushConfig(scope, legacy);
      await store().putPushConfig(scope, pushConfig(taskId, 'c10'));
      expect(await store().getPushConfig(scope, taskId, 'c03')).toStrictEqual(legacy);
      const listed = await store().listPushConfigs(scope, taskId);
      expect(listed.map((c) => [c.id, c.protocolVersion])).toEqual([
        ['c03', '0.3'],
        ['c10', undefined],
      ]);
    });

    it('[136] hides configs from another owner and another tenant', async () => {
      const { scope, otherOwner, otherTenant } = freshScopes();
      const taskId = await task(scope);
      await store().putPushConfig(scope, pushConfig(taskId, 'c1'));
      for (const other of [otherOwner, otherTenant]) {
        expect(await store().getPushConfig(other, taskId, 'c1')).toBeUndefined();
        expect(await store().listPushConfigs(other, taskId)).toEqual([]);
        await store().deletePushConfig(other, taskId, 'c1');
        await expect(store().putPushConfig(other, pushConfig(taskId, 'c2'))).rejects.toMatchObject({
          code: 'TASK_NOT_FOUND',
        });
      }
      expect(await store().listPushConfigs(scope, taskId)).toStrictEqual([
        pushConfig(taskId, 'c1'),
      ]);
    });

    it('[130] refuses a config for a task that does not exist', async () => {
      const { scope } = freshScopes();
      const config = pushConfig(uniqueId('missing'), 'c1');
      await expect(store().putPushConfig(scope, config)).rejects.toMatchObject({
        code: 'TASK_NOT_FOUND',
      });
    });

    it('replaces the config with the same id', async () => {
      const { scope } = freshScopes();
      const taskId = await task(scope);
      await store().putPushConfig(scope, pushConfig(taskId, 'c1'));
      const changed = pushConfig(taskId, 'c1', 'https://other.example.com/hook');
      await store().putPushConfig(scope, changed);
      expect(await store().listPushConfigs(scope, taskId)).toStrictEqual([changed]);
    });

    it('[133] lists a task’s configs by id, after a cursor, up to a limit', async () => {
      const { scope } = freshScopes();
      const taskId = await task(scope);
      const otherTask = await task(scope);
      for (const id of ['c3', 'c1', 'c5', 'c2', 'c4']) {
        await store().putPushConfig(scope, pushConfig(taskId, id));
      }
      await store().putPushConfig(scope, pushConfig(otherTask, 'c0'));
      const ids = (configs: StoredPushConfig[]) => configs.map((c) => c.id);
      expect(ids(await store().listPushConfigs(scope, taskId))).toEqual([
        'c1',
        'c2',
        'c3',
        'c4',
        'c5',
      ]);
      expect(ids(await store().listPushConfigs(scope, taskId, { limit: 2 }))).toEqual(['c1', 'c2']);
      expect(
        ids(await store().listPushConfigs(scope, taskId, { afterId: 'c2', limit: 2 })),
      ).toEqual(['c3', 'c4']);
      expect(ids(await store().listPushConfigs(scope, taskId, { afterId: 'c5' }))).toEqual([]);
      expect(ids(await store().listPushConfigs(scope, otherTask))).toEqual(['c0']);
      expect(await store().listPushConfigs(scope, uniqueId('missing'))).toEqual([]);
    });

    it('[134,135] deletes a config for good, and deleting again is not an error', async () => {
      const { scope } = freshScopes();
      const taskId = await task(scope);
      await store().putPushConfig(scope, pushConfig(taskId, 'c1'));
      await store().putPushConfig(scope, pushConfig(taskId, 'c2'));
      await store().deletePushConfig(scope, taskId, 'c1');
      await store().deletePushConfig(scope, taskId, 'c1');
      await store().deletePushConfig(scope, uniqueId('missing'), 'c1');
      expect(await store().getPushConfig(scope, taskId, 'c1')).toBeUndefined();
      expect(await store().listPushConfigs(scope, taskId)).toStrictEqual([
        pushConfig(taskId, 'c2'),
      ]);
    });

    it('[129] deletes the configs with their task', async () => {
      const { scope } = freshScopes();
      const taskId = await task(scope);
      await store().putPushConfig(scope, pushConfig(taskId, 'c1'));
      await store().delete(scope, taskId);
      await store().create(scope, { ...newTask({}), id: taskId });
      expect(await store().getPushConfig(scope, taskId, 'c1')).toBeUndefined();
      expect(await store().listPushConfigs(scope, taskId)).toEqual([]);
    });
  });
}
