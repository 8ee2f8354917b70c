/**
 * Every request gets exactly one request line (requestLog) and one SERVER span (a2a-kit/otel,
 * the real SDK), refused ones too (core/refusal.ts): requests a binding refuses before the
 * operation middleware runs — malformed JSON, a body over `maxBodyBytes`, an unsupported
 * `A2A-Version` (spec §3.6.2), an unknown method or route, params that fail validation,
 * authentication refusals (spec §7.4), a wrong HTTP method, an undecodable gRPC message — and
 * requests refused by a middleware placed before the observing ones; on JSON-RPC, HTTP+JSON,
 * gRPC and the 0.3 paths. Each line and span carries the A2A error code, the binding, the
 * operation when the binding knew it, and the caller when authenticated; the span continues the
 * caller's `traceparent`. No token the requests carried reaches a line or a span.
 */
import { Client, Metadata, credentials } from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aType } from '../../src/bindings/grpc/convert.js';
import { proto, type ProtoObject } from '../../src/bindings/grpc/proto.js';
import { RPC_TYPES, SERVICE_NAME } from '../../src/bindings/grpc/wire.js';
import { A2AError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/logger.js';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import type { OperationName } from '../../src/core/operations.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { ATTR, SPAN, a2aTelemetry } from '../../src/otel/index.js';
import { staticSecrets } from '../../src/security/auth/index.js';
import { createAgent } from '../../src/server/agent.js';
import { requestLog } from '../../src/server/request-log.js';
import { testSdk } from './sdk.js';

const TOKEN = 'refusal-bearer-9c1e77';
const WRONG = 'wrong-bearer-4b7d21';
const PUSH_SECRET = 'push-credentials-0a9f3e';

const sdk = testSdk();
const otel = a2aTelemetry({
  tracerProvider: sdk.tracerProvider,
  meterProvider: sdk.meterProvider,
  propagator: sdk.propagator,
});
const lines: Record<string, unknown>[] = [];
const capture =
  (level: string) =>
  (fields: object, message?: string): void => {
    lines.push({ level, ...fields, msg: message });
  };
const logger: Logger = {
  debug: capture('debug'),
  info: capture('info'),
  warn: capture('warn'),
  error: capture('error'),
};
/** A middleware before the observing ones, refusing GetTask of `blocked`. */
const blocker: OperationMiddleware = async (operation, params, _call, next) => {
  if (operation === 'GetTask' && (params as { id?: string }).id === 'blocked') {
    throw new A2AError('PERMISSION_DENIED', 'blocked by policy');
  }
  return next();
};

const agent = createAgent({
  card: {
    name: 'Guarded',
    description: 'answers authenticated callers',
    version: '1.0.0',
    capabilities: { streaming: true },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    skills: [],
  },
  async *execute({ task }) {
    yield task.completed('done');
  },
});

let running: ServeResult;
let grpc: Client;

beforeAll(async () => {
  running = await serve(agent, {
    grpc: true,
    compat: ['0.3'],
    maxBodyBytes: 4096,
    logger: null,
    auth: { schemes: { bearer: { bearer: staticSecrets({ [TOKEN]: { id: 'alice' } }) } } },
    middleware: [blocker, otel.middleware, requestLog(logger)],
  });
  grpc = new Client(running.grpcUrl ?? '', credentials.createInsecure());
});

afterAll(async () => {
  grpc.close();
  await running.close();
  await sdk.shutdown();
});

const V1 = { 'a2a-version': '1.0' };
const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };
const MESSAGE = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

function http(method: string, path: string, headers: Record<string, string>, body?: string) {
  return fetch(running.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
}
const rpc = (method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const jsonrpc = (body: string, headers: Record<string, string> = { ...V1, ...AUTH }) =>
  http('POST', '/a2a/jsonrpc', { ...JSON_TYPE, ...headers }, body);
const rest = (
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { ...V1, ...AUTH },
) => http(method, `/a2a/rest${path}`, { ...JSON_TYPE, ...headers }, body);

/** One raw gRPC call with exactly these request bytes and metadata; resolves when answered. */
function grpcCall(
  name: OperationName,
  bytes: Buffer,
  metadata: Record<string, string> = { ...V1, ...AUTH },
): Promise<void> {
  const method = (proto().definition[SERVICE_NAME] as Record<string, { path: string }>)[name];
  const md = new Metadata();
  for (const [k, v] of Object.entries(metadata)) md.set(k, v);
  const same = (b: Buffer) => b;
  return new Promise((resolve) => {
    if (name === 'SendStreamingMessage' || name === 'SubscribeToTask') {
      const call = grpc.makeServerStreamRequest(method?.path ?? '', same, same, bytes, md, {});
      call.on('data', () => undefined);
      call.on('error', () => resolve());
      call.on('end', () => resolve());
      return;
    }
    grpc.makeUnaryRequest(method?.path ?? '', same, same, bytes, md, () => resolve());
  });
}
const encoded = (name: OperationName, request: ProtoObject) =>
  proto().message(a2aType(RPC_TYPES[name].request)).serialize(request);

const serverSpans = () => sdk.spans().filter((s) => s.kind === SpanKind.SERVER);

/** The lines and server spans one request produced. */
async function observed(fire: () => Promise<unknown>) {
  const [l0, s0] = [lines.length, serverSpans().length];
  const answered = await fire();
  if (answered instanceof Response) await answered.text();
  return { lines: lines.slice(l0), spans: serverSpans().slice(s0) };
}

interface Expected {
  binding: string;
  status: string;
  operation?: OperationName;
  caller?: string;
}

function expectOne(seen: Awaited<ReturnType<typeof observed>>, want: Expected) {
  expect(seen.lines).toHaveLength(1);
  const line = seen.lines[0] ?? {};
  expect(line).toMatchObject({
    event: 'a2a.request',
    binding: want.binding,
    status: want.status,
    durationMs: expect.any(Number),
  });
  expect(line['operation']).toBe(want.operation);
  expect(line['caller']).toBe(want.caller);
  expect(seen.spans).toHaveLength(1);
  const span = seen.spans[0];
  expect(span?.name).toBe(want.operation ?? SPAN.server);
  expect(span?.attributes[ATTR.binding]).toBe(want.binding);
  expect(span?.attributes[ATTR.method]).toBe(want.operation);
  if (want.status === 'OK') {
    expect(span?.status.code).not.toBe(SpanStatusCode.ERROR);
  } else {
    expect(span?.attributes[ATTR.errorType]).toBe(want.status);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
  }
  return span;
}

type Case = [what: string, fire: () => Promise<unknown>, want: Expected];

const JSONRPC: Case[] = [
  [
    'malformed JSON',
    () => jsonrpc(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"t":"${TOKEN}`),
    { binding: 'JSONRPC', status: 'PARSE_ERROR', caller: 'alice' },
  ],
  [
    'a body over maxBodyBytes',
    () =>
      jsonrpc(rpc('SendMessage', { message: { ...MESSAGE, parts: [{ text: 'x'.repeat(5000) }] } })),
    { binding: 'JSONRPC', status: 'PAYLOAD_TOO_LARGE', caller: 'alice' },
  ],
  [
    'an unsupported A2A-Version',
    () => jsonrpc(rpc('SendMessage', { message: MESSAGE }), { 'a2a-version': '9.9', ...AUTH }),
    { binding: 'JSONRPC', status: 'VERSION_NOT_SUPPORTED', caller: 'alice' },
  ],
  [
    'an unknown method',
    () => jsonrpc(rpc('NoSuchMethod', { token: TOKEN })),
    { binding: 'JSONRPC', status: 'METHOD_NOT_FOUND', caller: 'alice' },
  ],
  [
    'invalid params',
    () =>
      jsonrpc(
        rpc('SendMessage', {
          message: { role: 'ROLE_USER' },
          configuration: {
            taskPushNotificationConfig: {
              url: 'https://hooks.example/a',
              authentication: { scheme: 'Bearer', credentials: PUSH_SECRET },
            },
          },
        }),
      ),
    {
      binding: 'JSONRPC',
      status: 'INVALID_PARAMS',
      operation: 'SendMessage',
      caller: 'alice',
    },
  ],
  [
    'no credentials',
    () => jsonrpc(rpc('SendMessage', { message: MESSAGE }), V1),
    { binding: 'JSONRPC', status: 'UNAUTHENTICATED' },
  ],
  [
    'a wrong token',
    () =>
      jsonrpc(rpc('SendMessage', { message: MESSAGE }), {
        ...V1,
        authorization: `Bearer ${WRONG}`,
      }),
    { binding: 'JSONRPC', status: 'UNAUTHENTICATED' },
  ],
  [
    'a GET',
    () => http('GET', '/a2a/jsonrpc', { ...V1, ...AUTH }),
    { binding: 'JSONRPC', status: 'METHOD_NOT_ALLOWED' },
  ],
  [
    'a refusal of a middleware before the observing ones',
    () => jsonrpc(rpc('GetTask', { id: 'blocked' })),
    { binding: 'JSONRPC', status: 'PERMISSION_DENIED', operation: 'GetTask', caller: 'alice' },
  ],
  [
    'an error of the operation (seen by the middleware: one line, not two)',
    () => jsonrpc(rpc('GetTask', { id: 'no-such-task' })),
    { binding: 'JSONRPC', status: 'TASK_NOT_FOUND', operation: 'GetTask', caller: 'alice' },
  ],
  [
    'a success',
    () => jsonrpc(rpc('SendMessage', { message: MESSAGE })),
    { binding: 'JSONRPC', status: 'OK', operation: 'SendMessage', caller: 'alice' },
  ],
];

const REST: Case[] = [
  [
    'malformed JSON',
    () => rest('POST', '/message:send', `{"message":"${TOKEN}`),
    { binding: 'HTTP+JSON', status: 'PARSE_ERROR', operation: 'SendMessage', caller: 'alice' },
  ],
  [
    'a body over maxBodyBytes',
    () => rest('POST', '/message:send', JSON.stringify({ pad: 'x'.repeat(5000) })),
    {
      binding: 'HTTP+JSON',
      status: 'PAYLOAD_TOO_LARGE',
      operation: 'SendMessage',
      caller: 'alice',
    },
  ],
  [
    'an unsupported A2A-Version',
    () =>
      rest('POST', '/message:send', JSON.stringify({ message: MESSAGE }), {
        'a2a-version': '9.9',
        ...AUTH,
      }),
    {
      binding: 'HTTP+JSON',
      status: 'VERSION_NOT_SUPPORTED',
      operation: 'SendMessage',
      caller: 'alice',
    },
  ],
  [
    'an unknown route',
    () => rest('GET', '/no/such/route'),
    { binding: 'HTTP+JSON', status: 'METHOD_NOT_FOUND', caller: 'alice' },
  ],
  [
    'a known route with another verb',
    () => rest('DELETE', '/message:send'),
    { binding: 'HTTP+JSON', status: 'METHOD_NOT_ALLOWED', caller: 'alice' },
  ],
  [
    'invalid params',
    () => rest('POST', '/message:send', JSON.stringify({ message: { role: 'ROLE_USER' } })),
    { binding: 'HTTP+JSON', status: 'INVALID_PARAMS', operation: 'SendMessage', caller: 'alice' },
  ],
  [
    'a wrong token',
    () =>
      rest('POST', '/message:send', JSON.stringify({ message: MESSAGE }), {
        ...V1,
        authorization: `Bearer ${WRONG}`,
      }),
    { binding: 'HTTP+JSON', status: 'UNAUTHENTICATED' },
  ],
  [
    'a success',
    () => rest('POST', '/message:send', JSON.stringify({ message: MESSAGE })),
    { binding: 'HTTP+JSON', status: 'OK', operation: 'SendMessage', caller: 'alice' },
  ],
];

const GRPC: Case[] = [
  [
    'no a2a-version',
    () => grpcCall('SendMessage', encoded('SendMessage', { message: MESSAGE }), AUTH),
    { binding: 'GRPC', status: 'VERSION_NOT_SUPPORTED', operation: 'SendMessage' },
  ],
  [
    'no a2a-version on a stream',
    () =>
      grpcCall('SendStreamingMessage', encoded('SendStreamingMessage', { message: MESSAGE }), AUTH),
    { binding: 'GRPC', status: 'VERSION_NOT_SUPPORTED', operation: 'SendStreamingMessage' },
  ],
  [
    'a wrong token',
    () =>
      grpcCall('SendMessage', encoded('SendMessage', { message: MESSAGE }), {
        ...V1,
        authorization: `Bearer ${WRONG}`,
      }),
    { binding: 'GRPC', status: 'UNAUTHENTICATED', operation: 'SendMessage' },
  ],
  [
    'undecodable bytes',
    () => grpcCall('SendMessage', Buffer.from([0xff, 0xff, 0xff])),
    { binding: 'GRPC', status: 'INVALID_PARAMS', operation: 'SendMessage', caller: 'alice' },
  ],
  [
    'invalid params',
    () => grpcCall('SendMessage', encoded('SendMessage', {})),
    { binding: 'GRPC', status: 'INVALID_PARAMS', operation: 'SendMessage', caller: 'alice' },
  ],
  [
    'an error of the operation',
    () => grpcCall('GetTask', encoded('GetTask', { id: 'no-such-task' })),
    { binding: 'GRPC', status: 'TASK_NOT_FOUND', operation: 'GetTask', caller: 'alice' },
  ],
];

/** A2A 0.3 requests: no A2A-Version, served by the 0.3 handlers at the same URLs. */
const V03: Case[] = [
  [
    '0.3 JSON-RPC invalid params',
    () => jsonrpc(rpc('message/send', { message: { kind: 'message' } }), AUTH),
    { binding: 'JSONRPC', status: 'INVALID_PARAMS', operation: 'SendMessage', caller: 'alice' },
  ],
  [
    '0.3 JSON-RPC unknown method',
    () => jsonrpc(rpc('tasks/list', {}), AUTH),
    { binding: 'JSONRPC', status: 'METHOD_NOT_FOUND', caller: 'alice' },
  ],
  [
    '0.3 JSON-RPC stream that cannot start (answered as an SSE error frame)',
    () => jsonrpc(rpc('message/stream', { message: { kind: 'message' } }), AUTH),
    {
      binding: 'JSONRPC',
      status: 'INVALID_PARAMS',
      operation: 'SendStreamingMessage',
      caller: 'alice',
    },
  ],
  [
    '0.3 HTTP+JSON malformed JSON',
    () => rest('POST', '/v1/message:send', '{"message":', AUTH),
    { binding: 'HTTP+JSON', status: 'PARSE_ERROR', operation: 'SendMessage', caller: 'alice' },
  ],
  [
    '0.3 HTTP+JSON a wrong token',
    () => rest('POST', '/v1/message:send', '{}', { authorization: `Bearer ${WRONG}` }),
    { binding: 'HTTP+JSON', status: 'UNAUTHENTICATED' },
  ],
];

describe('one request line and one server span per request, refused ones too', () => {
  for (const [binding, cases] of [
    ['JSON-RPC', JSONRPC],
    ['HTTP+JSON', REST],
    ['gRPC', GRPC],
    ['A2A 0.3', V03],
  ] as const) {
    describe(binding, () => {
      for (const [what, fire, want] of cases) {
        it(`${what}: ${want.status}`, async () => {
          expectOne(await observed(fire), want);
        });
      }
    });
  }

  it("a refused request's span continues the caller's traceparent and spans the request", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const before = Date.now();
    const seen = await observed(() =>
      jsonrpc('{not json', { ...V1, ...AUTH, traceparent: `00-${traceId}-00f067aa0ba902b7-01` }),
    );
    const span = expectOne(seen, { binding: 'JSONRPC', status: 'PARSE_ERROR', caller: 'alice' });
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(ms(span?.startTime ?? [0, 0])).toBeGreaterThanOrEqual(before - 1);
    expect(ms(span?.endTime ?? [0, 0])).toBeGreaterThanOrEqual(ms(span?.startTime ?? [0, 0]));
  });

  it('counts refused requests in a2a.server.requests, by code (unknown methods as _OTHER)', async () => {
    const points = await sdk.points('a2a.server.requests');
    const refused = points.find(
      (p) =>
        p.attributes[ATTR.method] === '_OTHER' &&
        p.attributes[ATTR.binding] === 'JSONRPC' &&
        p.attributes[ATTR.outcome] === 'METHOD_NOT_FOUND',
    );
    expect(refused?.value).toBeGreaterThanOrEqual(1);
  });

  it('never logs or traces a token or credential the requests carried', () => {
    const logged = JSON.stringify(lines);
    const traced = JSON.stringify(sdk.spans().map((s) => [s.name, s.attributes, s.events]));
    for (const secret of [TOKEN, WRONG, PUSH_SECRET]) {
      expect(logged.includes(secret), `a line contains ${secret}`).toBe(false);
      expect(traced.includes(secret), `a span contains ${secret}`).toBe(false);
    }
  });
});
