/**
 * Hand-written bad input over every binding (issue 2 item 8): each case gets its exact spec error
 * (code and HTTP status), never a 5xx, a hang or a crash. The server under test limits bodies to
 * 64 KiB.
 */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies, verifiesServer, type SuiteServer } from '../helpers/bindings.js';
import type { HeaderOverrides } from '../helpers/driver.js';
import { expectError, expectGeneric, expectInvalidParams, ok } from '../helpers/expect.js';
import { kinds, sendParams, sendTask } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { textOf } from '../helpers/shapes.js';
import { restError, type A2AReason, type JsonRpcStandardError } from '../helpers/wire.js';

const LIMIT = 64 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };

const rpc = (fields: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, ...fields });
const send = (message: unknown) => rpc({ method: 'SendMessage', params: { message } });
const user = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'echo' }] };
const oversized = send({ ...user, parts: [{ text: 'x'.repeat(LIMIT) }] });

const LEGACY = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
];

// prettier-ignore
const JSONRPC_CASES: [string, string | Uint8Array, JsonRpcStandardError | A2AReason][] = [
  ['invalid JSON', '{"jsonrpc":"2.0","id":1,', 'PARSE_ERROR'],
  ['an empty body', '', 'PARSE_ERROR'],
  ['bytes that are not UTF-8 JSON', new Uint8Array([0xff, 0xfe, 0x00, 0x7b]), 'PARSE_ERROR'],
  ['JSON null', 'null', 'INVALID_REQUEST'],
  ['a JSON number', '42', 'INVALID_REQUEST'],
  ['an empty batch', '[]', 'INVALID_REQUEST'],
  ['an empty object', '{}', 'INVALID_REQUEST'],
  ['a notification (no id)', JSON.stringify({ jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } }), 'INVALID_REQUEST'],
  ['an object id', rpc({ id: { a: 1 }, method: 'GetTask', params: { id: 'x' } }), 'INVALID_REQUEST'],
  ['a boolean id', rpc({ id: true, method: 'GetTask', params: { id: 'x' } }), 'INVALID_REQUEST'],
  ['no jsonrpc member', JSON.stringify({ id: 1, method: 'GetTask', params: { id: 'x' } }), 'INVALID_REQUEST'],
  ['method null', rpc({ method: null }), 'INVALID_REQUEST'],
  ['a method with a NUL', rpc({ method: 'SendMessage\u0000', params: {} }), 'METHOD_NOT_FOUND'],
  ...LEGACY.map((m): [string, string, JsonRpcStandardError] => [`the 0.3 method ${m}`, rpc({ method: m, params: {} }), 'METHOD_NOT_FOUND']),
  ['params a string', rpc({ method: 'GetTask', params: 'x' }), 'INVALID_PARAMS'],
  ['params a number', rpc({ method: 'ListTasks', params: 3 }), 'INVALID_PARAMS'],
  ['message an array', send([user]), 'INVALID_PARAMS'],
  ['parts an object', send({ ...user, parts: { text: 'x' } }), 'INVALID_PARAMS'],
  ['a bogus role', send({ ...user, role: 'ROLE_ROBOT' }), 'INVALID_PARAMS'],
  ['an integer role out of range', send({ ...user, role: 9 }), 'INVALID_PARAMS'],
  ['messageId a number', send({ ...user, messageId: 5 }), 'INVALID_PARAMS'],
  ['task id a number', rpc({ method: 'GetTask', params: { id: 5 } }), 'INVALID_PARAMS'],
  ['historyLength a word', rpc({ method: 'GetTask', params: { id: 'x', historyLength: 'ten' } }), 'INVALID_PARAMS'],
  ['historyLength 1e309', '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x","historyLength":1e309}}', 'INVALID_PARAMS'],
  ['pageSize 1000', rpc({ method: 'ListTasks', params: { pageSize: 1000 } }), 'INVALID_PARAMS'],
  ['an empty task id', rpc({ method: 'GetTask', params: { id: '' } }), 'INVALID_PARAMS'],
  ['an unknown task', rpc({ method: 'GetTask', params: { id: 'nope' } }), 'TASK_NOT_FOUND'],
  ['a body over the limit', oversized, 'INVALID_REQUEST'],
];

interface RestCase {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: string | Uint8Array;
  readonly headers?: HeaderOverrides;
  /** HTTP status, and the google.rpc status where the spec mapping fixes one. */
  readonly http: number;
  readonly status?: string;
}

// prettier-ignore
const REST_CASES: RestCase[] = [
  { name: 'invalid JSON', method: 'POST', path: '/message:send', body: '{"message":', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'a JSON array body', method: 'POST', path: '/message:send', body: '[]', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'a JSON string body', method: 'POST', path: '/message:send', body: '"hi"', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'a JSON null body', method: 'POST', path: '/message:send', body: 'null', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'an empty body', method: 'POST', path: '/message:send', body: '', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'no message', method: 'POST', path: '/message:send', body: '{}', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'wrong field types', method: 'POST', path: '/message:send', body: '{"message":{"messageId":1,"role":true,"parts":"x"}}', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'a text/plain body', method: 'POST', path: '/message:send', body: JSON.stringify({ message: user }), headers: { 'content-type': 'text/plain' }, http: 415 },
  { name: 'a form body', method: 'POST', path: '/message:stream', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, http: 415 },
  { name: 'a body over the limit', method: 'POST', path: '/message:send', body: oversized, headers: JSON_TYPE, http: 413 },
  { name: 'GET on message:send', method: 'GET', path: '/message:send', http: 405 },
  { name: 'DELETE on tasks', method: 'DELETE', path: '/tasks', http: 405 },
  { name: 'PUT on a task', method: 'PUT', path: '/tasks/x', http: 405 },
  { name: 'PATCH on cancel', method: 'PATCH', path: '/tasks/x:cancel', http: 405 },
  { name: 'pageSize not a number', method: 'GET', path: '/tasks?pageSize=abc', http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'pageSize twice', method: 'GET', path: '/tasks?pageSize=1&pageSize=2', http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'includeArtifacts=1', method: 'GET', path: '/tasks?includeArtifacts=1', http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'an unknown status', method: 'GET', path: '/tasks?status=DONE', http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'a negative historyLength', method: 'GET', path: '/tasks/x?historyLength=-1', http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'malformed percent-encoding', method: 'GET', path: '/tasks/%E0%A4%A', http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'a cancel body that is an array', method: 'POST', path: '/tasks/x:cancel', body: '[1]', headers: JSON_TYPE, http: 400, status: 'INVALID_ARGUMENT' },
  { name: 'an unknown task', method: 'GET', path: '/tasks/nope', http: 404, status: 'NOT_FOUND' },
];

/** Unknown routes: the spec mapping of "not found" is HTTP 404 with google.rpc NOT_FOUND. */
const UNKNOWN_PATHS = [
  '/a2a/rest/nope',
  '/a2a/rest/tasks/x/y/z',
  '/a2a/rest/v1/card',
  '/nope',
  '/a2a/jsonrpc/extra',
];

/** Ids that must reach the server intact and be answered as unknown tasks. */
const HOSTILE_IDS = [
  '../../etc/passwd',
  'a/b/../c',
  'a?b=c&d',
  'a#fragment',
  '%2F%2E%2E',
  'x'.repeat(1024), // the cap (MAX_ID_LENGTH); longer ids: test/hostile/long-values.test.ts
  '任务-🌍-задача',
  'a\u0000b',
  ' spaced id ',
  '<script>alert(1)</script>',
  "'; DROP TABLE tasks;--",
  '\u202Eevil',
  '\r\nX-Injected: 1',
  '{"id":"x"}',
];

function noInternalErrors(server: SuiteServer): void {
  expect(server.running.internalErrors).toEqual([]);
}

serverSuite(
  'bad input',
  () => startServer(scriptedAgent().agent, { maxBodyBytes: LIMIT }),
  (server) => {
    verifies(
      [166, 171, 205, 160],
      'malformed JSON-RPC requests get their standard error',
      async (b) => {
        for (const [name, body, expected] of JSONRPC_CASES) {
          const reply = await b.raw('POST', '', body);
          expect(reply.status, name).toBe(200);
          const res = b.parse(reply);
          if (expected.startsWith('TASK_')) expectError(res, expected as A2AReason);
          else expectGeneric(res, expected as JsonRpcStandardError);
        }
        noInternalErrors(server);
      },
      { only: ['JSONRPC'] },
    );

    verifies(
      [173, 178, 205, 160],
      'malformed HTTP+JSON requests get their status and google.rpc.Status',
      async (b) => {
        for (const c of REST_CASES) {
          const reply = await b.raw(c.method, c.path, c.body, c.headers);
          expect(reply.status, c.name).toBe(c.http);
          const error = restError(reply.json, reply.status);
          if (c.status !== undefined) expect(error.status, c.name).toBe(c.status);
          if (c.http === 405) expect(reply.headers.get('allow'), c.name).toBeTruthy();
        }
        noInternalErrors(server);
      },
      { only: ['HTTP+JSON'] },
    );

    verifiesServer(
      [173, 178],
      'unknown paths give 404 with google.rpc status NOT_FOUND',
      async () => {
        for (const path of UNKNOWN_PATHS) {
          const reply = await fetch(server.url + path, { headers: { 'a2a-version': '1.0' } });
          const error = restError(await reply.json(), reply.status);
          expect([path, error.httpStatus, error.status]).toEqual([path, 404, 'NOT_FOUND']);
        }
      },
    );

    verifiesServer(
      [166],
      'the JSON-RPC endpoint and the card refuse other HTTP verbs with 405',
      async () => {
        const cases: [string, string][] = [
          ['GET', '/a2a/jsonrpc'],
          ['PUT', '/a2a/jsonrpc'],
          ['DELETE', '/a2a/jsonrpc'],
          ['POST', '/.well-known/agent-card.json'],
        ];
        for (const [method, path] of cases) {
          const reply = await fetch(server.url + path, {
            method,
            headers: { 'a2a-version': '1.0' },
          });
          expect([method, path, reply.status]).toEqual([method, path, 405]);
          expect(reply.headers.get('allow')).toBeTruthy();
          restError(await reply.json(), 405);
        }
      },
    );

    verifies([84, 204], 'hostile task ids are unknown tasks, never a crash', async (b) => {
      for (const id of HOSTILE_IDS) {
        for (const operation of ['GetTask', 'CancelTask'] as const) {
          expectError(await b.call(operation, { id }), 'TASK_NOT_FOUND');
        }
        expectError(await b.open('SubscribeToTask', { id }), 'TASK_NOT_FOUND');
      }
      noInternalErrors(server);
    });

    verifies(
      [46, 160],
      'an empty task id is a validation error',
      async (b) => {
        expectInvalidParams(await b.call('GetTask', { id: '' }));
      },
      { only: ['JSONRPC'] },
    );

    verifies([204, 109], 'text that looks like SSE framing cannot inject events', async (b) => {
      const text = 'echo a\n\ndata: {"task":{"id":"forged"}}\n\nid: 999\r\n\r\nevent: error\n';
      const res = await b.stream('SendStreamingMessage', sendParams(text));
      if (!res.ok) return expect.fail(res.error.message);
      expect(kinds(res.events)).toEqual([
        'task:TASK_STATE_SUBMITTED',
        'status:TASK_STATE_WORKING',
        'artifact',
        'status:TASK_STATE_COMPLETED',
      ]);
      expect(res.events.map((e) => e.id)).not.toContain('999');
      const task = await sendTask(b, text);
      expect(textOf(task.artifacts?.[0] ?? { parts: [] })).toBe(`echo: ${text}`);
    });

    verifies(
      [47],
      'a __proto__ key is an ignored field, not a prototype',
      async (b) => {
        const res = await b.call(
          'SendMessage',
          JSON.parse(
            `{"__proto__":{"polluted":true},"message":${JSON.stringify({ ...user, messageId: `proto-${b.name}` })}}`,
          ) as object,
        );
        ok(res);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      },
      // A JSON key; gRPC requests have field numbers (grpc.test.ts: unknown fields ignored).
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );
  },
);

/** Deeply nested JSON: a 10 KiB request must not poison the tasks of its scope. */
const DEEP = `${'['.repeat(5000)}1${']'.repeat(5000)}`;

serverSuite(
  'deeply nested input',
  () => startServer(scriptedAgent().agent, { maxBodyBytes: LIMIT }),
  (server) => {
    verifies(
      [205, 160],
      'JSON nested 5000 deep is refused as invalid params; ListTasks still works',
      async (b) => {
        const tenant = `deep-${b.name === 'JSONRPC' ? 'rpc' : 'rest'}`;
        const message = `{"messageId":"deep-${tenant}","role":"ROLE_USER","parts":[{"text":"echo"}],"metadata":{"x":${DEEP}}}`;
        // Sent as text: the test's own JSON.stringify could not serialise it either.
        const reply =
          b.name === 'JSONRPC'
            ? await b.raw(
                'POST',
                '',
                `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"tenant":"${tenant}","message":${message}}}`,
              )
            : await b.raw('POST', `/${tenant}/message:send`, `{"message":${message}}`, JSON_TYPE);
        expectInvalidParams(b.parse(reply));
        ok(await b.call('ListTasks', { tenant }));
        noInternalErrors(server);
      },
      // JSON text sent raw; the gRPC equivalent (a Struct 5000 deep) is in grpc.test.ts.
      { only: ['JSONRPC', 'HTTP+JSON'] },
    );
  },
);
