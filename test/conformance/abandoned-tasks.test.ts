/**
 * Abandoned interrupted tasks expire (A2AServer option `interrupted.ttlMs`): a task left in
 * INPUT_REQUIRED or AUTH_REQUIRED (spec §3.1; answered by a message with its taskId, §3.4.3)
 * that nobody answers reads, over every binding, as CANCELED with a status message saying why.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { sendTask, waitForState } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';

const TTL_MS = 100;

serverSuite(
  'abandoned interrupted tasks',
  () => startServer(scriptedAgent().agent, { interrupted: { ttlMs: TTL_MS } }),
  (server) => {
    verifies(
      [82],
      'an unanswered INPUT_REQUIRED or AUTH_REQUIRED task reads as CANCELED with the reason',
      async (b) => {
        for (const [text, state] of [
          ['ask', 'TASK_STATE_INPUT_REQUIRED'],
          ['auth', 'TASK_STATE_AUTH_REQUIRED'],
        ] as const) {
          const task = await sendTask(b, text);
          expect(task.status.state).toBe(state);
          const expired = await waitForState(b, task.id, 'TASK_STATE_CANCELED');
          const parts = expired.status.message?.parts ?? [];
          expect(parts.map((p) => (p as { text?: string }).text).join('')).toBe(
            'Canceled: no answer within 100 ms (A2AServer option interrupted.ttlMs)',
          );
          expect(expired.status.message?.role).toBe('ROLE_AGENT');
        }
        expect(server.running.internalErrors).toEqual([]);
      },
    );
  },
);
