/** HTTP+JSON binding specifics (spec §11, requirements 173–180 of test/conformance/requirements.ts). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import { expectError, expectInvalidParams, ok } from '../helpers/expect.js';
import { sendParams, sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { SseParser } from '../helpers/sse.js';
import {
  WireListTasksResponse,
  WireStreamResponse,
  WireTask,
  shape,
  taskOf,
} from '../helpers/shapes.js';
import { A2A_JSON, ERROR_INFO_TYPE, isRecord, mediaType, tryJson } from '../helpers/wire.js';

const only = ['HTTP+JSON'] as const;
const opts = { only };

serverSuite(
  'HTTP+JSON binding',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies(
      [173],
      'every task route also works under a /{tenant} prefix',
      async (b) => {
        const tenant = uid('tenant');
        const asked = taskOf(ok(await b.call('SendMessage', { ...sendParams('ask'), tenant })));
        const got = shape(WireTask, ok(await b.call('GetTask', { id: asked.id, tenant })));
        expect(got.id).toBe(asked.id);
        const list = shape(WireListTasksResponse, ok(await b.call('ListTasks', { tenant })));
        expect(list.tasks.map((t) => t.id)).toEqual([asked.id]);
        const sub = await b.stream('SubscribeToTask', { id: asked.id, tenant }, { abortAfter: 1 });
        expect(sub.ok && sub.events.length).toBe(1);
        const streamed = await b.stream('SendStreamingMessage', { ...sendParams('echo'), tenant });
        expect(streamed.ok).toBe(true);
        const canceled = shape(WireTask, ok(await b.call('CancelTask', { id: asked.id, tenant })));
        expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
        expectError(await b.call('GetExtendedAgentCard', { tenant }), 'UNSUPPORTED_OPERATION');
        expectError(
          await b.call('ListTaskPushNotificationConfigs', { taskId: asked.id, tenant }),
          'PUSH_NOTIFICATION_NOT_SUPPORTED',
        );
      },
      opts,
    );

    verifies(
      [174, 59],
      'application/json and application/a2a+json bodies are both accepted',
      async (b) => {
        for (const type of ['application/json', A2A_JSON, `${A2A_JSON}; charset=utf-8`]) {
          const res = await b.call('SendMessage', sendParams('echo'), {
            headers: { 'content-type': type },
          });
          expect(taskOf(ok(res)).status.state, type).toBe('TASK_STATE_COMPLETED');
        }
      },
      opts,
    );

    const replyTypes: [string, Record<string, string | null>, string][] = [
      ['Accept a2a+json', { accept: A2A_JSON, 'content-type': 'application/json' }, A2A_JSON],
      ['Accept json', { accept: 'application/json' }, 'application/json'],
      ['no Accept, json body', { 'content-type': 'application/json' }, 'application/json'],
      ['no Accept, a2a+json body', { 'content-type': A2A_JSON }, A2A_JSON],
    ];
    verifies(
      [174],
      'the reply media type follows Accept, else Content-Type',
      async (b) => {
        for (const [what, headers, expected] of replyTypes) {
          const res = await b.call('SendMessage', sendParams('echo'), { headers });
          expect(mediaType(res.headers.get('content-type')), what).toBe(expected);
          const error = await b.call('GetTask', { id: 'nope' }, { headers });
          expect(mediaType(error.headers.get('content-type')), `${what} (error)`).toBe(expected);
        }
        const plain = await b.raw('GET', '/tasks?pageSize=1');
        expect(mediaType(plain.headers.get('content-type')), 'default').toBe(A2A_JSON);
      },
      opts,
    );

    verifies(
      [175, 176],
      'GET parameters come from the query string, typed as specified',
      async (b) => {
        const task = await sendTask(b, 'ask');
        const get = await b.raw('GET', `/tasks/${encodeURIComponent(task.id)}?historyLength=1`);
        expect(shape(WireTask, get.json).history).toHaveLength(1);
        const list = await b.raw(
          'GET',
          '/tasks?includeArtifacts=true&pageSize=1&status=TASK_STATE_INPUT_REQUIRED',
        );
        expect(shape(WireListTasksResponse, list.json).pageSize).toBe(1);
        const bad = await b.raw('GET', '/tasks?includeArtifacts=yes');
        expectInvalidParams(b.parse(bad), 'includeArtifacts');
      },
      opts,
    );

    verifies(
      [173, 175],
      'fields bound in the path win over the same fields in the query or body',
      async (b) => {
        const tenant = uid('tenant');
        const body = JSON.stringify({ ...sendParams('ask'), tenant: 'body-tenant' });
        const sent = await b.raw('POST', `/${tenant}/message:send`, body, {
          'content-type': A2A_JSON,
        });
        const task = taskOf(sent.json);
        const got = await b.raw('GET', `/${tenant}/tasks/${task.id}?id=other&tenant=query-tenant`);
        expect(shape(WireTask, got.json).id).toBe(task.id);
        const cancel = await b.raw('POST', `/${tenant}/tasks/${task.id}:cancel`, '{"id":"other"}', {
          'content-type': A2A_JSON,
        });
        expect(shape(WireTask, cancel.json).status.state).toBe('TASK_STATE_CANCELED');
      },
      opts,
    );

    verifies(
      [178, 179],
      'errors are a google.rpc.Status with exactly code, status, message, details',
      async (b) => {
        const reply = await b.raw('GET', '/tasks/does-not-exist');
        expect(reply.status).toBe(404);
        const error = isRecord(reply.json) ? reply.json.error : undefined;
        expect(Object.keys(reply.json ?? {})).toEqual(['error']);
        expect(isRecord(error) && Object.keys(error).sort()).toEqual([
          'code',
          'details',
          'message',
          'status',
        ]);
        expect(error).toMatchObject({
          code: 404,
          status: 'NOT_FOUND',
          details: [
            { '@type': ERROR_INFO_TYPE, reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' },
          ],
        });
      },
      opts,
    );

    verifies(
      [180, 118],
      'each SSE data field is a bare StreamResponse',
      async (b) => {
        const reply = await b.raw(
          'POST',
          '/message:stream',
          JSON.stringify(sendParams('chunks 2')),
          {
            'content-type': A2A_JSON,
          },
        );
        expect(mediaType(reply.headers.get('content-type'))).toBe('text/event-stream');
        const messages = new SseParser().push(reply.text);
        expect(messages).toHaveLength(5);
        for (const message of messages) shape(WireStreamResponse, tryJson(message.data));
      },
      opts,
    );

    verifies(
      [173],
      'success replies use status 200',
      async (b) => {
        const send = await b.raw('POST', '/message:send', JSON.stringify(sendParams('echo')), {
          'content-type': A2A_JSON,
        });
        expect(send.status).toBe(200);
        const task = taskOf(send.json);
        expect((await b.raw('GET', `/tasks/${task.id}`)).status).toBe(200);
        expect((await b.raw('GET', '/tasks')).status).toBe(200);
      },
      opts,
    );
  },
);
