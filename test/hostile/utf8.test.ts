/**
 * Invalid UTF-8 is refused, never replaced with U+FFFD (issue 23 item 8), over every binding.
 * JSON bodies MUST be UTF-8 (spec §14.1.1, RFC 8259 §8.1): a body that is not is a parse error
 * (JSON-RPC -32700; HTTP+JSON 400 INVALID_ARGUMENT, docs/errors.md). A proto3 `string` field
 * MUST be UTF-8: gRPC refuses one that is not as INVALID_ARGUMENT naming the field. The agent
 * never sees the request; a real U+FFFD, correctly encoded, still goes through untouched.
 */
import { Client, credentials, type ServiceError, type MethodDefinition } from '@grpc/grpc-js';
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies } from '../helpers/bindings.js';
import type { BindingDriver, CallResult } from '../helpers/driver.js';
import { expectGeneric, expectInvalidParams } from '../helpers/expect.js';
import { PACKAGE, encode } from '../helpers/grpc-codec.js';
import { methodOf, metadataOf } from '../helpers/grpc-driver.js';
import { grpcError } from '../helpers/grpc-errors.js';
import { sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { textOf } from '../helpers/shapes.js';

/** Byte sequences that are not UTF-8 (RFC 3629 §3), each padded to 4 bytes with `Z`. */
const INVALID: readonly (readonly [string, readonly number[]])[] = [
  ['a lone continuation byte', [0x80]],
  ['0xFF', [0xff]],
  ['an overlong "/"', [0xc0, 0xaf]],
  ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ['a truncated sequence', [0xe2, 0x82]],
  ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
];

const MARKER = 'BAD!';
const padded = (bytes: readonly number[]) => [
  ...bytes,
  ...Array<number>(4 - bytes.length).fill(0x5a),
];

/** `encoded` with the (only) occurrence of MARKER's bytes replaced by `bytes`. */
function patch(encoded: Uint8Array, bytes: readonly number[]): Uint8Array {
  const at = Buffer.from(encoded).indexOf(MARKER);
  if (at < 0) throw new Error('marker not found');
  const out = Buffer.from(encoded);
  out.set(padded(bytes), at);
  return out;
}

const userMessage = (extra: Record<string, unknown> = {}) => ({
  messageId: uid('utf8'),
  role: 'ROLE_USER',
  parts: [{ text: 'echo hi' }],
  ...extra,
});

/** Requests with MARKER in one string field, and the field (ProtoJSON path) it is in. */
const FIELDS: readonly (readonly [string, Record<string, unknown>, string])[] = [
  [
    'SendMessage',
    { message: userMessage({ parts: [{ text: `echo ${MARKER}` }] }) },
    'message.parts.0.text',
  ],
  ['SendMessage', { message: userMessage({ messageId: MARKER }) }, 'message.messageId'],
  ['SendMessage', { message: userMessage(), metadata: { note: MARKER } }, 'metadata'],
  ['SendMessage', { message: userMessage({ metadata: { [MARKER]: 1 } }) }, 'message.metadata'],
  ['SendMessage', { tenant: MARKER, message: userMessage() }, 'tenant'],
  ['GetTask', { id: MARKER }, 'id'],
];

/** One gRPC call with a request already encoded (our driver would encode valid UTF-8). */
function grpcRaw(address: string, operation: string, bytes: Uint8Array): Promise<CallResult> {
  const method = methodOf(operation as never) as MethodDefinition<Buffer, unknown>;
  const client = new Client(address, credentials.createInsecure());
  return new Promise<CallResult>((resolve) => {
    client.makeUnaryRequest(
      method.path,
      (b: Buffer) => b,
      method.responseDeserialize,
      Buffer.from(bytes),
      metadataOf(),
      { deadline: Date.now() + 10_000 },
      (error: ServiceError | null, value?: unknown) => {
        client.close();
        resolve(
          error
            ? { ok: false, error: grpcError(error), headers: new Headers() }
            : { ok: true, result: value, httpStatus: 200, headers: new Headers() },
        );
      },
    );
  });
}

/** The request encoded for `b`: a JSON body (JSON-RPC envelope or HTTP+JSON) or protobuf. */
function encoded(b: BindingDriver, operation: string, params: object): Uint8Array {
  if (b.name === 'GRPC') {
    const request = operation === 'GetTask' ? 'GetTaskRequest' : 'SendMessageRequest';
    return methodOf(operation as never).requestSerialize(encode(`${PACKAGE}.${request}`, params));
  }
  const json = b.name === 'JSONRPC' ? { jsonrpc: '2.0', id: 1, method: operation, params } : params;
  return new TextEncoder().encode(JSON.stringify(json));
}

async function send(b: BindingDriver, operation: string, bytes: Uint8Array): Promise<CallResult> {
  if (b.name === 'GRPC') return grpcRaw(b.endpoint, operation, bytes);
  if (b.name === 'NATS') return b.parse(await b.raw('REQUEST', operation, bytes));
  if (b.name === 'JSONRPC') return b.parse(await b.raw('POST', '', bytes));
  const path = operation === 'GetTask' ? '/tasks/x' : '/message:send';
  // GetTask has no body on HTTP+JSON: its id is in the path, so only bodies are tested there.
  return b.parse(await b.raw('POST', path, bytes, { 'content-type': 'application/json' }));
}

serverSuite(
  'invalid UTF-8',
  () => startServer(scriptedAgent().agent),
  (server) => {
    verifies(
      [59, 160],
      'invalid UTF-8 in any string is refused, the agent never runs',
      async (b) => {
        for (const [operation, params, field] of FIELDS) {
          if (b.name === 'HTTP+JSON' && operation === 'GetTask') continue;
          for (const [name, bytes] of INVALID) {
            const res = await send(b, operation, patch(encoded(b, operation, params), bytes));
            const what = `${name} in ${field}`;
            if (b.name === 'GRPC') {
              const error = expectInvalidParams(res, field);
              expect(error.message, what).toContain('UTF-8');
            } else {
              const error = expectGeneric(res, 'PARSE_ERROR');
              expect(error.message, what).toContain('UTF-8');
            }
          }
        }
        const listed = await b.call('ListTasks', {});
        expect(listed.ok && (listed.result as { tasks: unknown[] }).tasks).toEqual([]);
        expect(server.running.internalErrors).toEqual([]);
      },
    );

    verifies([59], 'a real U+FFFD and other non-ASCII text go through untouched', async (b) => {
      const text = 'echo \uFFFD 任务 🌍 \u0000';
      const task = await sendTask(b, text);
      expect(textOf(task.artifacts?.[0] ?? { parts: [] })).toBe(`echo: ${text}`);
    });
  },
);
