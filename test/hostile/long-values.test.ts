/**
 * Hostile clients sending very long values (issue 23 item 2), over every binding. Ids longer than
 * MAX_ID_LENGTH (1024 characters; page tokens 4096) are refused as INVALID_PARAMS naming the field
 * and the cap (spec §3.3.2: validate all input, name the failing parameters), every value a client
 * can get echoed into an error comes back bounded, and nothing hangs: after each hostile call a
 * normal call on the same connection (gRPC: the same channel, one HTTP/2 connection) is answered.
 */
import { expect } from 'vitest';
import { ERROR_BOUNDS } from '../../src/core/errors.js';
import { MAX_ID_LENGTH, MAX_PAGE_TOKEN_LENGTH } from '../../src/core/schemas/proto-json.js';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies, verifiesServer, type SuiteServer } from '../helpers/bindings.js';
import type { BindingDriver, CallResult, OpenResult } from '../helpers/driver.js';
import { errorOf, expectError, expectGeneric, expectInvalidParams } from '../helpers/expect.js';
import { sendTask, userMessage } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { BAD_REQUEST_TYPE, isRecord, type Operation, type WireError } from '../helpers/wire.js';

const MIB = 1024 * 1024;
/** Long enough to pass every cap, short enough for a URL (Node refuses request heads > 16 KiB). */
const URL_LONG = 5000;

interface LongCase {
  readonly operation: Operation;
  /** The field the violation must name (ProtoJSON path). */
  readonly field: string;
  readonly params: (value: string) => object;
  /** HTTP+JSON carries this field in the URL (path or query). */
  readonly inUrl?: boolean;
}

const message = (extra: Record<string, unknown>) => ({ message: userMessage('echo', extra) });
const config = { url: 'https://example.com/hook' };

// prettier-ignore
const CASES: readonly LongCase[] = [
  { operation: 'SendMessage', field: 'message.messageId', params: (v) => message({ messageId: v }) },
  { operation: 'SendMessage', field: 'message.taskId', params: (v) => message({ taskId: v }) },
  { operation: 'SendMessage', field: 'message.contextId', params: (v) => message({ contextId: v }) },
  { operation: 'SendMessage', field: 'message.referenceTaskIds', params: (v) => message({ referenceTaskIds: [v] }) },
  { operation: 'SendMessage', field: 'tenant', params: (v) => ({ ...message({}), tenant: v }), inUrl: true },
  { operation: 'SendMessage', field: 'configuration.taskPushNotificationConfig.id', params: (v) => ({ ...message({}), configuration: { taskPushNotificationConfig: { ...config, id: v } } }) },
  { operation: 'SendStreamingMessage', field: 'message.messageId', params: (v) => message({ messageId: v }) },
  { operation: 'SendStreamingMessage', field: 'message.taskId', params: (v) => message({ taskId: v }) },
  { operation: 'GetTask', field: 'id', params: (v) => ({ id: v }), inUrl: true },
  { operation: 'ListTasks', field: 'contextId', params: (v) => ({ contextId: v }), inUrl: true },
  { operation: 'ListTasks', field: 'pageToken', params: (v) => ({ pageToken: v }), inUrl: true },
  { operation: 'CancelTask', field: 'id', params: (v) => ({ id: v }), inUrl: true },
  { operation: 'SubscribeToTask', field: 'id', params: (v) => ({ id: v }), inUrl: true },
  { operation: 'CreateTaskPushNotificationConfig', field: 'taskId', params: (v) => ({ ...config, taskId: v }), inUrl: true },
  { operation: 'CreateTaskPushNotificationConfig', field: 'id', params: (v) => ({ ...config, taskId: 't-1', id: v }) },
  { operation: 'GetTaskPushNotificationConfig', field: 'taskId', params: (v) => ({ taskId: v, id: 'c-1' }), inUrl: true },
  { operation: 'GetTaskPushNotificationConfig', field: 'id', params: (v) => ({ taskId: 't-1', id: v }), inUrl: true },
  { operation: 'ListTaskPushNotificationConfigs', field: 'taskId', params: (v) => ({ taskId: v }), inUrl: true },
  { operation: 'ListTaskPushNotificationConfigs', field: 'pageToken', params: (v) => ({ taskId: 't-1', pageToken: v }), inUrl: true },
  { operation: 'DeleteTaskPushNotificationConfig', field: 'taskId', params: (v) => ({ taskId: v, id: 'c-1' }), inUrl: true },
  { operation: 'DeleteTaskPushNotificationConfig', field: 'id', params: (v) => ({ taskId: 't-1', id: v }), inUrl: true },
  { operation: 'GetExtendedAgentCard', field: 'tenant', params: (v) => ({ tenant: v }), inUrl: true },
];

/** Every gRPC method is covered (the issue: 1 MB ids to every method). */
const OPERATIONS_COVERED = new Set(CASES.map((c) => c.operation));

function call(b: BindingDriver, c: LongCase, value: string): Promise<CallResult | OpenResult> {
  const params = c.params(value);
  return c.operation === 'SendStreamingMessage' || c.operation === 'SubscribeToTask'
    ? b.open(c.operation, params)
    : b.call(c.operation, params);
}

/** The error stays small whatever was sent: message, ErrorInfo metadata, field violations. */
function expectBounded(error: WireError): void {
  expect(error.message.length, error.message.slice(0, 200)).toBeLessThanOrEqual(
    ERROR_BOUNDS.message,
  );
  for (const detail of error.details) {
    if (isRecord(detail.metadata)) {
      for (const value of Object.values(detail.metadata)) {
        expect(String(value).length).toBeLessThanOrEqual(ERROR_BOUNDS.metadataValue);
      }
    }
  }
  expect(JSON.stringify(error.details).length).toBeLessThan(16 * 1024);
}

/** The violation naming `field` says the cap. */
function expectCapNamed(error: WireError, field: string): void {
  const violations = error.details
    .filter((d) => d['@type'] === BAD_REQUEST_TYPE)
    .flatMap((d) => (Array.isArray(d.fieldViolations) ? (d.fieldViolations as unknown[]) : []))
    .filter(isRecord);
  const named = violations.find(
    (v) => v.field === field || String(v.field).startsWith(`${field}.`),
  );
  const cap = field === 'pageToken' ? MAX_PAGE_TOKEN_LENGTH : MAX_ID_LENGTH;
  expect(named?.description, JSON.stringify(violations)).toBe(`must be at most ${cap} characters`);
  expect(error.message).toContain(field);
}

/** A normal round trip on the same driver (same gRPC channel). */
async function normalCall(b: BindingDriver): Promise<void> {
  const task = await sendTask(b, 'echo still here');
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
}

function noInternalErrors(server: SuiteServer): void {
  expect(server.running.internalErrors).toEqual([]);
}

serverSuite(
  'long values',
  () => startServer(scriptedAgent().agent, { push: true, maxBodyBytes: 4 * MIB }),
  (server) => {
    verifiesServer([160], 'the cases cover every operation', async () => {
      expect(OPERATIONS_COVERED.size).toBe(11);
    });

    verifies(
      [160, 156],
      'a 1 MiB id in any field of any operation is INVALID_PARAMS naming the field and the cap; the connection still serves',
      async (b) => {
        for (const c of CASES) {
          // A NATS message is at most max_payload (1 MiB): half of it is still far over the cap.
          const length =
            b.name === 'HTTP+JSON' && c.inUrl === true
              ? URL_LONG
              : b.name === 'NATS'
                ? MIB / 2
                : MIB;
          const res = await call(b, c, 'x'.repeat(length));
          const error = expectInvalidParams(res, c.field);
          expectCapNamed(error, c.field);
          expectBounded(error);
          await normalCall(b);
        }
        noInternalErrors(server);
      },
      { timeout: 60_000 },
    );

    verifies(
      [160],
      'ids at the cap are accepted (unknown task, not a validation error)',
      async (b) => {
        const id = 'x'.repeat(MAX_ID_LENGTH);
        const error = expectError(await b.call('GetTask', { id }), 'TASK_NOT_FOUND');
        expectBounded(error);
      },
    );

    verifies(
      [160],
      'hostile calls in flight do not hold up a normal call on the same connection',
      async (b) => {
        const hostile = CASES.filter((c) => b.name !== 'HTTP+JSON' || c.inUrl !== true).map(
          async (c) =>
            expectInvalidParams(
              await call(b, c, 'y'.repeat(b.name === 'NATS' ? MIB / 2 : MIB)),
              c.field,
            ),
        );
        await Promise.all([...hostile, normalCall(b)]);
        await normalCall(b);
      },
      { timeout: 60_000 },
    );

    verifies(
      [156, 157],
      'a long A2A-Version is echoed bounded, with the hint to send 1.0 intact',
      async (b) => {
        // Node refuses HTTP request heads over 16 KiB; gRPC metadata may be larger.
        const version = `1.${'9'.repeat(b.name === 'GRPC' ? 30_000 : 8_000)}`;
        const res = await b.call('GetTask', { id: 'x' }, { headers: { 'A2A-Version': version } });
        const error = expectError(res, 'VERSION_NOT_SUPPORTED');
        expectBounded(error);
        expect(error.message).toMatch(/1\.0/);
        expect(error.message).toMatch(/"(A2A-Version|a2a-version): 1\.0"/);
        await normalCall(b);
      },
    );

    verifies(
      [156],
      'a JSON-RPC request id over 1024 characters is refused (every reply echoes it)',
      async (b) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 'i'.repeat(MIB),
          method: 'GetTask',
          params: { id: 'x' },
        });
        const reply = await b.raw('POST', '', body);
        expect(reply.text.length).toBeLessThan(4096);
        const error = expectGeneric(b.parse(reply, null), 'INVALID_REQUEST');
        expect(error.message).toContain('at most 1024 characters');
        await normalCall(b);
      },
      { only: ['JSONRPC'] },
    );

    verifies(
      [156],
      'an unknown REST path of 10 KB is a bounded 404',
      async (b) => {
        const reply = await b.raw('GET', `/${'p'.repeat(10_000)}/nope`);
        expect(reply.status).toBe(404);
        expectBounded(errorOf(b.parse(reply)));
        await normalCall(b);
      },
      { only: ['HTTP+JSON'] },
    );

    verifies(
      [156],
      'a 1 MiB id in a REST URL path is refused by the HTTP server without hanging',
      async (b) => {
        for (const path of [`/tasks/${'x'.repeat(MIB)}`, `/${'t'.repeat(MIB)}/tasks/x`]) {
          const status = await b.raw('GET', path).then(
            (reply) => reply.status,
            () => 'connection closed',
          );
          // Node answers a request head over its 16 KiB limit with 431 and closes.
          expect([431, 'connection closed']).toContain(status);
          await normalCall(b);
        }
      },
      { only: ['HTTP+JSON'] },
    );
  },
);
