/**
 * The conformance suite every PushOutbox runs: durable enqueue (duplicates ignored), claims under
 * a lease, strict seq order per (task, config) pair through retries, failures kept aside, claims
 * that expire or are released, and deliveries gone with their task. Tests only look at their own
 * tasks' deliveries, so a shared database with other rows works.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamResponse } from '../core/schemas/index.js';
import {
  ConcurrencyError,
  type AppendPush,
  type ClaimedDelivery,
  type NewDelivery,
  type PushOutbox,
  type Scope,
} from '../stores/types.js';
import { pushConfig, type PushConfigTaskStore } from './push-config-suite.js';
import {
  artifactEvent,
  facet,
  freshScopes,
  newTask,
  statusEvent,
  uniqueId,
  attempt,
} from './store-fixtures.js';

/** A store with push configs and an outbox (`facets.pushConfigs`, `facets.pushOutbox`). */
export type PushOutboxTaskStore = PushConfigTaskStore;

/** Options of {@link runPushOutboxSuite}. */
export interface PushOutboxSuiteOptions {
  name: string;
  create: () => Promise<PushOutboxTaskStore> | PushOutboxTaskStore;
}

const LEASE = 60_000;

/** Registers the PushOutbox conformance tests for one implementation. */
export function runPushOutboxSuite(options: PushOutboxSuiteOptions): void {
  describe(`PushOutbox conformance: ${options.name}`, () => {
    let current: PushOutboxTaskStore | undefined;
    const store = (): PushOutboxTaskStore => {
      if (!current) throw new Error('the store is only available inside a test');
      return current;
    };
    const outbox = (): PushOutbox => facet(store(), 'pushOutbox');
    beforeEach(async () => {
      current = await options.create();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    /** A task with configs `a` and `b`, and a delivery builder for it. */
    const fixture = async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const configs = facet(store(), 'pushConfigs');
      for (const id of ['a', 'b']) await configs.putPushConfig(scope, pushConfig(task.id, id));
      const delivery = (configId: string, seq: number): NewDelivery => ({
        id: uniqueId('d'),
        scope,
        taskId: task.id,
        configId,
        seq,
        body: `{"n":${seq},"text":"caf\u00e9 \u{1f600}"}`,
      });
      const claim = (leaseMs = LEASE) => claimOwn(outbox(), task.id, leaseMs);
      return { scope, task, taskId: task.id, delivery, claim };
    };
    const keys = (claimed: readonly ClaimedDelivery[]) =>
      claimed.map((d) => `${d.configId}${d.seq}#${d.attempt}`).sort();

    it('claims enqueued deliveries once while leased, with their exact body and scope', async () => {
      const { scope, delivery, claim } = await fixture();
      const first = delivery('a', 2);
      await outbox().enqueue([first]);
      const [claimed, ...rest] = await claim();
      expect(rest).toEqual([]);
      expect(claimed).toMatchObject({ ...first, scope: { ...scope }, attempt: 0 });
      expect(typeof claimed?.claim).toBe('string');
      expect(await claim()).toEqual([]);
    });

    it('ignores a delivery enqueued twice for the same task, config and seq', async () => {
      const { taskId, delivery } = await fixture();
      await outbox().enqueue([delivery('a', 2)]);
      await outbox().enqueue([delivery('a', 2), delivery('a', 3)]);
      expect((await outbox().list(taskId)).map((d) => d.seq)).toEqual([2, 3]);
    });

    it('offers only the oldest pending delivery of each (task, config) pair', async () => {
      const { delivery, claim } = await fixture();
      await outbox().enqueue([delivery('a', 3), delivery('a', 2), delivery('b', 2)]);
      await outbox().enqueue([delivery('a', 4)]);
      const first = await claim();
      expect(keys(first)).toEqual(['a2#0', 'b2#0']);
      const a2 = first.find((d) => d.configId === 'a') as ClaimedDelivery;
      await outbox().complete(a2);
      expect(keys(await claim())).toEqual(['a3#0']);
    });

    it('keeps order through retries: a delayed retry holds back the deliveries after it', async () => {
      const { delivery, claim } = await fixture();
      await outbox().enqueue([delivery('a', 2), delivery('a', 3)]);
      const [a2] = await claim();
      await outbox().retry(a2 as ClaimedDelivery, 0, 'HTTP 503');
      const [again] = await claim();
      expect(again).toMatchObject({ seq: 2, attempt: 1 });
      await outbox().retry(again as ClaimedDelivery, 600_000, 'HTTP 503');
      expect(await claim()).toEqual([]);
    });

    it('keeps a failed delivery aside and moves on to the next one', async () => {
      const { taskId, delivery, claim } = await fixture();
      await outbox().enqueue([delivery('a', 2), delivery('a', 3)]);
      const [a2] = await claim();
      await outbox().fail(a2 as ClaimedDelivery, 'HTTP 400');
      expect(keys(await claim())).toEqual(['a3#0']);
      const stored = await outbox().list(taskId);
      expect(stored.map((d) => [d.seq, d.state, d.attempt, d.lastError])).toEqual([
        [2, 'failed', 1, 'HTTP 400'],
        [3, 'pending', 0, undefined],
      ]);
    });

    it('hands a released or expired claim out again; the old claim no longer acts', async () => {
      const { taskId, delivery, claim } = await fixture();
      await outbox().enqueue([delivery('a', 2)]);
      const [first] = await claim();
      await outbox().release(first as ClaimedDelivery);
      const [second] = await claim(30);
      expect(second).toMatchObject({ seq: 2, attempt: 0 });
      await new Promise((resolve) => setTimeout(resolve, 80));
      const [third] = await claim();
      expect(third?.claim).not.toBe(second?.claim);
      await outbox().complete(second as ClaimedDelivery);
      await outbox().retry(first as ClaimedDelivery, 0, 'stale');
      expect(await outbox().list(taskId)).toHaveLength(1);
      await outbox().complete(third as ClaimedDelivery);
      expect(await outbox().list(taskId)).toEqual([]);
    });

    it('drops the deliveries of a deleted task', async () => {
      const { scope, taskId, delivery, claim } = await fixture();
      await outbox().enqueue([delivery('a', 2), delivery('b', 2)]);
      const [claimed] = await claim();
      await outbox().fail(claimed as ClaimedDelivery, 'HTTP 400');
      await store().delete(scope, taskId);
      expect(await outbox().list(taskId)).toEqual([]);
      expect(await claim()).toEqual([]);
    });

    /** Picks status updates; counts how often the store said it enqueued. */
    const statusOnly = () => {
      const heard = { enqueued: 0 };
      const push: AppendPush = {
        select: (event: StreamResponse) => 'statusUpdate' in event,
        enqueued: () => heard.enqueued++,
      };
      return { push, heard };
    };

    it('enqueues the deliveries an append selects, per config, with the seq and exact JSON of each event', async () => {
      const { scope, task, taskId } = await fixture();
      const { push, heard } = statusOnly();
      const working = statusEvent(task, 'TASK_STATE_WORKING');
      const chunk = artifactEvent(task, {
        artifactId: 'a1',
        parts: [{ text: 'caf\u00e9 \u{1f600}' }],
      });
      const done = statusEvent(task, 'TASK_STATE_COMPLETED');
      await store().append(scope, taskId, [working, chunk], 1, { push });
      await store().append(scope, taskId, [done], 3, { push });
      const stored = await outbox().list(taskId);
      expect(stored.map((d) => `${d.configId}${d.seq}:${d.state}`)).toEqual([
        'a2:pending',
        'a4:pending',
        'b2:pending',
        'b4:pending',
      ]);
      for (const d of stored) {
        expect(d.body).toBe(JSON.stringify(d.seq === 2 ? working : done));
        expect(d.scope).toEqual(scope);
      }
      expect(new Set(stored.map((d) => d.id)).size).toBe(4);
      expect(heard.enqueued).toBe(2);
      expect(keys(await claimOwn(outbox(), taskId, LEASE))).toEqual(['a2#0', 'b2#0']);
    });

    it('enqueues nothing for an append that is refused, nor for a task without configs', async () => {
      const { scope, task, taskId } = await fixture();
      const { push, heard } = statusOnly();
      const late = statusEvent(task, 'TASK_STATE_WORKING');
      await expect(
        attempt(() => store().append(scope, taskId, [late], 7, { push })),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      const bare = newTask({});
      await store().create(scope, bare);
      await store().append(scope, bare.id, [statusEvent(bare, 'TASK_STATE_WORKING')], 1, {
        push,
      });
      expect(await outbox().list(taskId)).toEqual([]);
      expect(await outbox().list(bare.id)).toEqual([]);
      expect(heard.enqueued).toBe(0);
    });

    it('keeps deliveries apart per task', async () => {
      const one = await fixture();
      const two = await fixture();
      await outbox().enqueue([one.delivery('a', 2), two.delivery('a', 2)]);
      expect(keys(await one.claim())).toEqual(['a2#0']);
      expect(keys(await two.claim())).toEqual(['a2#0']);
      expect(scopeOf(await outbox().list(two.taskId))).toEqual([two.scope]);
    });
  });
}

/** Claims due deliveries and gives back every claim on other tasks' rows (shared databases). */
async function claimOwn(
  outbox: PushOutbox,
  taskId: string,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const claimed = await outbox.claim(1_000, leaseMs);
  const mine = claimed.filter((d) => d.taskId === taskId);
  for (const d of claimed) if (d.taskId !== taskId) await outbox.release(d);
  return mine;
}

function scopeOf(deliveries: readonly { scope: Scope }[]): Scope[] {
  return deliveries.map((d) => ({ ...d.scope }));
}
