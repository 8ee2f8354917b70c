import { afterEach, describe, expect, it } from 'vitest';
import type { StreamResponse } from '../core/schemas/index.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { StoredPushConfig } from '../stores/types.js';
import {
  artifactEvent,
  newTask,
  statusEvent,
  textArtifact,
  userText,
} from '../testing/store-fixtures.js';
import {
  startWebhook,
  testNotifier,
  waitFor,
  type WebhookAnswer,
  type WebhookCall,
} from '../../test/integration/push-helpers.js';
import type { PushNotifierOptions } from './notifier.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A task in a memory store with one config pointing at a scripted webhook, and a notifier. */
async function fixture(
  answer?: (call: WebhookCall, index: number) => WebhookAnswer,
  options: Partial<PushNotifierOptions> = {},
  config: Partial<StoredPushConfig> = {},
) {
  const hook = await startWebhook(answer);
  const store = new MemoryTaskStore();
  const scope = { tenant: '', owner: 'alice' };
  const task = newTask({});
  await store.create(scope, task);
  const stored: StoredPushConfig = {
    taskId: task.id,
    id: 'c1',
    url: `${hook.url}/hook?k=v`,
    token: 'tok-123',
    authentication: { scheme: 'Bearer', credentials: 'secret-abc' },
    ...config,
  };
  await store.putPushConfig(scope, stored);
  const { notifier, outcomes } = testNotifier({ store, ...options });
  cleanups.push(
    () => hook.close(),
    () => store.close(),
    () => notifier.close(),
  );
  let seq = 1;
  /** Appends events and notifies, as A2AServer does. */
  const emit = async (...events: StreamResponse[]) => {
    const from = seq;
    seq = await store.append(scope, task.id, events, seq);
    await notifier.notify(
      scope,
      task.id,
      events.map((event, i) => ({ seq: from + i + 1, event })),
    );
  };
  const states = () =>
    hook.calls.map((c) => {
      const event = JSON.parse(c.body) as StreamResponse;
      return 'statusUpdate' in event ? event.statusUpdate.status.state : Object.keys(event)[0];
    });
  return { hook, store, scope, task, notifier, outcomes, emit, states };
}

const ok = (): WebhookAnswer => ({ status: 200 });

describe('push delivery to a loopback webhook', () => {
  it('[139,140,141,142,149] POSTs each status and artifact update as application/a2a+json with the configured credentials', async () => {
    const f = await fixture();
    const working = statusEvent(f.task, 'TASK_STATE_WORKING');
    const artifact = artifactEvent(f.task, textArtifact('a1', 'hello'));
    await f.notifier.notify(f.scope, f.task.id, [{ seq: 1, event: { task: f.task } }]);
    await f.emit({ message: userText('more') });
    await f.emit(working, artifact);
    await waitFor(() => f.outcomes.length === 2, 5_000, 'two deliveries');
    expect(f.hook.calls.map((c) => JSON.parse(c.body) as unknown)).toEqual([working, artifact]);
    const [call] = f.hook.calls;
    expect(call?.path).toBe('/hook?k=v');
    expect(call?.headers).toMatchObject({
      'content-type': 'application/a2a+json',
      authorization: 'Bearer secret-abc',
      'x-a2a-notification-token': 'tok-123',
      'x-a2a-notification-id': f.outcomes[0]?.deliveryId,
    });
    expect(call?.headers['x-a2a-notification-signature']).toBeUndefined();
    expect(f.notifier.metrics()).toMatchObject({ enqueued: 2, delivered: 2, failed: 0 });
  });

  it('[143,144,153] retries a webhook that fails three times: delivered once, in order with later events', async () => {
    const f = await fixture((_, i) => (i < 3 ? { status: 503 } : { status: 200 }));
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await f.emit(artifactEvent(f.task, textArtifact('a1', 'x')));
    await f.emit(statusEvent(f.task, 'TASK_STATE_COMPLETED'));
    await waitFor(() => f.notifier.metrics().delivered === 3, 5_000, 'three deliveries');
    expect(f.states()).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'artifactUpdate',
      'TASK_STATE_COMPLETED',
    ]);
    // [153] Every attempt carries the same delivery id, so the webhook can drop duplicates.
    const ids = f.hook.calls.slice(0, 4).map((c) => c.headers['x-a2a-notification-id']);
    expect(new Set(ids).size).toBe(1);
    const retried = f.outcomes.filter((o) => o.outcome === 'retried');
    expect(retried.map((o) => [o.seq, o.attempt, o.status])).toEqual([
      [2, 1, 503],
      [2, 2, 503],
      [2, 3, 503],
    ]);
    const delivered = f.outcomes.filter((o) => o.outcome === 'delivered');
    expect(delivered.map((o) => [o.seq, o.attempt])).toEqual([
      [2, 4],
      [3, 1],
      [4, 1],
    ]);
    expect(await f.store.pushOutbox().list(f.task.id)).toEqual([]);
  });

  it('[145] times out a webhook that hangs, then retries', async () => {
    const f = await fixture((_, i) => (i === 0 ? 'hang' : { status: 204 }), { timeoutMs: 300 });
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.notifier.metrics().delivered === 1, 5_000, 'a delivery');
    expect(f.outcomes.map((o) => [o.outcome, o.attempt, o.error])).toEqual([
      ['retried', 1, 'no answer within 300 ms'],
      ['delivered', 2, undefined],
    ]);
    expect(f.outcomes[0]?.durationMs).toBeGreaterThanOrEqual(290);
    expect(f.hook.calls).toHaveLength(2);
  });

  it('does not retry a 400: recorded failed, and the next event still goes out', async () => {
    const f = await fixture((_, i) => (i === 0 ? { status: 400 } : { status: 200 }));
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await f.emit(statusEvent(f.task, 'TASK_STATE_COMPLETED'));
    await waitFor(() => f.outcomes.length === 2, 5_000, 'two outcomes');
    expect(f.outcomes.map((o) => [o.outcome, o.seq, o.status])).toEqual([
      ['failed', 2, 400],
      ['delivered', 3, 200],
    ]);
    expect(f.hook.calls).toHaveLength(2);
    const [kept] = await f.store.pushOutbox().list(f.task.id);
    expect(kept).toMatchObject({ seq: 2, state: 'failed', attempt: 1, lastError: 'HTTP 400' });
    expect(f.notifier.metrics()).toMatchObject({ delivered: 1, failed: 1, retried: 0 });
  });

  it('[144] waits as long as Retry-After says on 429', async () => {
    const f = await fixture(
      (_, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }),
      { retry: { maxDelayMs: 5_000 } },
    );
    const started = Date.now();
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.notifier.metrics().delivered === 1, 5_000, 'a delivery');
    expect(f.outcomes[0]).toMatchObject({ outcome: 'retried', status: 429, retryInMs: 1_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('[146] retries 408, resets and refused connections, then gives up after maxAttempts', async () => {
    const f = await fixture((_, i) => (i === 0 ? { status: 408 } : 'reset'), {
      retry: { maxAttempts: 3 },
    });
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.notifier.metrics().failed === 1, 5_000, 'giving up');
    expect(f.outcomes.map((o) => o.outcome)).toEqual(['retried', 'retried', 'failed']);
    expect(f.outcomes[2]?.error).toMatch(/^gave up after 3 attempts: /);

    const closed = await startWebhook();
    await closed.close();
    const g = await fixture(undefined, { retry: { maxAttempts: 2 } }, { url: `${closed.url}/x` });
    await g.emit(statusEvent(g.task, 'TASK_STATE_WORKING'));
    await waitFor(() => g.notifier.metrics().failed === 1, 5_000, 'giving up');
    expect(g.outcomes.map((o) => o.error)).toEqual([
      'connection refused (ECONNREFUSED)',
      'gave up after 2 attempts: connection refused (ECONNREFUSED)',
    ]);
  });

  it('does not follow redirects', async () => {
    const target = await startWebhook();
    cleanups.push(() => target.close());
    const f = await fixture(() => ({ status: 302, headers: { location: `${target.url}/else` } }));
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.outcomes.length === 1, 5_000, 'an outcome');
    expect(f.outcomes[0]).toMatchObject({ outcome: 'failed', status: 302 });
    expect(target.calls).toEqual([]);
  });

  it('[134] stops delivering to a deleted config', async () => {
    const f = await fixture(undefined, { start: false });
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await f.store.deletePushConfig(f.scope, f.task.id, 'c1');
    f.notifier.start();
    await waitFor(() => f.outcomes.length === 1, 5_000, 'an outcome');
    expect(f.outcomes[0]).toMatchObject({ outcome: 'dropped', error: 'config deleted' });
    expect(f.hook.calls).toEqual([]);
  });

  it('keeps each config in its own order: a failing webhook does not hold back another', async () => {
    const slow = await startWebhook((_, i) => (i < 2 ? { status: 500 } : { status: 200 }));
    cleanups.push(() => slow.close());
    const f = await fixture();
    await f.store.putPushConfig(f.scope, { taskId: f.task.id, id: 'c2', url: `${slow.url}/s` });
    for (const state of ['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'] as const) {
      await f.emit(statusEvent(f.task, state));
    }
    await waitFor(() => f.notifier.metrics().delivered === 4, 5_000, 'four deliveries');
    expect(f.states()).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    const bodies = slow.calls.map((c) => JSON.parse(c.body) as StreamResponse as object);
    expect(bodies.map((b) => JSON.stringify(b).includes('COMPLETED'))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it('[138,155] logs one line per outcome without credentials, tokens or query strings', async () => {
    const lines: string[] = [];
    const logger = { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) };
    const f = await fixture((_, i) => (i === 0 ? { status: 500 } : { status: 200 }), { logger });
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.notifier.metrics().delivered === 1, 5_000, 'a delivery');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^a2a-kit push: retried task=\S+ config=c1 seq=2 attempt=1 status=500/,
    );
    expect(lines[1]).toMatch(/^a2a-kit push: delivered .* url=http:\/\/127\.0\.0\.1:\d+\/hook /);
    expect(lines.join('\n')).not.toMatch(/secret-abc|tok-123|k=v/);
  });

  it('stops on close and leaves pending deliveries in the outbox', async () => {
    // Retry-After puts the retry a minute away: with a jittered backoff (anywhere in 0-10 s) it
    // could come before the check below sees the first attempt alone.
    const busy = () => ({ status: 503, headers: { 'retry-after': '60' } });
    const f = await fixture(busy, { retry: { baseDelayMs: 10_000 } });
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.outcomes.length === 1, 5_000, 'an attempt');
    await f.notifier.close();
    const [pending] = await f.store.pushOutbox().list(f.task.id);
    expect(pending).toMatchObject({ state: 'pending', attempt: 1, lastError: 'HTTP 503' });
    expect(f.hook.calls).toHaveLength(1);
  });
});

describe('push SSRF guard at connect time [147]', () => {
  it('refuses a name that resolves to loopback when delivering (DNS rebinding), without retrying', async () => {
    const hook = await startWebhook(ok);
    const port = hook.port;
    const f = await fixture(
      undefined,
      { resolver: async () => [{ address: '127.0.0.1', family: 4 }] },
      { url: `https://rebind.example.com:${port}/hook` },
    );
    cleanups.push(() => hook.close());
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.outcomes.length === 1, 5_000, 'an outcome');
    expect(f.outcomes[0]).toMatchObject({ outcome: 'failed', attempt: 1 });
    expect(f.outcomes[0]?.error).toMatch(/rebind\.example\.com resolves to 127\.0\.0\.1, loopback/);
    expect(hook.calls).toEqual([]);
  });

  it('connects an allow-listed name to the address its resolver vetted', async () => {
    const f = await fixture(undefined, {
      allowHosts: ['hook.test'],
      resolver: async (host) => (host === 'hook.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
    });
    await f.store.putPushConfig(f.scope, {
      taskId: f.task.id,
      id: 'c1',
      url: `http://hook.test:${f.hook.port}/named`,
    });
    await f.emit(statusEvent(f.task, 'TASK_STATE_WORKING'));
    await waitFor(() => f.notifier.metrics().delivered === 1, 5_000, 'a delivery');
    expect(f.hook.calls[0]?.headers.host).toBe(`hook.test:${f.hook.port}`);
    expect(f.hook.calls[0]?.path).toBe('/named');
  });

  it('refuses loopback at create time unless allow-listed', async () => {
    const f = await fixture(undefined, { allowHosts: [] });
    await expect(f.notifier.validateUrl(`${f.hook.url}/hook`)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      fieldViolations: [{ field: 'url', description: 'webhooks must use https' }],
    });
    await expect(f.notifier.validateUrl('https://127.0.0.1/hook')).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });
});
