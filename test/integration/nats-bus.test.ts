/**
 * NatsEventBus against a real NATS with JetStream: the exported EventBus conformance suite (one
 * connection per bus, and buses sharing one connection), replay from a sequence, and entries
 * over the max payload read from the store. Runs when A2A_TEST_NATS_URL is set.
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

  it('replays the entries of a task after a given sequence, in order', async () => {
    const bus = await NatsEventBus.open({ servers: NATS_URL, prefix: prefix() });
    try {
      const taskId = `task.with dots*${Math.random()}`;
      const sent: LogEntry[] = Array.from({ length: 12 }, (_, i) => ({
        seq: i + 1,
        event: { message: { messageId: `m${i}`, role: 'ROLE_AGENT', parts: [{ text: `${i}` }] } },
      }));
      for (const entry of sent) await bus.publish(taskId, entry);
      await bus.publish(taskId, sent[4] as LogEntry); // a retried publish is stored once
      expect(await bus.replay(taskId, 0)).toEqual(sent);
      expect(await bus.replay(taskId, 7)).toEqual(sent.slice(7));
      expect(await bus.replay(taskId, 12)).toEqual([]);
      expect(await bus.replay('never-published', 0)).toEqual([]);
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
      await a.subscribe('big-task', (e) => got.push(e));
      await b.publish('big-task', big);
      await b.publish('big-task', small);
      // The small entry waits for the big one: order holds.
      await vi.waitFor(() => expect(got).toEqual([big, small]), { timeout: 10_000 });
      expect(reads).toEqual([2]);
    } finally {
      await Promise.all([a.close(), b.close(), store.close()]);
    }
  });
});
