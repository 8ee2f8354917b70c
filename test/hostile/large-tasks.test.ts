/**
 * ListTasks with includeArtifacts over very large tasks (spec §3.1.4) pages by bytes as well as
 * by pageSize: a page ends early, with a nextPageToken, once its tasks pass
 * `memory.listPageBytes` (one task at least), so a listing of huge tasks is never a 500 and
 * following the tokens returns every task once. Each task is bounded (`memory.maxTaskBytes`): a
 * client message past it is INVALID_PARAMS, an agent output past it FAILS the task with a status
 * message naming the option (the stores: src/server/task-budget.test.ts). Over JSON-RPC,
 * HTTP+JSON and gRPC.
 */
import { expect } from 'vitest';
import { createAgent } from '../../src/server/index.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectInvalidParams, ok } from '../helpers/expect.js';
import { uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';

const KB = 1024;
const agent = createAgent({
  card: { name: 'Large', description: 'large artifacts', version: '1', skills: [] },
  async *execute({ task }) {
    yield task.artifact('y'.repeat(300 * KB), { name: 'large' });
    yield task.completed();
  },
});

interface ListResult {
  tasks: { id: string; artifacts?: unknown[] }[];
  nextPageToken: string;
  totalSize: number;
}

serverSuite(
  'ListTasks over large tasks',
  () => startServer(agent, { memory: { listPageBytes: 700 * KB } }),
  () => {
    verifies(
      [91, 93],
      'pages by bytes with includeArtifacts: every task once, no 500',
      async (b) => {
        const contextId = uid('ctx');
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const message = {
            messageId: uid('m'),
            role: 'ROLE_USER',
            parts: [{ text: 'go' }],
            contextId,
          };
          const res = ok(await b.call('SendMessage', { message })) as { task: { id: string } };
          ids.push(res.task.id);
        }
        const seen: string[] = [];
        let pageToken = '';
        let pages = 0;
        do {
          const res = ok(
            await b.call('ListTasks', {
              contextId,
              includeArtifacts: true,
              pageSize: 50,
              ...(pageToken ? { pageToken } : {}),
            }),
          ) as ListResult;
          expect(res.totalSize).toBe(5);
          expect(res.tasks.length).toBeGreaterThanOrEqual(1);
          expect(res.tasks.length).toBeLessThanOrEqual(2); // 300 KB each, 700 KB a page
          for (const task of res.tasks) {
            expect(task.artifacts).toHaveLength(1);
            seen.push(task.id);
          }
          pageToken = res.nextPageToken;
          pages++;
        } while (pageToken && pages < 10);
        expect(seen.sort()).toEqual([...ids].sort());
        expect(pages).toBe(3);
        // Without artifacts the same tasks fit one page.
        const small = ok(await b.call('ListTasks', { contextId, pageSize: 50 })) as ListResult;
        expect(small.tasks).toHaveLength(5);
        expect(small.nextPageToken).toBe('');
      },
    );
  },
);

/** Asks for input again on every answer: a task a client can keep feeding. */
const askingAgent = createAgent({
  card: { name: 'Asking', description: 'always asks', version: '1', skills: [] },
  async *execute({ task }) {
    yield task.inputRequired('more?');
  },
});

serverSuite(
  'A client feeding one paused task with large answers',
  () => startServer(askingAgent, { memory: { maxTaskBytes: 1024 * KB } }),
  () => {
    verifies(
      [82],
      'is refused with INVALID_PARAMS once the task would pass maxTaskBytes',
      async (b) => {
        const first = { messageId: uid('m'), role: 'ROLE_USER', parts: [{ text: 'start' }] };
        const { task } = ok(await b.call('SendMessage', { message: first })) as {
          task: { id: string; contextId: string };
        };
        const answer = () => ({
          messageId: uid('m'),
          role: 'ROLE_USER',
          taskId: task.id,
          contextId: task.contextId,
          parts: [{ text: 'z'.repeat(300 * KB) }],
        });
        for (let i = 0; i < 3; i++) ok(await b.call('SendMessage', { message: answer() }));
        const refused = await b.call('SendMessage', { message: answer() });
        expectInvalidParams(refused, 'message');
        if (refused.ok) return;
        expect(refused.error.message).toContain('past the limit');
        // The task is untouched and still answers small messages.
        const small = { ...answer(), parts: [{ text: 'ok' }] };
        ok(await b.call('SendMessage', { message: small }));
      },
    );
  },
);

/** Grows its task by 300 KB artifacts until told to stop: an agent that outgrows the budget. */
const growingAgent = createAgent({
  card: { name: 'Growing', description: 'grows', version: '1', skills: [] },
  async *execute({ task, signal }) {
    yield task.working();
    for (let i = 0; i < 10 && !signal.aborted; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      yield task.artifact('g'.repeat(300 * KB), { artifactId: 'g', append: i > 0 });
    }
    yield task.completed();
  },
});

serverSuite(
  'An agent outgrowing its task',
  () => startServer(growingAgent, { memory: { maxTaskBytes: 1024 * KB } }),
  () => {
    verifies(
      [82],
      'fails the task with a status message naming maxTaskBytes; a big first message is INVALID_PARAMS',
      async (b) => {
        const message = { messageId: uid('m'), role: 'ROLE_USER', parts: [{ text: 'grow' }] };
        const { task } = ok(await b.call('SendMessage', { message })) as {
          task: {
            status: { state: string; message?: { parts: { text?: string }[] } };
            artifacts?: { parts: unknown[] }[];
          };
        };
        expect(task.status.state).toBe('TASK_STATE_FAILED');
        const text = task.status.message?.parts[0]?.text ?? '';
        expect(text).toContain(`size limit of ${1024 * KB} bytes`);
        expect(text).toContain('memory.maxTaskBytes');
        expect(task.artifacts?.[0]?.parts).toHaveLength(3); // the 4th chunk was not recorded
        // Over NATS a 1.1 MiB message is past the broker's max_payload (1 MiB): it never reaches
        // the server, and test/integration/nats-faults.test.ts checks that refusal.
        if (b.name === 'NATS') return;
        const big = {
          messageId: uid('m'),
          role: 'ROLE_USER',
          parts: [{ text: 'b'.repeat(1100 * KB) }],
        };
        const refused = await b.call('SendMessage', { message: big });
        expectInvalidParams(refused, 'message');
        if (!refused.ok) expect(refused.error.message).toContain('memory.maxTaskBytes');
      },
    );
  },
);
