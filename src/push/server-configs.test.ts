import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { userMessage } from '../core/parts.js';
import { parseParams } from '../core/validate.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import type { CallContext } from '../core/call-context.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/task-store.js';
import type { PushConfigStore, TaskStore } from '../stores/types.js';
import { createPushNotifier, type PushNotifierHandle } from './notifier.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-push-configs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const agent = createAgent({
  card: { name: 'Waiter', description: 'waits for input', version: '1.0.0', skills: [] },
  async *execute({ task }) {
    yield task.inputRequired('more?');
  },
});

const alice: CallContext = { principal: { id: 'alice' } };
const bob: CallContext = { principal: { id: 'bob' } };
const HOOK = 'https://hooks.example.com/a2a';

const open: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

function pushServer(store: TaskStore & PushConfigStore): {
  server: A2AServer;
  notifier: PushNotifierHandle;
} {
  const notifier = createPushNotifier({
    store,
    logger: null,
    start: false,
    resolver: async () => [{ address: '93.184.216.34', family: 4 }],
  });
  const server = new A2AServer({ agent, store, push: { notifier } });
  open.push(
    () => server.close(),
    () => notifier.close(),
  );
  return { server, notifier };
}

async function newTask(server: A2AServer, call = alice): Promise<string> {
  const reply = await server.sendMessage({ message: userMessage('hi') }, call);
  if (!('task' in reply)) throw new Error('no task');
  return reply.task.id;
}

describe.each([
  ['memory', () => new MemoryTaskStore()],
  [
    'sqlite',
    () => new SqliteTaskStore({ path: join(dir, `${globalThis.crypto.randomUUID()}.db`) }),
  ],
])('push config operations on A2AServer (%s store)', (_name, makeStore) => {
  it('[128,131,133] creates configs with generated ids, gets and lists them', async () => {
    const { server } = pushServer(makeStore());
    expect(server.capabilities.pushNotifications).toBe(true);
    const taskId = await newTask(server);
    const created = await server.createTaskPushNotificationConfig(
      { taskId, url: HOOK, token: 't', authentication: { scheme: 'Bearer', credentials: 'c' } },
      alice,
    );
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    const named = await server.createTaskPushNotificationConfig(
      { taskId, id: 'mine', url: HOOK },
      alice,
    );
    expect(named.id).toBe('mine');
    expect(
      await server.getTaskPushNotificationConfig({ taskId, id: created.id ?? '' }, alice),
    ).toEqual(created);
    const page = await server.listTaskPushNotificationConfigs({ taskId, pageSize: 1 }, alice);
    expect(page.configs).toHaveLength(1);
    const rest = await server.listTaskPushNotificationConfigs(
      { taskId, pageToken: page.nextPageToken },
      alice,
    );
    expect([...(page.configs ?? []), ...(rest.configs ?? [])].map((c) => c.id).sort()).toEqual(
      [created.id, 'mine'].sort(),
    );
    expect(rest.nextPageToken).toBe('');
  });

  it('[130,132,136] answers TASK_NOT_FOUND for unknown tasks, missing configs and other callers', async () => {
    const { server } = pushServer(makeStore());
    const taskId = await newTask(server);
    await server.createTaskPushNotificationConfig({ taskId, id: 'c', url: HOOK }, alice);
    const notFound = { code: 'TASK_NOT_FOUND' };
    await expect(
      server.createTaskPushNotificationConfig({ taskId: 'nope', url: HOOK }, alice),
    ).rejects.toMatchObject(notFound);
    await expect(
      server.getTaskPushNotificationConfig({ taskId, id: 'missing' }, alice),
    ).rejects.toMatchObject(notFound);
    await expect(
      server.listTaskPushNotificationConfigs({ taskId: 'nope' }, alice),
    ).rejects.toMatchObject(notFound);
    await expect(
      server.deleteTaskPushNotificationConfig({ taskId: 'nope', id: 'c' }, alice),
    ).rejects.toMatchObject(notFound);
    for (const op of [
      () => server.getTaskPushNotificationConfig({ taskId, id: 'c' }, bob),
      () => server.listTaskPushNotificationConfigs({ taskId }, bob),
      () => server.deleteTaskPushNotificationConfig({ taskId, id: 'c' }, bob),
      () => server.createTaskPushNotificationConfig({ taskId, url: HOOK }, bob),
    ]) {
      await expect(op()).rejects.toMatchObject(notFound);
    }
    expect((await server.listTaskPushNotificationConfigs({ taskId }, alice)).configs).toHaveLength(
      1,
    );
  });

  it('[134,135] deletes a config for good, idempotently', async () => {
    const { server } = pushServer(makeStore());
    const taskId = await newTask(server);
    await server.createTaskPushNotificationConfig({ taskId, id: 'c', url: HOOK }, alice);
    expect(await server.deleteTaskPushNotificationConfig({ taskId, id: 'c' }, alice)).toEqual({});
    expect(await server.deleteTaskPushNotificationConfig({ taskId, id: 'c' }, alice)).toEqual({});
    await expect(
      server.getTaskPushNotificationConfig({ taskId, id: 'c' }, alice),
    ).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });
});

describe('push config operations', () => {
  it('[123] are refused with PUSH_NOTIFICATION_NOT_SUPPORTED without push, inline configs too', async () => {
    const server = new A2AServer({ agent });
    open.push(() => server.close());
    expect(server.capabilities.pushNotifications).toBe(false);
    const taskId = await newTask(server);
    const unsupported = { code: 'PUSH_NOTIFICATION_NOT_SUPPORTED' };
    await expect(
      server.createTaskPushNotificationConfig({ taskId, url: HOOK }, alice),
    ).rejects.toMatchObject(unsupported);
    await expect(
      server.getTaskPushNotificationConfig({ taskId, id: 'c' }, alice),
    ).rejects.toMatchObject(unsupported);
    await expect(server.listTaskPushNotificationConfigs({ taskId }, alice)).rejects.toMatchObject(
      unsupported,
    );
    await expect(
      server.deleteTaskPushNotificationConfig({ taskId, id: 'c' }, alice),
    ).rejects.toMatchObject(unsupported);
    await expect(
      server.sendMessage(
        {
          message: userMessage('x'),
          configuration: { taskPushNotificationConfig: { url: HOOK } },
        },
        alice,
      ),
    ).rejects.toMatchObject(unsupported);
  });

  it('[137] refuses a config without url', () => {
    expect(() => parseParams('CreateTaskPushNotificationConfig', { taskId: 't' })).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS' }),
    );
  });

  it('[129] keeps configs across a restart until the task is deleted', async () => {
    const path = join(dir, 'restart.db');
    const first = pushServer(new SqliteTaskStore({ path }));
    const taskId = await newTask(first.server);
    await first.server.createTaskPushNotificationConfig({ taskId, id: 'c', url: HOOK }, alice);
    await first.notifier.close();
    await first.server.close();
    const second = pushServer(new SqliteTaskStore({ path }));
    expect(
      await second.server.getTaskPushNotificationConfig({ taskId, id: 'c' }, alice),
    ).toMatchObject({ url: HOOK });
  });
});
