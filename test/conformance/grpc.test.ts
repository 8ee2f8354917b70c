/**
 * gRPC binding specifics (spec §10, requirement 39 of test/conformance/requirements.ts, 182-184): the service and its rpcs, server
 * streaming, service parameters in metadata, binary input. Spoken with raw grpc-js where the
 * driver's ProtoJSON layer would hide what is checked.
 */
import { Client, credentials, type Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterAll, expect } from 'vitest';
import { EXT_REQUIRED, extensionAgent, scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies, verifiesServer, type SuiteServer } from '../helpers/bindings.js';
import { errorOf, expectError, expectInvalidParams, ok } from '../helpers/expect.js';
import { PACKAGE, decode, encode } from '../helpers/grpc-codec.js';
import { methodOf, metadataOf } from '../helpers/grpc-driver.js';
import { grpcError } from '../helpers/grpc-errors.js';
import { sendParams, sendTask, uid } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';
import { taskOf } from '../helpers/shapes.js';
import { GRPC_CODES, OPERATIONS, type Operation } from '../helpers/wire.js';

const only = ['GRPC'] as const;

/** Raw grpc-js calls with our own (de)serializers, closed after the suite. */
function rawClient(server: SuiteServer) {
  let client: Client | undefined;
  afterAll(() => client?.close());
  const get = () => (client ??= new Client(server.running.grpcUrl, credentials.createInsecure()));
  return {
    /** A unary call of `path` whose request is `bytes`; resolves with the status. */
    unary(path: string, bytes: Buffer, metadata: Metadata = metadataOf()) {
      return new Promise<{ error: ServiceError | null; value: unknown }>((resolve) => {
        get().makeUnaryRequest(
          path,
          () => bytes,
          (reply: Buffer) => reply,
          {},
          metadata,
          { deadline: Date.now() + 10_000 },
          (error: ServiceError | null, value?: unknown) => resolve({ error, value }),
        );
      });
    },
    /** A streaming call: every message, then the final status code. */
    stream(operation: Operation, request: object) {
      const method = methodOf(operation);
      const call = get().makeServerStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        metadataOf(),
        {},
      );
      const messages: unknown[] = [];
      call.on('data', (m: unknown) => messages.push(m));
      call.on('error', () => undefined); // the status below says it
      return new Promise<{ messages: unknown[]; code: number }>((resolve) => {
        call.on('status', (status: { code: number }) => resolve({ messages, code: status.code }));
      });
    },
  };
}

/** A minimal request of each operation; push operations on a server without push support. */
const MINIMAL: Readonly<Record<Operation, Record<string, unknown>>> = {
  SendMessage: sendParams('echo minimal'),
  SendStreamingMessage: sendParams('echo minimal'),
  GetTask: { id: 'no-such-task' },
  ListTasks: {},
  CancelTask: { id: 'no-such-task' },
  SubscribeToTask: { id: 'no-such-task' },
  CreateTaskPushNotificationConfig: { taskId: 't', url: 'https://hooks.a2a-kit.test/x' },
  GetTaskPushNotificationConfig: { taskId: 't', id: 'c' },
  ListTaskPushNotificationConfigs: { taskId: 't' },
  DeleteTaskPushNotificationConfig: { taskId: 't', id: 'c' },
  GetExtendedAgentCard: {},
};

serverSuite(
  'gRPC binding',
  () => startServer(scriptedAgent().agent),
  (server) => {
    const raw = rawClient(server);

    verifies(
      [182, 185],
      'every rpc of lf.a2a.v1.A2AService answers: a result or an A2A error, never UNIMPLEMENTED',
      async (b) => {
        for (const operation of OPERATIONS) {
          const res =
            operation === 'SendStreamingMessage' || operation === 'SubscribeToTask'
              ? await b.stream(operation, MINIMAL[operation])
              : await b.call(operation, MINIMAL[operation]);
          if (res.ok) continue;
          expect(res.error.grpcCode, `${operation}: ${res.error.message}`).not.toBe(
            GRPC_CODES.UNIMPLEMENTED,
          );
          expect(res.error.code, operation).toMatch(/^[A-Z_]+$/);
          expect(res.error.details.length, `${operation} has status details`).toBeGreaterThan(0);
        }
      },
      { only },
    );

    verifiesServer([182], 'an rpc the service does not define is UNIMPLEMENTED', async () => {
      const { error } = await raw.unary(`/${PACKAGE}.A2AService/SendMessageV2`, Buffer.alloc(0));
      expect(error?.code).toBe(GRPC_CODES.UNIMPLEMENTED);
    });

    verifiesServer(
      [184, 106],
      'a stream is one server-streaming call: StreamResponse messages, then status OK',
      async () => {
        const { messages, code } = await raw.stream('SendStreamingMessage', {
          message: encode(`${PACKAGE}.Message`, sendParams('chunks 2').message),
        });
        expect(code).toBe(GRPC_CODES.OK);
        const events = messages.map((m) => decode(`${PACKAGE}.StreamResponse`, m));
        expect(events.map((e) => Object.keys(e))).toEqual([
          ['task'],
          ['statusUpdate'],
          ['artifactUpdate'],
          ['artifactUpdate'],
          ['statusUpdate'],
        ]);
      },
    );

    verifiesServer(
      [184, 116],
      'a stream refused before its first message ends with the error status and no message',
      async () => {
        const { messages, code } = await raw.stream('SubscribeToTask', { id: uid('task') });
        expect([messages.length, code]).toEqual([0, GRPC_CODES.NOT_FOUND]);
      },
    );

    verifies(
      [39, 32, 33],
      'a2a-version travels as metadata: missing or 0.3 is refused with FAILED_PRECONDITION',
      async (b) => {
        for (const version of [null, '0.3']) {
          const res = await b.call('GetTask', { id: 'x' }, { headers: { 'a2a-version': version } });
          expectError(res, 'VERSION_NOT_SUPPORTED');
          expect(errorOf(res).status).toBe('FAILED_PRECONDITION');
        }
        const served = await b.call('GetTask', { id: 'x' }, { headers: { 'a2a-version': '1.0' } });
        expectError(served, 'TASK_NOT_FOUND');
      },
      { only },
    );

    verifiesServer([47], 'unknown fields in a binary request are ignored', async () => {
      const method = methodOf('SendMessage');
      const request = method.requestSerialize(
        encode(`${PACKAGE}.SendMessageRequest`, sendParams('echo unknown')),
      );
      // Field 1000, varint 1: a field a newer proto might add.
      const withUnknown = Buffer.concat([request, Buffer.from([0xc0, 0x3e, 0x01])]);
      const { error, value } = await raw.unary(method.path, withUnknown);
      expect(error).toBeNull();
      const reply = decode(
        `${PACKAGE}.SendMessageResponse`,
        method.responseDeserialize(value as Buffer),
      );
      expect(taskOf(reply).status.state).toBe('TASK_STATE_COMPLETED');
    });

    /** The status of a raw call as the driver would report it. */
    const refusal = (error: ServiceError | null) => {
      if (!error) return expect.fail('expected an error status');
      return { ok: false as const, error: grpcError(error), headers: new Headers() };
    };

    verifiesServer(
      [160, 46],
      'bytes that are no SendMessageRequest are INVALID_ARGUMENT, not a crash',
      async () => {
        const garbage = Buffer.from([0xff, 0xff, 0xff]);
        const { error } = await raw.unary(methodOf('SendMessage').path, garbage);
        expectInvalidParams(refusal(error));
        expect(server.running.internalErrors).toEqual([]);
        const task = await sendTask(server.driver('GRPC'), 'echo still serving');
        expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      },
    );

    verifiesServer(
      [205, 160],
      'metadata nested 5000 deep is refused as invalid params; the server goes on',
      async () => {
        const method = methodOf('SendMessage');
        const request = encode(`${PACKAGE}.SendMessageRequest`, sendParams('echo deep'));
        // Written by hand: protobuf encoders refuse to nest this deep (recursion limit 100).
        const deep = Buffer.concat([
          method.requestSerialize(request),
          field(4, nestedStruct(5000)),
        ]);
        const { error } = await raw.unary(method.path, deep);
        expectInvalidParams(refusal(error));
        expect(server.running.internalErrors).toEqual([]);
        const task = await sendTask(server.driver('GRPC'), 'echo after deep');
        expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      },
    );
  },
);

serverSuite(
  'gRPC service parameters',
  () => startServer(extensionAgent().agent),
  () => {
    verifies(
      [39, 235],
      'a2a-extensions metadata activates extensions, echoed in the response metadata',
      async (b) => {
        const res = await b.call('SendMessage', sendParams('echo'), {
          headers: { 'a2a-extensions': EXT_REQUIRED },
        });
        expect(taskOf(ok(res)).status.state).toBe('TASK_STATE_COMPLETED');
        expect(res.headers.get('a2a-extensions')).toBe(EXT_REQUIRED);
        const refused = await b.call('SendMessage', sendParams('echo'));
        expectError(refused, 'EXTENSION_SUPPORT_REQUIRED');
      },
      { only },
    );
  },
);

/** A length-delimited protobuf field. */
function field(number: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((number << 3) | 2), varint(payload.length), payload]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 127) {
    bytes.push((rest & 127) | 128);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** google.protobuf.Struct `{"x": {"x": … 1}}`, `depth` objects deep. */
function nestedStruct(depth: number): Buffer {
  const one = Buffer.from([0x11, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]); // Value.number_value = 1
  let value: Buffer = one;
  let struct: Buffer = Buffer.alloc(0);
  for (let i = 0; i < depth; i++) {
    struct = field(1, Buffer.concat([field(1, Buffer.from('x')), field(2, value)]));
    value = field(5, struct); // Value.struct_value
  }
  return struct;
}
