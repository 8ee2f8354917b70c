/** JSON-RPC binding specifics (spec §9, requirement 117 of test/conformance/requirements.ts, 166-172). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import type { BindingDriver } from '../helpers/driver.js';
import { errorOf, expectError, expectGeneric, ok } from '../helpers/expect.js';
import { sendParams } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { SseParser } from '../helpers/sse.js';
import { WireStreamResponse, shape, taskOf } from '../helpers/shapes.js';
import { isRecord, mediaType, tryJson, type JsonRpcStandardError } from '../helpers/wire.js';

const only = ['JSONRPC'] as const;

function post(b: BindingDriver, request: unknown) {
  return b.raw('POST', '', JSON.stringify(request));
}

serverSuite(
  'JSON-RPC binding',
  () => startServer(scriptedAgent().agent),
  () => {
    const opts = { only };

    verifies(
      [166, 167],
      'PascalCase methods answer JSON-RPC 2.0 as application/json',
      async (b) => {
        for (const id of [7, 'req-abc']) {
          const reply = await post(b, {
            jsonrpc: '2.0',
            id,
            method: 'SendMessage',
            params: sendParams('echo'),
          });
          expect(mediaType(reply.headers.get('content-type'))).toBe('application/json');
          expect(taskOf(ok(b.parse(reply, id))).status.state).toBe('TASK_STATE_COMPLETED');
        }
      },
      opts,
    );

    verifies(
      [166, 168, 170],
      'errors are JSON-RPC error objects sent as application/json',
      async (b) => {
        const reply = await post(b, {
          jsonrpc: '2.0',
          id: 3,
          method: 'GetTask',
          params: { id: 'nope' },
        });
        expect(mediaType(reply.headers.get('content-type'))).toBe('application/json');
        const body = reply.json;
        expect(isRecord(body) && Object.keys(body).sort()).toEqual(['error', 'id', 'jsonrpc']);
        expectError(b.parse(reply, 3), 'TASK_NOT_FOUND');
      },
      opts,
    );

    const standard: [string, string, JsonRpcStandardError][] = [
      ['invalid JSON', '{"jsonrpc":"2.0",', 'PARSE_ERROR'],
      ['a JSON string', '"SendMessage"', 'INVALID_REQUEST'],
      [
        'a batch',
        '[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]',
        'INVALID_REQUEST',
      ],
      [
        'jsonrpc 1.0',
        '{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"x"}}',
        'INVALID_REQUEST',
      ],
      ['no method', '{"jsonrpc":"2.0","id":1,"params":{}}', 'INVALID_REQUEST'],
      ['a numeric method', '{"jsonrpc":"2.0","id":1,"method":5}', 'INVALID_REQUEST'],
      [
        'a lower-case method',
        '{"jsonrpc":"2.0","id":1,"method":"sendMessage","params":{}}',
        'METHOD_NOT_FOUND',
      ],
      [
        'a 0.3 method',
        '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}',
        'METHOD_NOT_FOUND',
      ],
      [
        'an unknown method',
        '{"jsonrpc":"2.0","id":1,"method":"DoMagic","params":{}}',
        'METHOD_NOT_FOUND',
      ],
      [
        'params as an array',
        '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":["x"]}',
        'INVALID_PARAMS',
      ],
      [
        'params missing id',
        '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}',
        'INVALID_PARAMS',
      ],
    ];
    verifies(
      [171, 167],
      'standard JSON-RPC errors use the standard codes',
      async (b) => {
        for (const [what, body, kind] of standard) {
          const reply = await b.raw('POST', '', body);
          const error = expectGeneric(b.parse(reply), kind);
          expect(error.message.length, what).toBeGreaterThan(0);
        }
      },
      opts,
    );

    verifies(
      [171],
      'a parse error answers with id null',
      async (b) => {
        const reply = await b.raw('POST', '', '{oops');
        expect(isRecord(reply.json) && reply.json.id).toBeNull();
        expectGeneric(b.parse(reply, null), 'PARSE_ERROR');
      },
      opts,
    );

    verifies(
      [125],
      'GetExtendedAgentCard may omit params',
      async (b) => {
        const reply = await post(b, { jsonrpc: '2.0', id: 9, method: 'GetExtendedAgentCard' });
        expectError(b.parse(reply, 9), 'UNSUPPORTED_OPERATION');
      },
      opts,
    );

    verifies(
      [117, 172],
      'each SSE event is a JSON-RPC response with the request id and a StreamResponse',
      async (b) => {
        const id = 'stream-id-1';
        const reply = await post(b, {
          jsonrpc: '2.0',
          id,
          method: 'SendStreamingMessage',
          params: sendParams('chunks 2'),
        });
        expect(mediaType(reply.headers.get('content-type'))).toBe('text/event-stream');
        const messages = new SseParser().push(reply.text);
        expect(messages.length).toBe(5);
        for (const message of messages) {
          const response = tryJson(message.data);
          expect(isRecord(response) && Object.keys(response).sort()).toEqual([
            'id',
            'jsonrpc',
            'result',
          ]);
          if (!isRecord(response)) return;
          expect(response.jsonrpc).toBe('2.0');
          expect(response.id).toBe(id);
          shape(WireStreamResponse, response.result);
        }
      },
      opts,
    );

    verifies(
      [172, 104],
      'errors before a stream starts are plain JSON-RPC errors',
      async (b) => {
        const reply = await post(b, {
          jsonrpc: '2.0',
          id: 4,
          method: 'SubscribeToTask',
          params: { id: 'nope' },
        });
        expect(mediaType(reply.headers.get('content-type'))).toBe('application/json');
        expect(errorOf(b.parse(reply, 4)).code).toBe('TASK_NOT_FOUND');
      },
      opts,
    );
  },
);
