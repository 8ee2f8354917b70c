/**
 * `a2a serve --store postgres://… --bus nats://…/<prefix>` (issue 21, item 1: the bus selected by
 * URL): two CLI instances share one PostgreSQL schema and fan events out over NATS JetStream. A
 * task streamed on A is followed live on B to its end, and the bus's stream holds the task's
 * entries under `<prefix>.events.~.<task id>` (no tenant). Needs A2A_TEST_POSTGRES_URL and
 * A2A_TEST_NATS_URL. `--bus` holds for `--exec`, `--echo` and `--mcp` too (NATS only).
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/index.js';
import { dataPart, userMessage } from '../../src/core/parts.js';
import type { StreamResponse } from '../../src/core/schemas/index.js';
import { cli } from '../e2e/harness.js';
import { describeNats, dropStreams, freshPrefix, NATS_URL } from './nats-helpers.js';
import {
  POSTGRES_URL,
  describePostgres,
  freshSchema,
  postgresFixture,
} from './postgres-helpers.js';

const schema = freshSchema();
postgresFixture([schema]);
const prefix = freshPrefix();
const modesPrefix = freshPrefix();
const MCP_FIXTURE = new URL('../fixtures/mcp/tool-server.mjs', import.meta.url).pathname;
afterAll(async () => {
  if (NATS_URL) await dropStreams(NATS_URL, [prefix, modesPrefix]);
});

/** The subjects the NATS bus stream of `p` holds. */
async function busSubjects(p: string): Promise<string[]> {
  const nc = await connect({ servers: NATS_URL ?? '' });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(`${p.toUpperCase()}_EVENTS`, { subjects_filter: '>' });
    return Object.keys(info.state.subjects ?? {});
  } finally {
    await nc.close();
  }
}

/** Starts `a2a serve <argv>` in this process; its URL, what it printed, and a stop. */
async function serving(argv: string[], env: Record<string, string>) {
  const stop = new AbortController();
  let listening: (url: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (listening = resolve));
  let printed = '';
  const done = cli(['serve', '--port', '0', '--no-grpc', ...argv], {
    env,
    signal: stop.signal,
    onStdout: (soFar) => {
      printed = soFar;
      const found = / on (http:\/\/\S+)/.exec(soFar)?.[1];
      if (found) listening(found);
    },
  });
  const url = await Promise.race([
    ready,
    done.then((r) => {
      throw new Error(`serve ended: ${r.code} ${r.stderr}`);
    }),
  ]);
  const end = () => {
    stop.abort();
    return done;
  };
  return { url, printed: () => printed, stop: end };
}

describePostgres('a2a serve --bus nats://…', () => {
  describeNats('with PostgreSQL and the NATS bus', () => {
    it('fans the events of a task out to another instance over NATS', async () => {
      const argv = ['--store', POSTGRES_URL ?? '', '--bus', `${NATS_URL}/${prefix}`];
      const env = { A2A_PG_SCHEMA: schema };
      const [a, b] = [await serving(argv, env), await serving(argv, env)];
      try {
        expect(a.printed()).toContain('events over NATS');
        const onA = await A2AClient.connect(a.url);
        const onB = await A2AClient.connect(b.url);
        const stream = onA.sendStreamingMessage({ message: userMessage('story 40') });
        const first = await stream[Symbol.asyncIterator]().next();
        const taskId =
          first.value && 'task' in first.value ? first.value.task.id : String(first.value);
        const seenOnB: StreamResponse[] = [];
        for await (const event of onB.subscribeToTask({ id: taskId })) seenOnB.push(event);
        expect(seenOnB.at(-1)).toMatchObject({
          statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
        });
        // Live events reached B (not only the snapshot it starts with).
        expect(seenOnB.filter((e) => 'artifactUpdate' in e).length).toBeGreaterThan(0);
        // They went over NATS, on the subject of the task without tenant.
        expect(await busSubjects(prefix)).toContain(`${prefix}.events.~.${taskId}`);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });
  });
});

describeNats('a2a serve --exec | --echo | --mcp --bus nats://…', () => {
  const modes: [string, string[], () => ReturnType<typeof userMessage>][] = [
    ['--exec', ['--exec', 'tr a-z A-Z'], () => userMessage('loud')],
    ['--echo', ['--echo'], () => userMessage('again')],
    [
      '--mcp',
      ['--mcp', `${process.execPath} ${MCP_FIXTURE}`],
      () => userMessage([dataPart({ tool: 'add', arguments: { a: 1, b: 2 } })]),
    ],
  ];
  for (const [mode, argv, message] of modes) {
    it(`${mode} publishes its tasks' events on the NATS bus it is given`, async () => {
      const served = await serving([...argv, '--bus', `${NATS_URL}/${modesPrefix}`], {});
      try {
        expect(served.printed()).toContain('events over NATS');
        const client = await A2AClient.connect(served.url);
        const reply = await client.sendMessage({ message: message() });
        const taskId = 'task' in reply ? reply.task.id : '';
        expect(taskId).not.toBe('');
        expect(await busSubjects(modesPrefix)).toContain(`${modesPrefix}.events.~.${taskId}`);
        client.close();
      } finally {
        expect((await served.stop()).code).toBe(0);
      }
    });
  }
});
