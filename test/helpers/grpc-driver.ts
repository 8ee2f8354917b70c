/**
 * The gRPC binding (spec §10) spoken with raw @grpc/grpc-js and @grpc/proto-loader on
 * proto/a2a.proto, not our client: requests encoded from ProtoJSON, replies decoded back to it,
 * service parameters as metadata, response metadata exposed as `headers`, errors normalised from
 * the status and its google.rpc.Status trailer. HTTP-only options (query, verb, Last-Event-ID,
 * raw bodies) are refused: a test using them must be restricted to the HTTP bindings.
 */
import {
  Client,
  Metadata,
  credentials,
  type ClientReadableStream,
  type MethodDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import type {
  BindingDriver,
  CallOptions,
  CallResult,
  HeaderOverrides,
  LiveStream,
  OpenResult,
  StreamEvent,
  StreamOptions,
  StreamResult,
} from './driver.js';
import { readStream } from './driver.js';
import { PACKAGE, decode, encode, protoDefinition } from './grpc-codec.js';
import { grpcError, metadataHeaders } from './grpc-errors.js';
import type { Operation, StreamOperation, WireError } from './wire.js';

/** Request and response message of each rpc (proto/a2a.proto). */
// prettier-ignore
const RPC: Readonly<Record<Operation, readonly [request: string, response: string]>> = {
  SendMessage: ['SendMessageRequest', 'SendMessageResponse'],
  SendStreamingMessage: ['SendMessageRequest', 'StreamResponse'],
  GetTask: ['GetTaskRequest', 'Task'],
  ListTasks: ['ListTasksRequest', 'ListTasksResponse'],
  CancelTask: ['CancelTaskRequest', 'Task'],
  SubscribeToTask: ['SubscribeToTaskRequest', 'StreamResponse'],
  CreateTaskPushNotificationConfig: ['TaskPushNotificationConfig', 'TaskPushNotificationConfig'],
  GetTaskPushNotificationConfig: ['GetTaskPushNotificationConfigRequest', 'TaskPushNotificationConfig'],
  ListTaskPushNotificationConfigs: ['ListTaskPushNotificationConfigsRequest', 'ListTaskPushNotificationConfigsResponse'],
  DeleteTaskPushNotificationConfig: ['DeleteTaskPushNotificationConfigRequest', 'google.protobuf.Empty'],
  GetExtendedAgentCard: ['GetExtendedAgentCardRequest', 'AgentCard'],
};

type Method = MethodDefinition<object, unknown>;

const qualified = (name: string) => (name.includes('.') ? name : `${PACKAGE}.${name}`);

/** The rpc's method definition (path, codecs) from the loaded service. */
export function methodOf(operation: Operation): Method {
  const service = protoDefinition()[`${PACKAGE}.A2AService`] as Record<string, Method | undefined>;
  const method = service[operation];
  if (!method) throw new Error(`proto/a2a.proto has no rpc ${operation}`);
  return method;
}

/** Metadata: `a2a-version: 1.0`, then the overrides (lower-cased keys; `null` removes). */
export function metadataOf(overrides: HeaderOverrides = {}): Metadata {
  const values = new Map<string, string>([['a2a-version', '1.0']]);
  for (const [name, value] of Object.entries(overrides)) {
    const key = name.toLowerCase();
    if (key === 'content-type') throw new Error('content-type is HTTP framing, not metadata');
    if (value === null) values.delete(key);
    else values.set(key, value);
  }
  const metadata = new Metadata();
  for (const [key, value] of values) metadata.set(key, value);
  return metadata;
}

function refuseHttpOnly(options: CallOptions): void {
  const used = (['query', 'verb'] as const).filter((k) => options[k] !== undefined);
  if (used.length > 0)
    throw new Error(`gRPC has no ${used.join(', ')}: restrict this test to the HTTP bindings`);
}

/** A driver for the gRPC interface at `address` (`host:port`); close() releases its channel. */
export function grpcDriver(address: string): BindingDriver & { close(): void } {
  const client = new Client(address, credentials.createInsecure());
  const request = (operation: Operation, params: object) =>
    encode(qualified(RPC[operation][0]), params);

  const driver: BindingDriver & { close(): void } = {
    name: 'GRPC',
    endpoint: address,
    call(operation: Operation, params: object, options: CallOptions = {}): Promise<CallResult> {
      refuseHttpOnly(options);
      const method = methodOf(operation);
      const message = request(operation, params);
      return new Promise<CallResult>((resolve, reject) => {
        let headers = new Headers();
        const call = client.makeUnaryRequest(
          method.path,
          method.requestSerialize,
          method.responseDeserialize,
          message,
          metadataOf(options.headers),
          { deadline: Date.now() + 10_000 },
          (error: ServiceError | null, value?: unknown) => {
            if (options.signal?.aborted) return reject(new Error('aborted by the test'));
            try {
              if (error) resolve({ ok: false, error: grpcError(error), headers });
              else {
                const result = decode(qualified(RPC[operation][1]), value);
                resolve({ ok: true, result, httpStatus: 200, headers });
              }
            } catch (failure) {
              reject(asError(failure));
            }
          },
        );
        call.on('metadata', (metadata: Metadata) => (headers = metadataHeaders(metadata)));
        options.signal?.addEventListener('abort', () => call.cancel(), { once: true });
      });
    },
    async open(
      operation: StreamOperation,
      params: object,
      options: StreamOptions = {},
    ): Promise<OpenResult> {
      refuseHttpOnly(options);
      const method = methodOf(operation);
      const call = client.makeServerStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request(operation, params),
        metadataOf({
          ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
          ...options.headers,
        }),
        {},
      );
      options.signal?.addEventListener('abort', () => call.cancel(), { once: true });
      return GrpcStream.open(call);
    },
    async stream(
      operation: StreamOperation,
      params: object,
      options: StreamOptions & { abortAfter?: number } = {},
    ): Promise<StreamResult> {
      return readStream(await driver.open(operation, params, options), options.abortAfter);
    },
    raw(): never {
      throw new Error('gRPC has no raw HTTP exchange: restrict this test to the HTTP bindings');
    },
    parse(): never {
      throw new Error('gRPC has no raw HTTP exchange: restrict this test to the HTTP bindings');
    },
    close: () => client.close(),
  };
  return driver;
}

/** A server stream as a {@link LiveStream}: events queued as they arrive. */
class GrpcStream implements LiveStream {
  headers = new Headers();
  error: WireError | undefined;
  readonly comments = 0;
  private readonly queue: StreamEvent[] = [];
  private ended = false;
  private closedByUs = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  /** The `a2a-first-event-id` metadata: `B` or `B+n` (docs/deployment.md). */
  private first: string | undefined;
  private received = 0;

  private constructor(private readonly call: ClientReadableStream<unknown>) {
    call.on('data', (raw: unknown) => {
      try {
        const event = decode(`${PACKAGE}.StreamResponse`, raw);
        this.queue.push({ id: this.nextId(), event });
      } catch (failure) {
        this.failure ??= asError(failure);
      }
      this.notify();
    });
    call.on('error', (error: ServiceError) => {
      if (!this.closedByUs) {
        try {
          this.error = grpcError(error);
        } catch (failure) {
          this.failure ??= asError(failure);
        }
      }
      this.finish();
    });
    call.on('end', () => this.finish());
  }

  /** Waits for the response headers (ok) or a status before any (the call was refused). */
  static async open(call: ClientReadableStream<unknown>): Promise<OpenResult> {
    const stream = new GrpcStream(call);
    const opened = await new Promise<boolean>((resolve) => {
      call.once('metadata', (metadata: Metadata) => {
        stream.headers = metadataHeaders(metadata);
        stream.first = stream.headers.get('a2a-first-event-id') ?? undefined;
        resolve(true);
      });
      call.once('status', () => resolve(false));
    });
    if (stream.failure) throw stream.failure;
    if (opened || !stream.error) return { ok: true, stream };
    return { ok: false, error: stream.error, headers: stream.headers };
  }

  /** The id of the next event: the first event id plus the events received before it. */
  private nextId(): string | undefined {
    const match = /^(\d+)(?:\+(\d+))?$/.exec(this.first ?? '');
    if (!match) return undefined;
    const n = Number(match[2] ?? '0') + this.received++;
    return n === 0 ? (match[1] ?? '') : `${match[1] ?? ''}+${n}`;
  }

  async next(timeoutMs = 5000): Promise<StreamEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.failure) throw this.failure;
      const event = this.queue.shift();
      if (event) return event;
      if (this.ended) return undefined;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no gRPC stream event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async rest(timeoutMs?: number): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    for (let e = await this.next(timeoutMs); e; e = await this.next(timeoutMs)) events.push(e);
    return events;
  }

  close(): void {
    this.closedByUs = true;
    this.call.cancel();
    this.finish();
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
