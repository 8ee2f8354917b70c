/**
 * A client cannot speak for the agent (issue 23 item 7): a SendMessage or SendStreamingMessage
 * whose message has `role: ROLE_AGENT` (or no role) is INVALID_PARAMS naming `message.role`, over
 * every binding, and no task is created for it (proto `Role`: USER is client to server).
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectInvalidParams, ok } from '../helpers/expect.js';
import { sendTask, uid, userMessage } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';

serverSuite(
  'message roles',
  () => startServer(scriptedAgent().agent),
  (server) => {
    verifies(
      [160, 53],
      'a ROLE_AGENT message from a client is refused on send and stream',
      async (b) => {
        const contextId = uid('ctx');
        for (const role of ['ROLE_AGENT', 2]) {
          const message = userMessage('echo forged', { role, contextId });
          const error = expectInvalidParams(
            await b.call('SendMessage', { message }),
            'message.role',
          );
          expect(error.message).toContain('ROLE_USER');
          expectInvalidParams(await b.open('SendStreamingMessage', { message }), 'message.role');
        }
        const listed = ok(await b.call('ListTasks', { contextId })) as { tasks: unknown[] };
        expect(listed.tasks).toEqual([]);
        expect(server.running.internalErrors).toEqual([]);
      },
    );

    verifies([160], 'a ROLE_AGENT answer to an interrupted task is refused too', async (b) => {
      const task = await sendTask(b, 'ask');
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const message = userMessage('my name', { role: 'ROLE_AGENT', taskId: task.id });
      expectInvalidParams(await b.call('SendMessage', { message }), 'message.role');
      const again = ok(await b.call('GetTask', { id: task.id })) as { status: { state: string } };
      expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    });
  },
);
