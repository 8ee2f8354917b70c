/** Multi-turn and context rules (spec §3.4, §7.6, requirement 61 of test/conformance/requirements.ts, 69-82, 207-212). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, expectInvalidParams, ok } from '../helpers/expect.js';
import { getTask, sendParams, sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { WireListTasksResponse, messageOf, shape, textOf } from '../helpers/shapes.js';

serverSuite(
  'multi-turn',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies([69, 82], 'an input-required task resumes with a text answer', async (b) => {
      const asked = await sendTask(b, 'ask');
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const done = await sendTask(b, 'Ada', {
        message: { taskId: asked.id, contextId: asked.contextId },
      });
      expect(done.id).toBe(asked.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(done.artifacts?.map((a) => textOf(a))).toEqual(['hello Ada']);
    });

    verifies(
      [69, 78],
      'a data answer resumes the task; contextId is inferred from taskId',
      async (b) => {
        const asked = await sendTask(b, 'ask');
        const done = await sendTask(b, '', {
          message: {
            taskId: asked.id,
            parts: [{ data: { name: 'Bob' }, mediaType: 'application/json' }],
          },
        });
        expect(done.contextId).toBe(asked.contextId);
        expect(done.artifacts?.map((a) => textOf(a))).toEqual(['hello Bob']);
      },
    );

    verifies([69, 88], 'several rounds keep one task and a chronological history', async (b) => {
      const asked = await sendTask(b, 'ask');
      const again = await sendTask(b, 'again', { message: { taskId: asked.id } });
      expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const done = await sendTask(b, 'Eve', { message: { taskId: asked.id } });
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      const history = (await getTask(b, asked.id)).history ?? [];
      expect(history.map((m) => [m.role, textOf(m)])).toEqual([
        ['ROLE_USER', 'ask'],
        ['ROLE_AGENT', 'What is your name?'],
        ['ROLE_USER', 'again'],
        ['ROLE_AGENT', 'Still need your name'],
        ['ROLE_USER', 'Eve'],
      ]);
    });

    verifies(
      [61, 81],
      'a message to a terminal task fails; a follow-up is a new task',
      async (b) => {
        const done = await sendTask(b, 'echo first');
        const res = await b.call(
          'SendMessage',
          sendParams('more', { message: { taskId: done.id } }),
        );
        expectError(res, 'UNSUPPORTED_OPERATION');
        expect((await getTask(b, done.id)).status.state).toBe('TASK_STATE_COMPLETED');
        const followUp = await sendTask(b, 'echo second', {
          message: { contextId: done.contextId },
        });
        expect(followUp.id).not.toBe(done.id);
        expect(followUp.contextId).toBe(done.contextId);
      },
    );

    verifies([77], 'an unknown taskId gives TASK_NOT_FOUND', async (b) => {
      const res = await b.call(
        'SendMessage',
        sendParams('hi', { message: { taskId: uid('nope') } }),
      );
      expectError(res, 'TASK_NOT_FOUND');
    });

    verifies([79], "a contextId that differs from the task's is rejected", async (b) => {
      const asked = await sendTask(b, 'ask');
      const res = await b.call(
        'SendMessage',
        sendParams('Ada', { message: { taskId: asked.id, contextId: uid('other') } }),
      );
      expectInvalidParams(res, 'message.contextId');
      expect((await getTask(b, asked.id)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    });

    verifies([70], 'a missing contextId is generated and returned', async (b) => {
      const task = await sendTask(b, 'echo');
      expect(task.contextId.length).toBeGreaterThan(0);
      const reply = messageOf(ok(await b.call('SendMessage', sendParams('reply x'))));
      expect(reply.contextId?.length).toBeGreaterThan(0);
    });

    verifies([71, 74], 'a client-chosen contextId is kept and groups the tasks', async (b) => {
      const contextId = uid('ctx');
      const first = await sendTask(b, 'echo a', { message: { contextId } });
      const second = await sendTask(b, 'echo b', { message: { contextId } });
      expect([first.contextId, second.contextId]).toEqual([contextId, contextId]);
      const list = shape(WireListTasksResponse, ok(await b.call('ListTasks', { contextId })));
      expect(list.tasks.map((t) => t.id).sort()).toEqual([first.id, second.id].sort());
    });

    verifies(
      [207, 208, 209, 212],
      'auth-required pauses the task with an explanation and accepts the next message',
      async (b) => {
        const paused = await sendTask(b, 'auth');
        expect(paused.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
        expect(textOf(paused.status.message ?? { parts: [] })).toMatch(/Sign in/);
        const done = await sendTask(b, 'Zoe', { message: { taskId: paused.id } });
        expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      },
    );
  },
);
