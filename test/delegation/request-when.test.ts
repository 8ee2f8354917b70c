/**
 * Request-When over real agents on loopback (docs/extensions/delegation.md §3): the request is
 * sent when the watched task completes with the named artifact, also after the watcher stopped
 * (a restart) and was resumed from the store — memory, a SQLite file reopened by a new instance,
 * PostgreSQL when A2A_TEST_POSTGRES_URL is set — exactly once, even with two resumed watchers;
 * a task that ends otherwise drops it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from 'a2a-kit/client';
import {
  MemoryRequestWhenStore,
  requestWhen,
  resumeRequestWhen,
  type RequestWhenStore,
} from 'a2a-kit/delegation';
import { SqliteRequestWhenStore } from 'a2a-kit/stores/sqlite';
import { PostgresRequestWhenStore } from 'a2a-kit/stores/postgres';
import { serve, type ServeResult } from 'a2a-kit/node';
import { createAgent, textOf, userMessage } from 'a2a-kit/server';
import type { Message } from 'a2a-kit';

const received: Message[] = [];
let watched: ServeResult;
let target: ServeResult;

beforeAll(async () => {
  watched = await serve(
    createAgent({
      card: {
        name: 'W',
        description: 'w',
        version: '1',
        skills: [{ id: 'w', name: 'w', description: 'w', tags: ['x'] }],
      },
      async *execute({ message, task, current }) {
        if (current === undefined) {
          yield task.inputRequired('go?');
          return;
        }
        if (textOf(message) === 'fail') {
          yield task.failed('no');
          return;
        }
        yield task.artifact('the report', { name: 'report' });
        yield task.completed();
      },
    }),
    { logger: null },
  );
  target = await serve(
    createAgent({
      card: {
        name: 'T',
        description: 't',
        version: '1',
        skills: [{ id: 't', name: 't', description: 't', tags: ['x'] }],
      },
      async *execute({ message, task }) {
        received.push(message);
        yield task.completed();
      },
    }),
    { logger: null },
  );
});
afterAll(async () => {
  await watched.close();
  await target.close();
});

async function pausedTask(client: A2AClient): Promise<string> {
  const r = await client.sendMessage({ message: userMessage('start') });
  if (!('task' in r)) throw new Error('expected a task');
  return r.task.id;
}

describe('requestWhen (FIPA Request-When)', () => {
  it('sends when the task completes with the artifact, after a restart resumed from the store', async () => {
    const store = new MemoryRequestWhenStore();
    const client = await A2AClient.connect(watched.url);
    const taskId = await pausedTask(client);
    const crash = new AbortController();
    const first = requestWhen({
      store,
      when: { agent: watched.url, taskId, artifactName: 'report' },
      then: { agent: target.url, message: userMessage('the report is ready') },
      signal: crash.signal,
    });
    while ((await store.pending()).length === 0) await new Promise((r) => setTimeout(r, 10));
    crash.abort(); // the delegating process stops
    await first.catch(() => undefined);
    expect((await store.pending()).map((r) => r.status)).toEqual(['waiting']);

    const resumed = resumeRequestWhen({ store });
    await new Promise((r) => setTimeout(r, 200));
    await client.sendMessage({ message: { ...userMessage('finish'), taskId } });
    const [record] = await resumed;
    expect(record?.status).toBe('sent');
    expect(received.map(textOf)).toContain('the report is ready');
    expect(await store.pending()).toEqual([]);
    expect((await store.get(record?.id ?? ''))?.status).toBe('sent');
  });

  it('drops the request when the task ends another way', async () => {
    const store = new MemoryRequestWhenStore();
    const client = await A2AClient.connect(watched.url);
    const taskId = await pausedTask(client);
    const waiting = requestWhen({
      store,
      when: { agent: watched.url, taskId },
      then: { agent: target.url, message: userMessage('never') },
    });
    await new Promise((r) => setTimeout(r, 200));
    await client.sendMessage({ message: { ...userMessage('fail'), taskId } });
    expect(await waiting).toMatchObject({ status: 'dropped' });
    expect(received.map(textOf)).not.toContain('never');
  });
});

const PG = process.env['A2A_TEST_POSTGRES_URL'];
const dir = mkdtempSync(join(tmpdir(), 'a2a-request-when-'));
type Durable = { name: string; open: () => Promise<RequestWhenStore> };
const schema = `rw_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
const durable: Durable[] = [
  {
    name: 'SQLite',
    open: () => Promise.resolve(new SqliteRequestWhenStore({ path: join(dir, 'd.db') })),
  },
  ...(PG
    ? [
        {
          name: 'PostgreSQL',
          open: () => PostgresRequestWhenStore.open({ connectionString: PG, schema }),
        },
      ]
    : []),
];

describe.each(durable)(
  'requestWhen survives a restart of the delegating process ($name)',
  ({ open }) => {
    it('a new instance on the same store resumes the watch after the last event seen and fires `then` once', async () => {
      const client = await A2AClient.connect(watched.url);
      const taskId = await pausedTask(client);
      const text = `ready ${crypto.randomUUID()}`;

      // The first process: records the request, starts watching, then dies.
      const before = await open();
      const crash = new AbortController();
      const first = requestWhen({
        store: before,
        agent: watched.url,
        when: { taskId, artifactName: 'report' },
        then: { agent: target.url, message: userMessage(text) },
        signal: crash.signal,
      });
      let pending = await before.pending();
      while (pending[0]?.lastEventId === undefined) {
        await new Promise((r) => setTimeout(r, 10));
        pending = await before.pending();
      }
      crash.abort();
      await first.catch(() => undefined);
      await before.close?.();

      // Two restarted processes resume the same store; the watched task then completes.
      const [a, b] = [await open(), await open()];
      expect((await a.pending()).map((r) => [r.status, r.when.taskId])).toEqual([
        ['waiting', taskId],
      ]);
      const resumed = Promise.all([
        resumeRequestWhen({ store: a }),
        resumeRequestWhen({ store: b }),
      ]);
      await new Promise((r) => setTimeout(r, 200));
      await client.sendMessage({ message: { ...userMessage('finish'), taskId } });
      const [fromA, fromB] = await resumed;
      const id = pending[0]?.id ?? '';
      expect([...(fromA ?? []), ...(fromB ?? [])].map((r) => r.id)).toEqual([id, id]);
      await new Promise((r) => setTimeout(r, 100));
      expect(received.filter((m) => textOf(m) === text)).toHaveLength(1);
      expect((await a.get(id))?.status).toBe('sent');
      expect(await a.pending()).toEqual([]);
      await a.close?.();
      await b.close?.();
    });
  },
);
