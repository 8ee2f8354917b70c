/**
 * gRPC client transport (spec §10): calls `lf.a2a.v1.A2AService` at the interface's `host:port`
 * with `a2a-version: 1.0` metadata, the interface tenant in each request's `tenant` field, and
 * results validated like the HTTP transports. Breaking out of a stream cancels the RPC only,
 * never the task (spec §3.5.2). Stream events get ids from the stream's `a2a-first-event-id`
 * metadata, and `lastEventId` is sent as `last-event-id`, so streams resume exactly as on HTTP.
 * With `tls` the channel presents a client certificate (mutual TLS, spec §7.4).
 */
import {
  Client,
  type Metadata,
  credentials as channelCredentials,
  type ChannelCredentials,
  type ChannelOptions,
  type ClientReadableStream,
  type MethodDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import type { z } from 'zod';
import {
  OPERATIONS,
  type OperationParams,
  type StreamingOperationName,
} from '../../core/operations.js';
import {
  advanceEventCursor,
  formatEventCursor,
  parseEventCursor,
  type EventCursor,
} from '../../core/event-cursor.js';
import type { ClientTlsPem } from '../../transport/client-tls.js';
import { TransportError } from '../../transport/errors.js';
import { checkResult } from '../../transport/http-exchange.js';
import {
  BaseTransport,
  DEFAULT_TIMEOUT_MS,
  type CallOptions,
  type OperationResult,
  type StreamItem,
  type TransportOptions,
  type UnaryOperationName,
} from '../../transport/transport.js';
import { grpcFailure, streamTimeout, type FailureContext } from './client-errors.js';
import { fromProto, toProto } from './convert.js';
import { proto, type ProtoObject } from './proto.js';
import { requestMetadata } from './service-params.js';
import {
  FIRST_EVENT_ID_KEY,
  GRPC_BINDING,
  LAST_EVENT_ID_KEY,
  RPC_TYPES,
  SERVICE_NAME,
} from './wire.js';

/** Options of {@link GrpcTransport}. */
export interface GrpcTransportOptions extends TransportOptions {
  /** Channel credentials (default: TLS for `https://`/`grpcs://` urls, else insecure). */
  credentials?: ChannelCredentials | undefined;
  /**
   * TLS from PEM texts, when `credentials` is not given: the client certificate and key to
   * present (mutual TLS, spec §7.4) and the CAs to trust in place of the default roots. The
   * channel is then TLS for a bare `host:port` too; only a `http://` or `grpc://` url stays
   * plaintext.
   */
  tls?: ClientTlsPem | undefined;
  /** grpc-js channel options (message size limits, keepalive, ...). */
  channelOptions?: ChannelOptions | undefined;
}

type Method = MethodDefinition<ProtoObject, ProtoObject>;

/**
 * The grpc-js target of an interface url (`host:port`, or a URL with a scheme) and its security;
 * `scheme` is false for a bare `host:port` (its security is not said).
 */
export function grpcTarget(url: string): { target: string; secure: boolean; scheme: boolean } {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/]+)/i.exec(url);
  if (!match) return { target: url, secure: false, scheme: false };
  const scheme = (match[1] ?? '').toLowerCase();
  const secure = scheme === 'https' || scheme === 'grpcs';
  const authority = match[2] ?? '';
  const hasPort = /:\d+$/.test(authority);
  return {
    target: hasPort ? authority : `${authority}:${secure ? 443 : 80}`,
    secure,
    scheme: true,
  };
}

/** The channel credentials of `options`: given, from `tls`, or by the url's scheme. */
export function channelOf(options: GrpcTransportOptions): ChannelCredentials {
  if (options.credentials) return options.credentials;
  const { secure, scheme } = grpcTarget(options.url);
  const tls = options.tls;
  if (tls !== undefined && (secure || !scheme)) {
    if ((tls.cert === undefined) !== (tls.key === undefined)) {
      throw new TypeError('GrpcTransport tls: give the client certificate and its key together');
    }
    const buffer = (pem: string | Uint8Array | undefined) =>
      pem === undefined ? null : Buffer.from(pem);
    return channelCredentials.createSsl(buffer(tls.ca), buffer(tls.key), buffer(tls.cert));
  }
  return secure ? channelCredentials.createSsl() : channelCredentials.createInsecure();
}

/**
 * One unary RPC on `client`: cancelled when `signal` aborts, its deadline `timeoutMs` away; a
 * failure is rejected as `failure(error)` makes it.
 */
export function unaryRequest(
  client: Client,
  method: Method,
  message: ProtoObject,
  metadata: Metadata,
  limits: { timeoutMs: number; signal: AbortSignal | undefined },
  failure: (error: ServiceError) => Error,
): Promise<ProtoObject> {
  const { signal } = limits;
  return new Promise<ProtoObject>((resolve, reject) => {
    const onAbort = () => call.cancel();
    const call = client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      message,
      metadata,
      { deadline: Date.now() + limits.timeoutMs },
      (error, value) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(failure(error));
        else resolve(value ?? {});
      },
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A transport over one gRPC channel to `options.url` (the 1.0 and the 0.3 service). */
export abstract class GrpcChannelTransport extends BaseTransport {
  readonly binding = GRPC_BINDING;
  readonly url: string;
  protected readonly client: Client;

  constructor(protected readonly options: GrpcTransportOptions) {
    super();
    this.url = options.url;
    this.client = new Client(
      grpcTarget(options.url).target,
      channelOf(options),
      options.channelOptions,
    );
  }

  /** Closes the channel. */
  close(): void {
    this.client.close();
  }
}

/** Client of an agent's gRPC interface. */
export class GrpcTransport extends GrpcChannelTransport {
  /** Performs a unary operation. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    const method = this.method(operation);
    const message = toProto(RPC_TYPES[operation].request, this.withTenant(request));
    const context: FailureContext = { operation, url: this.url, signal: options.signal };
    if (options.signal?.aborted) throw grpcFailure(options.signal.reason, context);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const raw = await unaryRequest(
      this.client,
      method,
      message,
      requestMetadata(this.options.headers, options.headers),
      { timeoutMs, signal: options.signal },
      (error) => grpcFailure(error, context),
    );
    const schema: z.ZodType = OPERATIONS[operation].result;
    const result = fromProto(RPC_TYPES[operation].response, raw);
    return checkResult(schema, result, `${operation} result`, this.url) as OperationResult<N>;
  }

  /** Opens a server-streaming operation; ending the iteration early cancels the RPC. */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): AsyncGenerator<StreamItem> {
    const method = this.method(operation);
    const message = toProto(RPC_TYPES[operation].request, this.withTenant(request));
    const context: FailureContext = { operation, url: this.url, signal: options.signal };
    if (options.signal?.aborted) throw grpcFailure(options.signal.reason, context);
    yield* streamRequest(
      this.client,
      method,
      message,
      requestMetadata(
        this.options.headers,
        options.headers,
        options.lastEventId === undefined
          ? undefined
          : { [LAST_EVENT_ID_KEY]: options.lastEventId },
      ),
      {
        headersMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        // gRPC streams carry no keep-alive events: only an explicit idle limit applies.
        idleMs: options.idleTimeoutMs ?? this.options.idleTimeoutMs,
      },
      context,
      (raw) =>
        checkResult(
          OPERATIONS[operation].result,
          fromProto('StreamResponse', raw),
          `${operation} event`,
          this.url,
        ) as StreamItem['event'],
      (error) => grpcFailure(error, context),
    );
  }

  private method(operation: keyof typeof RPC_TYPES): Method {
    const service = proto().definition[SERVICE_NAME] as Record<string, Method | undefined>;
    const method = service[operation];
    if (!method) throw new TransportError('BAD_RESPONSE', `proto/a2a.proto lacks rpc ${operation}`);
    return method;
  }

  /** spec §8.3.2: exactly the interface tenant, or none at all. */
  private withTenant(request: object): Record<string, unknown> {
    const params: Record<string, unknown> = { ...request };
    if (this.options.tenant !== undefined) params.tenant = this.options.tenant;
    else delete params.tenant;
    return params;
  }
}

/**
 * The A2AClient transport factory of this binding. DEFAULT_TRANSPORTS already has GRPC (loaded on
 * first use); ask for it with `bindings` or `preferredBinding`. Passing this factory in
 * `transports: { ...DEFAULT_TRANSPORTS, GRPC: grpcTransport }` loads it eagerly and makes GRPC
 * one of the default bindings.
 */
export function grpcTransport(options: TransportOptions): GrpcTransport {
  return new GrpcTransport(options);
}

/**
 * One server-streaming RPC on `client` as stream items: each message decoded by `decode`, event
 * ids from the first event's id in the initial metadata (event k's is that cursor plus k; none
 * when the server sends none), the header and idle limits of {@link watchStream}, a failure
 * thrown as `failure(error)` makes it. Ending the iteration cancels the RPC.
 */
export async function* streamRequest(
  client: Client,
  method: Method,
  message: ProtoObject,
  metadata: Metadata,
  limits: { headersMs: number; idleMs: number | undefined },
  context: FailureContext,
  decode: (raw: ProtoObject) => StreamItem['event'],
  failure: (error: unknown) => Error,
): AsyncGenerator<StreamItem> {
  const call: ClientReadableStream<ProtoObject> = client.makeServerStreamRequest(
    method.path,
    method.requestSerialize,
    method.responseDeserialize,
    message,
    metadata,
    {},
  );
  let first: EventCursor | undefined;
  call.once('metadata', (initial: Metadata) => {
    const value = initial.get(FIRST_EVENT_ID_KEY)[0];
    first = typeof value === 'string' ? parseEventCursor(value) : undefined;
  });
  let k = 0;
  const watch = watchStream(call, context, limits);
  try {
    for await (const raw of call as AsyncIterable<ProtoObject>) {
      watch.activity();
      const event = decode(raw);
      yield first === undefined
        ? { event }
        : { id: formatEventCursor(advanceEventCursor(first, k++)), event };
    }
  } catch (error) {
    throw watch.timedOut() ?? failure(error);
  } finally {
    watch.stop();
    call.cancel();
  }
}

/** Header and idle timers of one stream; cancels the call when one fires. */
export function watchStream(
  call: ClientReadableStream<ProtoObject>,
  context: FailureContext,
  limits: { headersMs: number; idleMs: number | undefined },
) {
  let fired: TransportError | undefined;
  const expire = (what: string, ms: number) => () => {
    fired = streamTimeout(context, what, ms);
    call.cancel();
  };
  const onAbort = () => call.cancel();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  const headers = setTimeout(expire('no response headers', limits.headersMs), limits.headersMs);
  call.once('metadata', () => clearTimeout(headers));
  let idle: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (limits.idleMs === undefined) return;
    clearTimeout(idle);
    idle = setTimeout(expire('no event', limits.idleMs), limits.idleMs);
  };
  arm();
  return {
    activity: arm,
    timedOut: () => fired,
    stop: () => {
      clearTimeout(headers);
      clearTimeout(idle);
      context.signal?.removeEventListener('abort', onAbort);
    },
  };
}
