/**
 * Request-When over real agents on loopback (docs/extensions/delegation.md §3): the request is
 * sent when the watched task completes with the named artifact, also after the watcher stopped
 * (a restart) and was resumed from the store; a task that ends otherwise drops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from 'a2a-kit/client';
import { MemoryRequestWhenStore, requestWhen, resumeRequestWhen } from 'a2a-kit/delegation';
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
    while ((await store.list()).length === 0) await new Promise((r) => setTimeout(r, 10));
    crash.abort(); // the delegating process stops
    await first.catch(() => undefined);
    expect((await store.list()).map((r) => r.status)).toEqual(['waiting']);

    const resumed = resumeRequestWhen({ store });
    await new Promise((r) => setTimeout(r, 200));
    await client.sendMessage({ message: { ...userMessage('finish'), taskId } });
    const [record] = await resumed;
    expect(record?.status).toBe('sent');
    expect(received.map(textOf)).toContain('the report is ready');
    expect((await store.list()).map((r) => r.status)).toEqual(['sent']);
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
