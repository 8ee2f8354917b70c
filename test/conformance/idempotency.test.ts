/**
 * Retried sends (spec §3.3.1, requirement 68 of test/conformance/requirements.ts): the same message again (same messageId, the same
 * content, taskId and contextId, the same caller) within the idempotency window gets the first
 * answer and never runs the agent twice; any other message that reuses a messageId is processed
 * as the new message it is. Over every binding, on the memory and SQLite stores (PostgreSQL:
 * test/integration/postgres-idempotency.test.ts), across a restart on SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import type { StreamEvent } from '../helpers/driver.js';
import { ok } from '../helpers/expect.js';
import { sleep, uid, userMessage } from '../helpers/requests.js';
import { startServer, type TestServerOptions } from '../helpers/server.js';
import { messageOf, taskOf, textOf } from '../helpers/shapes.js';

const { agent, probe } = scriptedAgent();
const dir = mkdtempSync(join(tmpdir(), 'a2a-idempotency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: [string, () => TestServerOptions][] = [
  ['memory store', () => ({})],
  ['SQLite store', () => ({ store: new SqliteTaskStore({ path: join(dir, `${uid('db')}.db`) }) })],
];

const artifactText = (task: { artifacts?: { parts: unknown[] }[] | undefined }) =>
  task.artifacts?.map((a) => textOf(a as never));

for (const [name, options] of stores) {
  serverSuite(
    `Retried sends with a 60 s window (${name})`,
    () => startServer(agent, { ...options(), idempotency: { windowMs: 60_000 } }),
    () => {
      verifies(
        [68],
        'the same message again gets the first task; the agent ran once',
        async (b) => {
          const message = userMessage('echo once', { contextId: uid('ctx') });
          const first = taskOf(ok(await b.call('SendMessage', { message })));
          const again = taskOf(ok(await b.call('SendMessage', { message })));
          expect(again.id).toBe(first.id);
          expect(probe.runs.get(message.messageId)).toBe(1);
        },
      );

      verifies([68], 'a retried stream joins the task of the first attempt', async (b) => {
        const message = userMessage('chunks 2');
        const first = await b.stream('SendStreamingMessage', { message });
        const again = await b.stream('SendStreamingMessage', { message });
        if (!first.ok || !again.ok) return expect.fail('stream refused');
        const idOf = (events: readonly StreamEvent[]) => taskOf(events[0]?.event).id;
        expect(idOf(again.events)).toBe(idOf(first.events));
        expect(probe.runs.get(message.messageId)).toBe(1);
      });

      verifies(
        [68],
        'another message reusing a messageId is processed, never answered with the first',
        async (b) => {
          const messageId = uid('reused');
          const first = taskOf(
            ok(await b.call('SendMessage', { message: msg(messageId, 'first') })),
          );
          const second = taskOf(
            ok(await b.call('SendMessage', { message: msg(messageId, 'second') })),
          );
          expect(second.id).not.toBe(first.id);
          expect(artifactText(first)).toEqual(['echo: echo first']);
          expect(artifactText(second)).toEqual(['echo: echo second']);
          expect(probe.runs.get(messageId)).toBe(2);
          // The retry of the second gets the second (the index follows the last message).
          const retry = taskOf(
            ok(await b.call('SendMessage', { message: msg(messageId, 'second') })),
          );
          expect(retry.id).toBe(second.id);
          expect(probe.runs.get(messageId)).toBe(2);
        },
      );

      verifies(
        [68, 71],
        'the same text under a reused messageId in another context gets a task of that context',
        async (b) => {
          const message = userMessage('echo here', { contextId: uid('ctx') });
          const first = taskOf(ok(await b.call('SendMessage', { message })));
          const other = uid('ctx');
          const res = await b.call('SendMessage', { message: { ...message, contextId: other } });
          const second = taskOf(ok(res));
          expect(second.contextId).toBe(other);
          expect(second.id).not.toBe(first.id);
          expect(probe.runs.get(message.messageId)).toBe(2);
        },
      );

      verifies(
        [68, 69],
        'an answer to a paused task reusing the messageId that created it resumes the task',
        async (b) => {
          const messageId = uid('reused');
          const asked = taskOf(
            ok(await b.call('SendMessage', { message: msg(messageId, 'ask', 'ask') })),
          );
          expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
          const answer = {
            ...msg(messageId, 'Ada', 'Ada'),
            taskId: asked.id,
            contextId: asked.contextId,
          };
          const answered = taskOf(ok(await b.call('SendMessage', { message: answer })));
          expect(answered.id).toBe(asked.id);
          expect(answered.status.state).toBe('TASK_STATE_COMPLETED');
          expect(probe.runs.get(messageId)).toBe(2);
        },
      );

      verifies([68], 'a retried message that got a message reply gets it again', async (b) => {
        const message = userMessage('reply twice');
        const first = messageOf(ok(await b.call('SendMessage', { message })));
        expect(messageOf(ok(await b.call('SendMessage', { message })))).toEqual(first);
        const other = messageOf(
          ok(
            await b.call('SendMessage', { message: { ...message, parts: [{ text: 'reply 2' }] } }),
          ),
        );
        expect(textOf(other)).toBe('reply: 2');
        expect(probe.runs.get(message.messageId)).toBe(2);
      });
    },
  );
}

serverSuite(
  'Retried sends after the idempotency window',
  () => startServer(agent, { idempotency: { windowMs: 150 } }),
  () => {
    verifies([68], 'the same message after the window is processed again', async (b) => {
      const message = userMessage('echo late');
      const first = taskOf(ok(await b.call('SendMessage', { message })));
      expect(taskOf(ok(await b.call('SendMessage', { message }))).id).toBe(first.id);
      await sleep(250);
      const late = taskOf(ok(await b.call('SendMessage', { message })));
      expect(late.id).not.toBe(first.id);
      expect(probe.runs.get(message.messageId)).toBe(2);
    });
  },
);

serverSuite(
  'Retried sends at the defaults (a retry joins a running attempt only)',
  () => startServer(agent, {}),
  () => {
    verifies(
      [68],
      'the same message after its task settled is processed as a new message (as the TCK expects)',
      async (b) => {
        const message = userMessage('echo again');
        const first = taskOf(ok(await b.call('SendMessage', { message })));
        expect(first.status.state).toBe('TASK_STATE_COMPLETED');
        const second = taskOf(ok(await b.call('SendMessage', { message })));
        expect(second.id).not.toBe(first.id);
        expect(probe.runs.get(message.messageId)).toBe(2);
      },
    );

    verifies([68], 'the same message while its first attempt runs joins it', async (b) => {
      const message = userMessage('wait');
      const first = taskOf(
        ok(await b.call('SendMessage', { message, configuration: { returnImmediately: true } })),
      );
      expect(first.status.state).not.toBe('TASK_STATE_COMPLETED');
      const again = taskOf(
        ok(await b.call('SendMessage', { message, configuration: { returnImmediately: true } })),
      );
      expect(again.id).toBe(first.id);
      expect(probe.runs.get(message.messageId)).toBe(1);
      await b.call('CancelTask', { id: first.id });
    });
  },
);

serverSuite(
  'Retried sends with idempotency off',
  () => startServer(agent, { idempotency: false }),
  () => {
    verifies([68], 'every message runs the agent, the same one too', async (b) => {
      const message = userMessage('echo twice');
      const first = taskOf(ok(await b.call('SendMessage', { message })));
      const second = taskOf(ok(await b.call('SendMessage', { message })));
      expect(second.id).not.toBe(first.id);
      expect(probe.runs.get(message.messageId)).toBe(2);
    });
  },
);

/** A user message with this id whose text is `echo <word>` (or `text` as given). */
function msg(messageId: string, word: string, text = `echo ${word}`) {
  return { messageId, role: 'ROLE_USER', parts: [{ text }] };
}
