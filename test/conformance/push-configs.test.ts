/**
 * Push-config operations (spec §3.1.7-3.1.10, §4.3, requirement 67 of test/conformance/requirements.ts, 128-137, 147): Create, Get,
 * List and Delete over every binding, inline configs in SendMessage, tenants, and the create-time
 * SSRF check. No webhook is ever called here: only what the server stores and answers.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import type { BindingDriver } from '../helpers/driver.js';
import { expectError, expectInvalidParams, ok } from '../helpers/expect.js';
import { sendParams, sendTask, uid } from '../helpers/requests.js';
import { serve } from '../../src/node/index.js';
import { createPushNotifier } from '../../src/push/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { startServer, type RunningServer, V1_CARD } from '../helpers/server.js';
import { taskOf } from '../helpers/shapes.js';
import { isRecord } from '../helpers/wire.js';

const HOOK = 'https://hooks.a2a-kit.test/a2a';

/** A config as the wire gives it back (fields checked by each test). */
type WireConfig = Record<string, unknown> & { id: string; taskId: string; url: string };

function configOf(value: unknown): WireConfig {
  if (!isRecord(value)) return expect.fail(`expected a config object, got ${String(value)}`);
  expect(typeof value.id, 'config id').toBe('string');
  expect(typeof value.taskId, 'config taskId').toBe('string');
  expect(typeof value.url, 'config url').toBe('string');
  return value as WireConfig;
}

async function create(b: BindingDriver, params: Record<string, unknown>): Promise<WireConfig> {
  return configOf(ok(await b.call('CreateTaskPushNotificationConfig', params)));
}

async function list(
  b: BindingDriver,
  params: Record<string, unknown>,
): Promise<{ configs: WireConfig[]; nextPageToken: unknown }> {
  const result = ok(await b.call('ListTaskPushNotificationConfigs', params));
  if (!isRecord(result)) return expect.fail('expected a ListTaskPushNotificationConfigsResponse');
  const configs = Array.isArray(result.configs) ? result.configs.map(configOf) : [];
  return { configs, nextPageToken: result.nextPageToken };
}

serverSuite(
  'push-config operations',
  () => startServer(scriptedAgent().agent, { push: true }),
  (server) => {
    verifiesServer([13], 'the card says pushNotifications: true', async () => {
      const card: unknown = await (
        await fetch(`${server.url}/.well-known/agent-card.json`, V1_CARD)
      ).json();
      expect(isRecord(card) && isRecord(card.capabilities) && card.capabilities).toMatchObject({
        pushNotifications: true,
      });
    });

    verifies([128], 'create generates an id when empty and keeps a given one', async (b) => {
      const task = await sendTask(b, 'ask');
      const generated = await create(b, { taskId: task.id, url: HOOK });
      expect(generated.id.length).toBeGreaterThan(0);
      expect(generated).toMatchObject({ taskId: task.id, url: HOOK });
      const empty = await create(b, { taskId: task.id, id: '', url: `${HOOK}/2` });
      expect(empty.id.length).toBeGreaterThan(0);
      expect(empty.id).not.toBe(generated.id);
      const given = uid('cfg');
      expect(await create(b, { taskId: task.id, id: given, url: `${HOOK}/3` })).toMatchObject({
        id: given,
        taskId: task.id,
        url: `${HOOK}/3`,
      });
    });

    verifies([131], 'get returns url, token and authentication as stored', async (b) => {
      const task = await sendTask(b, 'ask');
      const stored = {
        taskId: task.id,
        id: uid('cfg'),
        url: HOOK,
        token: 'tok-123',
        authentication: { scheme: 'Bearer', credentials: 'secret-abc' },
      };
      expect(await create(b, stored)).toMatchObject(stored);
      const got = configOf(
        ok(await b.call('GetTaskPushNotificationConfig', { taskId: task.id, id: stored.id })),
      );
      expect(got).toMatchObject(stored);
    });

    verifies(
      [133],
      'list returns every config of the task, then an empty page token',
      async (b) => {
        const task = await sendTask(b, 'ask');
        const other = await sendTask(b, 'ask');
        const ids = [uid('cfg'), uid('cfg'), uid('cfg')];
        for (const [i, id] of ids.entries())
          await create(b, { taskId: task.id, id, url: `${HOOK}/${i}` });
        await create(b, { taskId: other.id, id: uid('cfg'), url: HOOK });
        const page = await list(b, { taskId: task.id });
        expect(page.configs.map((c) => c.id).sort()).toEqual([...ids].sort());
        expect(page.configs.every((c) => c.taskId === task.id)).toBe(true);
        expect(page.nextPageToken ?? '').toBe('');
        expect((await list(b, { taskId: (await sendTask(b, 'ask')).id })).configs).toEqual([]);
      },
    );

    verifies([133], 'list pages through the configs with pageSize and pageToken', async (b) => {
      const task = await sendTask(b, 'ask');
      const ids = [uid('cfg'), uid('cfg'), uid('cfg')];
      for (const id of ids) await create(b, { taskId: task.id, id, url: HOOK });
      const seen: string[] = [];
      let pageToken: string | undefined;
      for (let pages = 0; pages < 5; pages++) {
        const page = await list(b, {
          taskId: task.id,
          pageSize: 2,
          ...(pageToken ? { pageToken } : {}),
        });
        expect(page.configs.length).toBeLessThanOrEqual(2);
        seen.push(...page.configs.map((c) => c.id));
        pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : '';
        if (!pageToken) break;
      }
      expect(seen.sort()).toEqual([...ids].sort());
    });

    verifies([134, 135], 'delete removes the config, and deleting it again succeeds', async (b) => {
      const task = await sendTask(b, 'ask');
      const kept = await create(b, { taskId: task.id, url: HOOK });
      const gone = await create(b, { taskId: task.id, url: `${HOOK}/gone` });
      const ids = { taskId: task.id, id: gone.id };
      ok(await b.call('DeleteTaskPushNotificationConfig', ids));
      expectError(await b.call('GetTaskPushNotificationConfig', ids), 'TASK_NOT_FOUND');
      expect((await list(b, { taskId: task.id })).configs.map((c) => c.id)).toEqual([kept.id]);
      ok(await b.call('DeleteTaskPushNotificationConfig', ids));
      ok(await b.call('DeleteTaskPushNotificationConfig', { taskId: task.id, id: uid('never') }));
    });

    verifies(
      [130, 132],
      'an unknown task or config id gives TASK_NOT_FOUND on every operation',
      async (b) => {
        const missing = uid('task');
        const id = uid('cfg');
        expectError(
          await b.call('CreateTaskPushNotificationConfig', { taskId: missing, url: HOOK }),
          'TASK_NOT_FOUND',
        );
        expectError(
          await b.call('GetTaskPushNotificationConfig', { taskId: missing, id }),
          'TASK_NOT_FOUND',
        );
        expectError(
          await b.call('ListTaskPushNotificationConfigs', { taskId: missing }),
          'TASK_NOT_FOUND',
        );
        expectError(
          await b.call('DeleteTaskPushNotificationConfig', { taskId: missing, id }),
          'TASK_NOT_FOUND',
        );
        const task = await sendTask(b, 'ask');
        expectError(
          await b.call('GetTaskPushNotificationConfig', { taskId: task.id, id }),
          'TASK_NOT_FOUND',
        );
      },
    );

    verifies([137], 'a config without url is invalid params', async (b) => {
      const task = await sendTask(b, 'ask');
      expectInvalidParams(
        await b.call('CreateTaskPushNotificationConfig', { taskId: task.id, token: 't' }),
        'url',
      );
      expect((await list(b, { taskId: task.id })).configs).toEqual([]);
    });

    verifies([147], 'a webhook URL on a private address is refused at create time', async (b) => {
      const task = await sendTask(b, 'ask');
      for (const url of [
        'http://10.0.0.1/hook',
        'https://192.168.1.1/',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/hook',
        'http://hooks.a2a-kit.test/plain-http',
      ]) {
        const res = await b.call('CreateTaskPushNotificationConfig', { taskId: task.id, url });
        const error = expectInvalidParams(res);
        expect(error.message.length, `why ${url} is refused`).toBeGreaterThan(0);
      }
      expect((await list(b, { taskId: task.id })).configs).toEqual([]);
      // An allow-listed host may use http.
      await create(b, { taskId: task.id, url: 'http://127.0.0.1:9/hook' });
    });

    verifies([67], 'an inline config on SendMessage is listed on the created task', async (b) => {
      const id = uid('cfg');
      const configuration = {
        returnImmediately: true,
        taskPushNotificationConfig: { id, url: HOOK, token: 'inline-token' },
      };
      const task = taskOf(ok(await b.call('SendMessage', sendParams('ask', { configuration }))));
      const { configs } = await list(b, { taskId: task.id });
      expect(configs).toHaveLength(1);
      expect(configs[0]).toMatchObject({ id, taskId: task.id, url: HOOK, token: 'inline-token' });
    });

    verifies([67, 147], 'an inline config on a private address fails the send', async (b) => {
      const configuration = {
        returnImmediately: true,
        taskPushNotificationConfig: { url: 'http://10.0.0.1/hook' },
      };
      expectInvalidParams(await b.call('SendMessage', sendParams('ask', { configuration })));
    });

    verifies([136], "another tenant cannot see or change the task's configs", async (b) => {
      const res = await b.call('SendMessage', { ...sendParams('ask'), tenant: 'acme' });
      const task = taskOf(ok(res));
      const config = await create(b, { taskId: task.id, url: HOOK, tenant: 'acme' });
      expect((await list(b, { taskId: task.id, tenant: 'acme' })).configs).toHaveLength(1);
      for (const tenant of ['other', undefined]) {
        const t = tenant === undefined ? {} : { tenant };
        const ids = { taskId: task.id, id: config.id, ...t };
        expectError(
          await b.call('ListTaskPushNotificationConfigs', { taskId: task.id, ...t }),
          'TASK_NOT_FOUND',
        );
        expectError(await b.call('GetTaskPushNotificationConfig', ids), 'TASK_NOT_FOUND');
        expectError(await b.call('DeleteTaskPushNotificationConfig', ids), 'TASK_NOT_FOUND');
        expectError(
          await b.call('CreateTaskPushNotificationConfig', { taskId: task.id, url: HOOK, ...t }),
          'TASK_NOT_FOUND',
        );
      }
      const after = await list(b, { taskId: task.id, tenant: 'acme' });
      expect(after.configs.map((c) => c.id)).toEqual([config.id]);
    });

    verifiesServer([128], 'no request reached INTERNAL', async () => {
      expect(server.running.internalErrors).toEqual([]);
    });
  },
);

/** `serve(agent, { store, push })` without building the A2AServer by hand, as docs/push.md says. */
async function servePushDirectly(): Promise<RunningServer> {
  const store = new MemoryTaskStore();
  const notifier = createPushNotifier({ store, logger: null });
  const running = await serve(scriptedAgent().agent, {
    port: 0,
    logger: null,
    store,
    push: { notifier },
  });
  return {
    url: running.url,
    grpcUrl: '',
    internalErrors: [],
    close: async () => {
      await running.close();
      await notifier.close();
    },
  };
}

serverSuite('serve(agent, { push })', servePushDirectly, (server) => {
  verifiesServer(
    [13],
    'serve() with a push option advertises and serves push configs',
    async () => {
      const card: unknown = await (
        await fetch(`${server.url}/.well-known/agent-card.json`, V1_CARD)
      ).json();
      expect(isRecord(card) && isRecord(card.capabilities) && card.capabilities).toMatchObject({
        pushNotifications: true,
      });
    },
  );
});
