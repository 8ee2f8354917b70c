/**
 * Isolation of owners and tenants (issue 6, item 2): every task, context and push config belongs
 * to the principal that created it, in the tenant it was created in. Another principal (or the
 * same one in another tenant) gets TASK_NOT_FOUND for every operation on it, never a hint that
 * it exists, and ListTasks shows only its own, on every binding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessage } from '../../src/server/index.js';
import { BINDINGS, driverFor, type Driver, type Outcome } from './fixtures/drivers.js';
import { startIssuer, type TestIssuer } from './fixtures/issuer.js';
import { createOwned, createTask } from './fixtures/resources.js';
import {
  oidcAuth,
  SCOPE,
  securedAgent,
  securedCard,
  startSecured,
  type SecureServer,
} from './fixtures/server.js';

let issuer: TestIssuer;
let server: SecureServer;
const as: Record<'alice' | 'bob', Record<string, string>> = { alice: {}, bob: {} };
const drivers: Driver[] = [];

beforeAll(async () => {
  issuer = await startIssuer();
  server = await startSecured(securedAgent(securedCard(issuer)), { auth: oidcAuth() });
  for (const sub of ['alice', 'bob'] as const) {
    as[sub] = { authorization: `Bearer ${await issuer.token({ sub, scope: SCOPE })}` };
  }
});

afterAll(async () => {
  for (const driver of drivers) driver.close();
  await server?.close();
  await issuer?.close();
});

function driver(binding: (typeof BINDINGS)[number], tenant?: string): Driver {
  const created = driverFor(binding, server, tenant === undefined ? {} : { tenant });
  drivers.push(created);
  return created;
}

const notFound = (outcome: Outcome) => expect(outcome.code).toBe('TASK_NOT_FOUND');
const taskIds = (outcome: Outcome) =>
  ((outcome.result as { tasks?: { id: string }[] }).tasks ?? []).map((t) => t.id);

describe.each(BINDINGS)('[197,198,163] owners are isolated (%s)', (binding) => {
  it("another principal cannot get, cancel, subscribe to, continue or configure a principal's task", async () => {
    const d = driver(binding);
    const alice = await createOwned(d, as.alice);
    notFound(await d.call('GetTask', { id: alice.doneTask }, as.bob));
    notFound(await d.call('CancelTask', { id: alice.waitingTask }, as.bob));
    notFound(await d.call('SubscribeToTask', { id: alice.waitingTask }, as.bob));
    const continued = userMessage('take over', { taskId: alice.waitingTask });
    notFound(await d.call('SendMessage', { message: continued }, as.bob));
    notFound(await d.call('SendStreamingMessage', { message: continued }, as.bob));
    const hook = { taskId: alice.doneTask, url: 'https://hooks.example.com/bob' };
    notFound(await d.call('CreateTaskPushNotificationConfig', hook, as.bob));
    const config = { taskId: alice.doneTask, id: alice.pushConfig };
    notFound(await d.call('GetTaskPushNotificationConfig', config, as.bob));
    notFound(await d.call('ListTaskPushNotificationConfigs', { taskId: alice.doneTask }, as.bob));
    notFound(await d.call('DeleteTaskPushNotificationConfig', config, as.bob));
    // Nothing bob did touched alice's task or config.
    const task = await d.call('GetTask', { id: alice.waitingTask }, as.alice);
    expect((task.result as { status: { state: string } }).status.state).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
    expect((await d.call('GetTaskPushNotificationConfig', config, as.alice)).code).toBe('OK');
  });

  it('ListTasks shows each principal only its own tasks, also when filtering by a known contextId', async () => {
    const d = driver(binding);
    const aliceTask = await createTask(d, as.alice, 'done');
    const bobTask = await createTask(d, as.bob, 'done');
    const bobs = await d.call('ListTasks', { pageSize: 100 }, as.bob);
    expect(taskIds(bobs)).toContain(bobTask);
    expect(taskIds(bobs)).not.toContain(aliceTask);
    const got = await d.call('GetTask', { id: aliceTask }, as.alice);
    const contextId = (got.result as { contextId: string }).contextId;
    const filtered = await d.call('ListTasks', { contextId }, as.bob);
    expect(taskIds(filtered)).toEqual([]);
    expect((filtered.result as { totalSize: number }).totalSize).toBe(0);
  });

  it("a principal who reuses another's contextId or messageId gets a task of its own", async () => {
    const d = driver(binding);
    const first = userMessage('hello', { messageId: `shared-${binding}` });
    const aliceReply = await d.call('SendMessage', { message: first }, as.alice);
    const aliceTask = (aliceReply.result as { task: { id: string; contextId: string } }).task;
    const replay = userMessage('hello', {
      messageId: `shared-${binding}`,
      contextId: aliceTask.contextId,
    });
    const bobReply = await d.call('SendMessage', { message: replay }, as.bob);
    const bobTask = (bobReply.result as { task: { id: string; history?: unknown[] } }).task;
    expect(bobTask.id).not.toBe(aliceTask.id);
    expect(bobTask.history?.length ?? 0).toBeLessThanOrEqual(2); // none of alice's turns
  });

  it('one principal is the same owner on every binding', async () => {
    const here = driver(binding);
    const id = await createTask(here, as.alice, 'done');
    for (const other of BINDINGS) {
      expect((await driver(other).call('GetTask', { id }, as.alice)).code).toBe('OK');
    }
  });
});

describe.each(BINDINGS)('[197] tenants partition everything (%s)', (binding) => {
  it('a task created in one tenant is invisible from another tenant and from none', async () => {
    const t1 = driver(binding, 'tenant-one');
    const t2 = driver(binding, 'tenant-two');
    const untenanted = driver(binding);
    const id = await createTask(t1, as.alice, 'waiting');
    expect((await t1.call('GetTask', { id }, as.alice)).code).toBe('OK');
    notFound(await t2.call('GetTask', { id }, as.alice));
    notFound(await untenanted.call('GetTask', { id }, as.alice));
    notFound(await t2.call('CancelTask', { id }, as.alice));
    notFound(await t2.call('SubscribeToTask', { id }, as.alice));
    notFound(await t2.call('ListTaskPushNotificationConfigs', { taskId: id }, as.alice));
    const inTwo = await t2.call('ListTasks', { pageSize: 100 }, as.alice);
    expect(taskIds(inTwo)).not.toContain(id);
    expect(taskIds(await t1.call('ListTasks', { pageSize: 100 }, as.alice))).toContain(id);
  });
});
