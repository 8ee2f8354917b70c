/** Versioning: the A2A-Version service parameter (spec §3.6, requirements 28–33 of test/conformance/requirements.ts, 37-38). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, ok } from '../helpers/expect.js';
import { sendParams, sendTask } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { taskOf } from '../helpers/shapes.js';

serverSuite(
  'A2A-Version',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies([28, 31, 38], 'A2A-Version: 1.0 in the header is served', async (b) => {
      const task = await sendTask(b, 'echo versioned');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    verifies(
      [29, 37],
      'A2A-Version as a query parameter is served on a GET',
      async (b) => {
        for (const name of ['A2A-Version', 'a2a-version']) {
          const res = await b.call(
            'ListTasks',
            {},
            {
              headers: { 'a2a-version': null },
              query: { [name]: '1.0' },
            },
          );
          expect(res.ok, name).toBe(true);
        }
      },
      // Only HTTP+JSON has GET requests; gRPC has only metadata (grpc.test.ts).
      { only: ['HTTP+JSON'] },
    );

    verifies(
      [29, 32],
      'a state-changing request takes A2A-Version from the header only, never the query (spec §9.2, §11.2)',
      async (b) => {
        const res = await b.call('SendMessage', sendParams('echo q'), {
          headers: { 'a2a-version': null },
          query: { 'A2A-Version': '1.0' },
        });
        expectError(res, 'VERSION_NOT_SUPPORTED');
      },
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );

    verifies([30], 'a patch number does not affect negotiation: 1.0.3 is served', async (b) => {
      const res = await b.call('SendMessage', sendParams('echo patch'), {
        headers: { 'a2a-version': '1.0.3' },
      });
      expect(taskOf(ok(res)).status.state).toBe('TASK_STATE_COMPLETED');
    });

    verifies([32, 33], 'a missing or empty A2A-Version means 0.3 and is refused', async (b) => {
      for (const version of [null, '']) {
        const res = await b.call('SendMessage', sendParams('echo'), {
          headers: { 'a2a-version': version },
        });
        expectError(res, 'VERSION_NOT_SUPPORTED');
      }
    });

    verifies([32], 'versions this server does not serve are refused', async (b) => {
      for (const version of ['0.3', '1.1', '2.0', '1', 'latest', '1.0-beta']) {
        const res = await b.call('GetTask', { id: 'any' }, { headers: { 'a2a-version': version } });
        expectError(res, 'VERSION_NOT_SUPPORTED');
      }
    });

    verifies(
      [32, 104],
      'a streaming request with no version is refused before any stream',
      async (b) => {
        const res = await b.open('SendStreamingMessage', sendParams('echo'), {
          headers: { 'a2a-version': null },
        });
        expectError(res, 'VERSION_NOT_SUPPORTED');
      },
    );
  },
);
