/** GetTask and history (spec §3.1.3, §3.2.4, requirements 83–88 of test/conformance/requirements.ts, 163). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, expectInvalidParams, ok } from '../helpers/expect.js';
import { getTask, sendParams, sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { taskOf, textOf } from '../helpers/shapes.js';

serverSuite(
  'GetTask',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies([83], 'GetTask returns the current status, artifacts and history', async (b) => {
      const sent = await sendTask(b, 'chunks 3');
      const task = await getTask(b, sent.id);
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts?.map((a) => textOf(a))).toEqual(['chunk 1 \nchunk 2 \nchunk 3 ']);
      expect(task.history?.map((m) => textOf(m))).toEqual(['chunks 3']);
      expect(task).toEqual(sent);
    });

    verifies([84], 'an unknown task id gives TASK_NOT_FOUND', async (b) => {
      for (const id of [uid('task'), 'x'])
        expectError(await b.call('GetTask', { id }), 'TASK_NOT_FOUND');
    });

    verifies(
      [85, 86, 87, 88],
      'historyLength limits history to the most recent messages',
      async (b) => {
        const asked = await sendTask(b, 'ask');
        await sendTask(b, 'again', { message: { taskId: asked.id } });
        const texts = async (extra: Record<string, unknown>) =>
          (await getTask(b, asked.id, extra)).history?.map((m) => textOf(m));
        const all = ['ask', 'What is your name?', 'again', 'Still need your name'];
        expect(await texts({})).toEqual(all);
        expect(await texts({ historyLength: 100 })).toEqual(all);
        expect(await texts({ historyLength: 2 })).toEqual(all.slice(2));
        expect(await getTask(b, asked.id, { historyLength: 0 })).not.toHaveProperty('history');
      },
    );

    verifies([99, 160], 'a negative historyLength is a validation error', async (b) => {
      const task = await sendTask(b, 'echo');
      expectInvalidParams(
        await b.call('GetTask', { id: task.id, historyLength: -1 }),
        'historyLength',
      );
    });

    verifies([90, 163], 'a task of another tenant looks like a missing task', async (b) => {
      const res = await b.call('SendMessage', { ...sendParams('echo tenant'), tenant: 'acme' });
      const task = taskOf(ok(res));
      expect((await getTask(b, task.id, { tenant: 'acme' })).id).toBe(task.id);
      for (const tenant of ['other', undefined]) {
        const params = tenant === undefined ? { id: task.id } : { id: task.id, tenant };
        expectError(await b.call('GetTask', params), 'TASK_NOT_FOUND');
      }
      expectError(await b.call('CancelTask', { id: task.id, tenant: 'other' }), 'TASK_NOT_FOUND');
    });
  },
);
