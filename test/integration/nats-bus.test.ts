/**
 * NatsEventBus against a real NATS with JetStream: the exported EventBus conformance suite (one
 * connection per bus, and buses sharing one connection), subjects per tenant and task with any
 * tenant string encoded into one safe token, replay from a sequence, and entries over the max
 * payload read from the store. Runs when A2A_TEST_NATS_URL is set.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, expect, it, vi } from 'vitest';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { NatsEventBus } from '../../src/stores/nats/index.js';
import type { LogEntry, LogSource } from '../../src/stores/types.js';
import { runEventBusSuite } from '../../src/testing/index.js';
import { describeNats, dropStreams, freshPrefix, NATS_URL } from './nats-helpers.js';

const prefixes: string[] = [];
const prefix = () => {
  const p = freshPrefix();
  prefixes.push(p);
  return p;
};
afterAll(async () => {
  if (NATS_URL) await dropStreams(NATS_URL, prefixes);
});

describeNats('NATS JetStream event bus', () => {
  const shared = prefix();
  runEventBusSuite({
    name: 'NATS JetStream, own connection per bus',
    shared: true,
    create: () => NatsEventBus.open({ servers: NATS_URL, prefix: shared }),
  });

  let connection: NatsConnection | undefined;
  afterAll(async () => connection?.close());
  const sharedConnection = prefix();
  runEventBusSuite({
    name: 'NATS JetStream, one connection for every bus',
    shared: true,
    create: async () => {
      connection ??= await connect({ servers: NATS_URL ?? '' });
      return NatsEventBus.open({ connection, prefix: sharedConnection });
    },
  });

  it('publishes on <prefix>.events.<tenant>.<task>, one safe token each, so NATS can confine a tenant', async () => {
    const p = prefix();
    const bus = await NatsEventBus.open({ servers: NATS_URL, prefix: p });
    const nc = await connect({ servers: NATS_URL ?? '' });
    try {
      const tenants = ['', 'acme', 'a.b', '*', '>', 'a b\tc\n', '~acme', 'ünï'];
      const taskId = 'task.1 >*';
      // What an account confined to the subjects of tenant `acme` would receive.
      const confined: string[] = [];
      const acme = nc.subscribe(`${p}.events.acme.>`, {
        callback: (_e, msg) => void confined.push(msg.subject),
      });
      const all: string[] = [];
      const every = nc.subscribe(`${p}.events.>`, { callback: (_e, msg) => void all.push(msg.subject) });
      await nc.flush();
      const entry: LogEntry = {
        seq: 1,
        event: { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } },
      };
      for (const tenant of tenants) await bus.publish(tenant, taskId, entry);
      await vi.waitFor(() => expect(all).toHaveLength(tenants.length));
      expect(all).toEqual(tenants.map((t) => bus.subject(t, taskId)));
      for (const subject of all) {
        const tokens = subject.split('.');
        // prefix, `events`, tenant, task: nothing in a tenant or task adds or splits a token.
        expect(tokens).toHaveLength(p.split('.').length + 3);
        for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_~-]+$/);
      }
      expect(new Set(all).size).toBe(tenants.length);
      expect(bus.subject('acme', taskId)).toBe(
        `${p}.events.acme.~${Buffer.from(taskId).toString('base64url')}`,
      );
      expect(bus.subject('', 'plain')).toBe(`${p}.events.~.plain`);
      expect(confined).toEqual([bus.subject('acme', taskId)]);
      acme.unsubscribe();
      every.unsubscribe();
    } finally {
      await Promise.all([bus.close(), nc.close()]);
    }
  });

  it('replays the entries of a task after a given sequence, in order', async () => {
    const bus = await NatsEventBus.open({ servers: NATS_URL, prefix: prefix() });
    try {
      const taskId = `task.with dots*${Math.random()}`;
      const sent: LogEntry[] = Array.from({ length: 12 }, (_, i) => ({
        seq: i + 1,
        event: { message: { messageId: `m${i}`, role: 'ROLE_AGENT', parts: [{ text: `${i}` }] } },
      }));
      const tenant = 'tenant.with > and *';
      for (const entry of sent) await bus.publish(tenant, taskId, entry);
      await bus.publish(tenant, taskId, sent[4] as LogEntry); // a retried publish is stored once
      await bus.publish('other', taskId, sent[0] as LogEntry); // same task id, another tenant
      expect(await bus.replay(tenant, taskId, 0)).toEqual(sent);
      expect(await bus.replay(tenant, taskId, 7)).toEqual(sent.slice(7));
      expect(await bus.replay(tenant, taskId, 12)).toEqual([]);
      expect(await bus.replay('other', taskId, 0)).toEqual([sent[0]]);
      expect(await bus.replay('', taskId, 0)).toEqual([]);
      expect(await bus.replay(tenant, 'never-published', 0)).toEqual([]);
    } finally {
      await bus.close();
    }
  });

  it('sends an entry over the max payload without body; receivers read it from the store', async () => {
    const store = new MemoryTaskStore();
    const big: LogEntry = {
      seq: 2,
      event: {
        message: { messageId: 'big', role: 'ROLE_AGENT', parts: [{ text: 'x'.repeat(5000) }] },
      },
    };
    const small: LogEntry = {
      seq: 3,
      event: { message: { messageId: 's', role: 'ROLE_AGENT', parts: [{ text: 'y' }] } },
    };
    const reads: number[] = [];
    const source: LogSource = {
      entryAt: (_taskId, seq) => {
        reads.push(seq);
        return Promise.resolve(seq === 2 ? big : undefined);
      },
      lastEntry: () => Promise.resolve(undefined),
    };
    const p = prefix();
    const [a, b] = [
      await NatsEventBus.open({
        servers: NATS_URL,
        prefix: p,
        store: source,
        maxPayloadBytes: 1000,
      }),
      await NatsEventBus.open({ servers: NATS_URL, prefix: p, maxPayloadBytes: 1000 }),
    ];
    try {
      const got: LogEntry[] = [];
      await a.subscribe('', 'big-task', (e) => got.push(e));
      await b.publish('', 'big-task', big);
      await b.publish('', 'big-task', small);
      // The small entry waits for the big one: order holds.
      await vi.waitFor(() => expect(got).toEqual([big, small]), { timeout: 10_000 });
      expect(reads).toEqual([2]);
    } finally {
      await Promise.all([a.close(), b.close(), store.close()]);
    }
  });
});
