/** Capability gating (spec §3.3.4, requirement 13 of test/conformance/requirements.ts, 123-126). */
import { expect } from 'vitest';
import {
  noStreamingAgent,
  scriptedAgent,
  unconfiguredExtendedCardAgent,
} from '../helpers/agents.js';
import { serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import { expectError } from '../helpers/expect.js';
import { sendParams, sendTask } from '../helpers/requests.js';
import { startServer, V1_CARD } from '../helpers/server.js';
import { WireAgentCard, shape } from '../helpers/shapes.js';
import type { Operation } from '../helpers/wire.js';

serverSuite(
  'an agent without push notifications or an extended card',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies(
      [123],
      'every push-config operation gives PUSH_NOTIFICATION_NOT_SUPPORTED',
      async (b) => {
        const task = await sendTask(b, 'ask');
        const calls: [Operation, Record<string, unknown>][] = [
          [
            'CreateTaskPushNotificationConfig',
            { taskId: task.id, url: 'https://hooks.a2a-kit.test/x' },
          ],
          ['GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' }],
          ['ListTaskPushNotificationConfigs', { taskId: task.id }],
          ['DeleteTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' }],
        ];
        for (const [operation, params] of calls) {
          expectError(await b.call(operation, params), 'PUSH_NOTIFICATION_NOT_SUPPORTED');
        }
      },
    );

    verifies(
      [123],
      'a push config inside SendMessage gives PUSH_NOTIFICATION_NOT_SUPPORTED',
      async (b) => {
        const configuration = {
          taskPushNotificationConfig: { url: 'https://hooks.a2a-kit.test/y' },
        };
        const res = await b.call('SendMessage', sendParams('echo', { configuration }));
        expectError(res, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
      },
    );

    verifies([125], 'GetExtendedAgentCard gives UNSUPPORTED_OPERATION', async (b) => {
      expectError(await b.call('GetExtendedAgentCard', {}), 'UNSUPPORTED_OPERATION');
    });
  },
);

serverSuite(
  'an agent with streaming off',
  () => startServer(noStreamingAgent().agent),
  (server) => {
    verifiesServer([13], 'its card says streaming: false', async () => {
      const card = shape(
        WireAgentCard,
        await (await fetch(`${server.url}/.well-known/agent-card.json`, V1_CARD)).json(),
      );
      expect(card.capabilities.streaming).toBe(false);
    });

    verifies(
      [124],
      'SendStreamingMessage and SubscribeToTask give UNSUPPORTED_OPERATION',
      async (b) => {
        expectError(
          await b.open('SendStreamingMessage', sendParams('echo')),
          'UNSUPPORTED_OPERATION',
        );
        const task = await sendTask(b, 'ask');
        expectError(await b.open('SubscribeToTask', { id: task.id }), 'UNSUPPORTED_OPERATION');
      },
    );

    verifies([13], 'unary operations still work', async (b) => {
      expect((await sendTask(b, 'echo')).status.state).toBe('TASK_STATE_COMPLETED');
    });
  },
);

serverSuite(
  'an agent that declares an extended card it lacks',
  () => startServer(unconfiguredExtendedCardAgent().agent),
  () => {
    verifies([126], 'GetExtendedAgentCard gives EXTENDED_AGENT_CARD_NOT_CONFIGURED', async (b) => {
      expectError(await b.call('GetExtendedAgentCard', {}), 'EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    });
  },
);
