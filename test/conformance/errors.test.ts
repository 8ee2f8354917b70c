/** Error shapes on every binding (spec §3.3.2, §5.4, §9.5, §11.6, requirements 156–165 of test/conformance/requirements.ts, 187). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, V1_BINDINGS, verifies, verifiesServer } from '../helpers/bindings.js';
import type { BindingDriver, CallResult } from '../helpers/driver.js';
import {
  errorOf,
  expectCanonicalStatus,
  expectError,
  expectInvalidParams,
} from '../helpers/expect.js';
import { sendParams, sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { BAD_REQUEST_TYPE, ERROR_INFO_TYPE, type A2AReason } from '../helpers/wire.js';

/** One way to provoke each A2A error this server can raise without special agents. */
const PROVOKE: [A2AReason, (b: BindingDriver) => Promise<CallResult>][] = [
  ['TASK_NOT_FOUND', (b) => b.call('GetTask', { id: uid('missing') })],
  [
    'TASK_NOT_CANCELABLE',
    async (b) => b.call('CancelTask', { id: (await sendTask(b, 'echo')).id }),
  ],
  [
    'PUSH_NOTIFICATION_NOT_SUPPORTED',
    (b) => b.call('ListTaskPushNotificationConfigs', { taskId: 'x' }),
  ],
  ['UNSUPPORTED_OPERATION', (b) => b.call('GetExtendedAgentCard', {})],
  [
    'VERSION_NOT_SUPPORTED',
    (b) => b.call('GetTask', { id: 'x' }, { headers: { 'a2a-version': '0.3' } }),
  ],
];

serverSuite(
  'errors',
  () => startServer(scriptedAgent().agent),
  (server) => {
    verifies(
      [157, 158, 159, 165, 169, 170, 178, 179, 183],
      'each A2A error has its mapped code, a message and an ErrorInfo detail',
      async (b) => {
        for (const [reason, provoke] of PROVOKE) {
          const error = expectError(await provoke(b), reason);
          expectCanonicalStatus(error);
          const info = error.details.find((d) => d['@type'] === ERROR_INFO_TYPE);
          expect(info?.reason, 'UPPER_SNAKE_CASE without Error').toMatch(/^[A-Z]+(_[A-Z]+)*$/);
        }
      },
    );

    verifiesServer(
      [187, 159],
      'every binding reports the same error for the same failure',
      async () => {
        for (const [reason, provoke] of PROVOKE) {
          const codes = [];
          // 1.0 bindings: the failures provoked include version negotiation, which 0.3 has not.
          for (const binding of V1_BINDINGS) {
            codes.push(errorOf(await provoke(server.driver(binding))).code);
          }
          expect(codes).toEqual(V1_BINDINGS.map(() => reason));
        }
      },
    );

    verifies([156, 157], 'error messages say what to do', async (b) => {
      const version = errorOf(
        await b.call('GetTask', { id: 'x' }, { headers: { 'a2a-version': null } }),
      );
      // Named as the binding spells it: gRPC metadata keys and NATS headers are lower-case
      // (spec §3.2.6; docs/bindings/nats.md).
      const lower = b.name === 'GRPC' || b.name === 'NATS';
      expect(version.message).toMatch(lower ? /a2a-version/ : /A2A-Version/);
      const notFound = errorOf(await b.call('GetTask', { id: 'task-42' }));
      expect(notFound.message).toContain('task-42');
    });

    verifies(
      [158, 160],
      'validation errors carry a BadRequest naming each failing field',
      async (b) => {
        // No messageId, a role number no enum value has, no parts: expressible on every binding.
        const error = expectInvalidParams(
          await b.call('SendMessage', { message: { role: 99, parts: [] } }),
        );
        const violations = error.details.find(
          (d) => d['@type'] === BAD_REQUEST_TYPE,
        )?.fieldViolations;
        expect(Array.isArray(violations)).toBe(true);
        const fields = (violations as { field: string; description: string }[]).map((v) => v.field);
        expect(fields).toEqual(
          expect.arrayContaining(['message.messageId', 'message.role', 'message.parts']),
        );
        for (const detail of error.details) expect(typeof detail['@type']).toBe('string');
      },
    );

    verifies(
      [160],
      'wrong JSON types are validation errors, not crashes',
      async (b) => {
        const cases: Record<string, unknown>[] = [
          { message: 'hello' },
          { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 5 }] } },
          { message: { messageId: 'm', role: 'ROLE_USER', parts: 'text' } },
          { ...sendParams('x'), configuration: { returnImmediately: 'yes' } },
          { ...sendParams('x'), configuration: { historyLength: 1.5 } },
          { ...sendParams('x'), metadata: ['not', 'a', 'map'] },
        ];
        for (const params of cases) expectInvalidParams(await b.call('SendMessage', params));
      },
      // JSON types: protobuf fields have fixed types, a gRPC client cannot send these.
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );
  },
);
