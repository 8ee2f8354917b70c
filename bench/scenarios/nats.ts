/**
 * The NATS binding and bus beside HTTP (issue 21): one a2a-kit server answering over JSON-RPC,
 * HTTP+JSON and NATS (docs/bindings/nats.md), called by A2AClient one call at a time: round-trip
 * latency of a blocking SendMessage and streams per second of SendStreamingMessage; and the
 * event buses: publish → delivery latency between two NatsEventBus instances beside the
 * in-process MemoryEventBus. Server and client share this process (unlike `send`), so compare
 * rows with each other, not with other scenarios. NATS from A2A_BENCH_NATS_URL (default
 * nats://127.0.0.1:4222); skipped with a note when unreachable.
 */
import { NATS_BINDING } from '../../src/bindings/nats/wire.js';
import { A2AClient, userMessage } from '../../src/client/index.js';
import { serve } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';
import { MemoryEventBus } from '../../src/stores/memory/event-bus.js';
import { NatsEventBus } from '../../src/stores/nats/index.js';
import type { EventBus, LogEntry } from '../../src/stores/types.js';
import type { BenchContext } from '../context.js';
import { fmt, median, type ScenarioResult } from '../report.js';

const agent = createAgent({
  card: {
    name: 'bench',
    description: 'replies, or streams six events',
    version: '1.0.0',
    skills: [],
  },
  async *execute({ task, message }) {
    const text = message.parts[0] && 'text' in message.parts[0] ? message.parts[0].text : '';
    if (text === 'reply') {
      yield task.reply('ok');
      return;
    }
    yield task.working();
    for (let i = 0; i < 3; i++)
      yield task.artifact(`chunk ${i}`, { artifactId: 'a', append: i > 0 });
    yield task.completed();
  },
});

const BINDINGS = [
  ['JSON-RPC', 'JSONRPC'],
  ['HTTP+JSON', 'HTTP+JSON'],
  ['NATS', NATS_BINDING],
] as const;

/** Calls `once` back to back for `seconds`; per-call wall times in µs. */
async function timed(seconds: number, once: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const start = performance.now();
    await once();
    times.push((performance.now() - start) * 1000);
  }
  return times;
}

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? NaN;

/** Publish → delivery latency of `pair` (publisher, subscriber), one entry at a time, in µs. */
async function busLatency(seconds: number, pub: EventBus, sub: EventBus): Promise<number[]> {
  const taskId = `bench-${crypto.randomUUID()}`;
  let resolve: (() => void) | undefined;
  await sub.subscribe('', taskId, () => resolve?.());
  let seq = 0;
  const event = {
    message: { messageId: 'm', role: 'ROLE_AGENT' as const, parts: [{ text: 'x' }] },
  };
  return timed(seconds, async () => {
    const delivered = new Promise<void>((r) => (resolve = r));
    const entry: LogEntry = { seq: ++seq, event };
    await pub.publish('', taskId, entry);
    await delivered;
  });
}

/** Runs the scenario. */
export async function natsScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const natsUrl = process.env['A2A_BENCH_NATS_URL'] || 'nats://127.0.0.1:4222';
  const seconds = options.smoke ? 0.5 : options.durationSec;
  const subject = `bench${crypto.randomUUID().slice(0, 8)}`;
  let running: Awaited<ReturnType<typeof serve>>;
  try {
    running = await serve(agent, { port: 0, logger: null, nats: { servers: natsUrl, subject } });
  } catch (error) {
    const note = `skipped: no NATS at ${natsUrl} (${String(error)})`;
    return {
      sections: [{ title: 'NATS binding and bus', columns: ['note'], rows: [[note]] }],
      checks: [],
      data: {},
    };
  }
  const data: Record<string, unknown> = {};
  const rows: string[][] = [];
  try {
    for (const [label, binding] of BINDINGS) {
      const client = await A2AClient.connect(running.url, { preferredBinding: binding });
      await client.sendMessage({ message: userMessage('reply') }); // connection and warm-up
      const unary = await timed(seconds, async () => {
        await client.sendMessage({ message: userMessage('reply') });
      });
      const streams = await timed(seconds, async () => {
        for await (const _ of client.sendStreamingMessage({ message: userMessage('stream') }))
          void _;
      });
      client.close?.();
      data[label] = {
        unaryMedianUs: median(unary),
        unaryP99Us: p99(unary),
        streamMedianUs: median(streams),
      };
      rows.push([
        label,
        fmt(median(unary)),
        fmt(p99(unary)),
        fmt(1e6 / median(unary)),
        fmt(1e6 / median(streams)),
      ]);
    }
  } finally {
    await running.close();
  }
  const busRows: string[][] = [];
  const memory = new MemoryEventBus();
  const mem = await busLatency(seconds, memory, memory);
  await memory.close();
  busRows.push([
    'memory (one process)',
    fmt(median(mem), 1),
    fmt(p99(mem), 1),
    fmt(1e6 / median(mem)),
  ]);
  const prefix = `bench${crypto.randomUUID().slice(0, 8)}`;
  const [a, b] = [
    await NatsEventBus.open({ servers: natsUrl, prefix }),
    await NatsEventBus.open({ servers: natsUrl, prefix }),
  ];
  const nats = await busLatency(seconds, a, b);
  await Promise.all([a.close(), b.close()]);
  busRows.push([
    'NATS JetStream (two instances)',
    fmt(median(nats), 1),
    fmt(p99(nats), 1),
    fmt(1e6 / median(nats)),
  ]);
  data['bus'] = { memoryMedianUs: median(mem), natsMedianUs: median(nats) };
  return {
    sections: [
      {
        title:
          'NATS binding beside HTTP (A2AClient, one call at a time, server in the same process)',
        columns: ['binding', 'SendMessage median µs', 'p99 µs', 'calls/s', 'streams/s (6 events)'],
        rows,
        note: 'NATS streams ack each message (docs/bindings/nats.md), one round trip per event.',
      },
      {
        title: 'Event bus: publish → delivery, one entry at a time',
        columns: ['bus', 'median µs', 'p99 µs', 'entries/s'],
        rows: busRows,
        note: `NATS at ${natsUrl}; publish waits for the JetStream ack.`,
      },
    ],
    checks: [],
    data,
  };
}
