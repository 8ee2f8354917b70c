/** SendMessage: blocking, returnImmediately, replies, history, retries (spec §3.1.1, §3.2). */
import { expect } from 'vitest';
import { jsonOnlyAgent, scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, ok } from '../helpers/expect.js';
import {
  kinds,
  sendParams,
  sendTask,
  sleep,
  uid,
  userMessage,
  waitForState,
} from '../helpers/requests.js';
import { answeringLater } from '../helpers/async-store.js';
import { startServer } from '../helpers/server.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { messageOf, taskOf, textOf } from '../helpers/shapes.js';

const { agent, probe } = scriptedAgent();

// The memory store answers at once, so a send runs the synchronous path (core/maybe-async.ts);
// the same suite runs again on it answering every call a turn later, the asynchronous path
// that database stores take: both must give the same answers.
const stores = [
  ['SendMessage', () => undefined],
  ['SendMessage (a store answering asynchronously)', () => answeringLater(new MemoryTaskStore())],
] as const;
for (const [name, store] of stores)
  serverSuite(
    name,
    // Retries after the first attempt settled count as retries here (a 10 min window); the
    // default (window 0) is covered in idempotency.test.ts.
    () => {
      const chosen = store();
      return startServer(agent, {
        idempotency: { windowMs: 600_000 },
        ...(chosen ? { store: chosen } : {}),
      });
    },
    () => {
      verifies(
        [60, 63],
        'a blocking send waits for the final state with all artifacts',
        async (b) => {
          const gate = uid('gate');
          let settled = false;
          const pending = b.call('SendMessage', sendParams(`wait ${gate}`)).finally(() => {
            settled = true;
          });
          await sleep(150);
          expect(settled, 'returned before the task finished').toBe(false);
          probe.gates.release(gate);
          const task = taskOf(ok(await pending));
          expect(task.status.state).toBe('TASK_STATE_COMPLETED');
          expect(task.artifacts?.map((a) => textOf(a))).toEqual(['gate opened']);
        },
      );

      verifies([63], 'a blocking send returns at an interrupted state', async (b) => {
        const task = await sendTask(b, 'ask');
        expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        expect(textOf(task.status.message ?? { parts: [] })).toBe('What is your name?');
      });

      verifies([64], 'returnImmediately returns at once while the task goes on', async (b) => {
        const gate = uid('gate');
        const task = await sendTask(b, `wait ${gate}`, {
          configuration: { returnImmediately: true },
        });
        expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
        probe.gates.release(gate);
        const done = await waitForState(b, task.id, 'TASK_STATE_COMPLETED');
        expect(done.artifacts).toHaveLength(1);
      });

      verifies(
        [65, 105],
        'returnImmediately changes neither a message reply nor a stream',
        async (b) => {
          const configuration = { returnImmediately: true };
          const reply = await b.call('SendMessage', sendParams('reply fast', { configuration }));
          expect(textOf(messageOf(ok(reply)))).toBe('reply: fast');
          const stream = await b.stream(
            'SendStreamingMessage',
            sendParams('chunks 2', { configuration }),
          );
          if (!stream.ok) return expect.fail(stream.error.message);
          expect(kinds(stream.events).at(-1)).toBe('status:TASK_STATE_COMPLETED');
        },
      );

      verifies(
        [60, 156],
        'rejected and failed tasks are answered as tasks; internals stay hidden',
        async (b) => {
          expect((await sendTask(b, 'reject')).status.state).toBe('TASK_STATE_REJECTED');
          expect((await sendTask(b, 'fail')).status.state).toBe('TASK_STATE_FAILED');
          const thrown = await sendTask(b, 'throw');
          expect(thrown.status.state).toBe('TASK_STATE_FAILED');
          expect(thrown.status.message?.role).toBe('ROLE_AGENT');
          expect(JSON.stringify(thrown)).not.toContain('secret-internal-detail');
        },
      );

      verifies([112], 'a client that drops a blocking send does not cancel the task', async (b) => {
        const gate = uid('gate');
        const message = userMessage(`wait ${gate}`);
        const dropped = b.call('SendMessage', { message }, { signal: AbortSignal.timeout(150) });
        await expect(dropped).rejects.toThrow();
        probe.gates.release(gate);
        // The retry finds the task the dropped call created, now completed.
        const task = taskOf(ok(await b.call('SendMessage', { message })));
        expect(task.status.state).toBe('TASK_STATE_COMPLETED');
        expect(probe.runs.get(message.messageId)).toBe(1);
      });

      verifies([75], 'every new task gets its own id', async (b) => {
        const tasks = await Promise.all([1, 2, 3, 4, 5].map((i) => sendTask(b, `echo ${i}`)));
        expect(new Set(tasks.map((t) => t.id)).size).toBe(5);
      });

      verifies(
        [85, 86, 87, 88],
        'historyLength in the send configuration: unset, N, 0',
        async (b) => {
          const full = await sendTask(b, 'ask');
          expect(full.history?.map((m) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT']);
          const one = await sendTask(b, 'ask', { configuration: { historyLength: 1 } });
          expect(one.history?.map((m) => textOf(m))).toEqual(['What is your name?']);
          const none = await sendTask(b, 'ask', { configuration: { historyLength: 0 } });
          expect(none).not.toHaveProperty('history');
        },
      );

      verifies([68], 'a retried messageId does not run the agent twice', async (b) => {
        const message = userMessage('echo once');
        const first = taskOf(ok(await b.call('SendMessage', { message })));
        const again = taskOf(ok(await b.call('SendMessage', { message })));
        expect(again.id).toBe(first.id);
        expect(probe.runs.get(message.messageId)).toBe(1);
      });

      verifies([68], 'concurrent retries of one messageId share one execution', async (b) => {
        const gate = uid('gate');
        const message = userMessage(`wait ${gate}`);
        const calls = [1, 2, 3].map(() => b.call('SendMessage', { message }));
        await sleep(100);
        probe.gates.release(gate);
        const ids = (await Promise.all(calls)).map((r) => taskOf(ok(r)).id);
        expect(new Set(ids).size).toBe(1);
        expect(probe.runs.get(message.messageId)).toBe(1);
      });

      // spec §3.3.1 lets a server use messageId to detect duplicates; a message in another
      // context is not a duplicate: it is processed in the context it names (§3.4.1, [71]).
      verifies(
        [68, 71],
        'a reused messageId with another contextId is processed there, never answered from the old context',
        async (b) => {
          const message = userMessage('echo first', { contextId: uid('ctx') });
          taskOf(ok(await b.call('SendMessage', { message })));
          const other = uid('ctx');
          const res = await b.call('SendMessage', { message: { ...message, contextId: other } });
          expect(taskOf(ok(res)).contextId).toBe(other);
        },
      );

      verifies([68], 'a retried message that got a message reply gets it again', async (b) => {
        const message = userMessage('reply twice');
        const first = messageOf(ok(await b.call('SendMessage', { message })));
        const again = messageOf(ok(await b.call('SendMessage', { message })));
        expect(again).toEqual(first);
        expect(probe.runs.get(message.messageId)).toBe(1);
      });
    },
  );

serverSuite(
  'SendMessage to an agent that accepts only JSON',
  () => startServer(jsonOnlyAgent().agent),
  () => {
    const rejected: [string, Record<string, unknown>][] = [
      ['a text part', { text: 'hello' }],
      ['a PNG file', { url: 'https://a2a-kit.test/a.png', mediaType: 'image/png' }],
      ['a text/csv data part', { data: 'a,b', mediaType: 'text/csv' }],
    ];
    verifies([62], 'a part of another media type gives CONTENT_TYPE_NOT_SUPPORTED', async (b) => {
      for (const [, part] of rejected) {
        const res = await b.call('SendMessage', {
          message: { messageId: uid('msg'), role: 'ROLE_USER', parts: [part] },
        });
        expectError(res, 'CONTENT_TYPE_NOT_SUPPORTED');
      }
    });

    verifies([62], 'a JSON data part is accepted', async (b) => {
      const task = await sendTask(b, 'ignored', { message: { parts: [{ data: { name: 'x' } }] } });
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    });
  },
);
