/** CancelTask (spec §3.1.5, §3.3.1, requirements 100–103 of test/conformance/requirements.ts). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, ok } from '../helpers/expect.js';
import { getTask, sendParams, sendTask, sleep, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { WireListTasksResponse, WireTask, shape, taskOf } from '../helpers/shapes.js';

const { agent, probe } = scriptedAgent();

serverSuite(
  'CancelTask',
  () => startServer(agent),
  () => {
    verifies([100, 81], 'cancel stops a working task and returns it CANCELED', async (b) => {
      const gate = uid('gate');
      const aborted = probe.aborted;
      const task = await sendTask(b, `wait ${gate}`, {
        configuration: { returnImmediately: true },
      });
      const canceled = shape(WireTask, ok(await b.call('CancelTask', { id: task.id })));
      expect(canceled.id).toBe(task.id);
      expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
      await sleep(50);
      expect(probe.aborted, "the agent's signal aborted").toBe(aborted + 1);
      probe.gates.release(gate); // nothing is waiting any more: the task stays canceled
      await sleep(20);
      expect((await getTask(b, task.id)).status.state).toBe('TASK_STATE_CANCELED');
    });

    verifies(
      [63, 100],
      'a blocking send returns the CANCELED task when canceled meanwhile',
      async (b) => {
        const gate = uid('gate');
        const pending = b.call('SendMessage', sendParams(`wait ${gate}`));
        const list = async () => ok(await b.call('ListTasks', { status: 'TASK_STATE_WORKING' }));
        let id: string | undefined;
        while (id === undefined) {
          const working = shape(WireListTasksResponse, await list()).tasks;
          id = working.find((t) => t.history?.[0]?.parts[0]?.text === `wait ${gate}`)?.id;
          if (id === undefined) await sleep(10);
        }
        ok(await b.call('CancelTask', { id }));
        const task = taskOf(ok(await pending));
        expect([task.id, task.status.state]).toEqual([id, 'TASK_STATE_CANCELED']);
      },
    );

    verifies([100], 'an input-required task can be canceled, with cancel metadata', async (b) => {
      const task = await sendTask(b, 'ask');
      const res = await b.call('CancelTask', { id: task.id, metadata: { reason: 'user left' } });
      expect(shape(WireTask, ok(res)).status.state).toBe('TASK_STATE_CANCELED');
    });

    verifies([103], 'a repeated cancel returns the canceled task again', async (b) => {
      const task = await sendTask(b, 'ask');
      const first = shape(WireTask, ok(await b.call('CancelTask', { id: task.id })));
      const again = shape(WireTask, ok(await b.call('CancelTask', { id: task.id })));
      expect(again).toEqual(first);
    });

    verifies(
      [101],
      'cancel of a completed, rejected or failed task gives TASK_NOT_CANCELABLE',
      async (b) => {
        for (const text of ['echo done', 'reject', 'fail']) {
          const task = await sendTask(b, text);
          expectError(await b.call('CancelTask', { id: task.id }), 'TASK_NOT_CANCELABLE');
          expect((await getTask(b, task.id)).status.state).toBe(task.status.state);
        }
      },
    );

    verifies([102], 'cancel of an unknown task gives TASK_NOT_FOUND', async (b) => {
      expectError(await b.call('CancelTask', { id: uid('task') }), 'TASK_NOT_FOUND');
    });
  },
);
