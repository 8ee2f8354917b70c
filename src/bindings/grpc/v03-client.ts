/**
 * Client of a 0.3 agent's gRPC interface (0.3 spec §3.2.2): calls `a2a.v1.A2AService` at the
 * interface's `host:port` without `a2a-version` metadata (0.3 has none), extensions as
 * `x-a2a-extensions`. The caller sends and receives 1.0 shapes (`v03-requests.ts` converts at the
 * edge) and results are validated like every transport's. Errors: the ErrorInfo of the
 * google.rpc.Status trailer when the server sends one (a2a-kit does), else the status read the
 * way the 0.3 SDKs' clients read it, per operation (`v03-proto.ts`). ListTasks has no 0.3 rpc:
 * UNSUPPORTED_OPERATION before anything is sent. Breaking out of a stream cancels the RPC only.
 */
import { Metadata, type MethodDefinition, type ServiceError } from '@grpc/grpc-js';
import { A2AError } from '../../core/errors.js';
import {
  OPERATIONS,
  type OperationName,
  type OperationParams,
  type StreamingOperationName,
} from '../../core/operations.js';
import { checkResult } from '../../transport/http-exchange.js';
import {
  DEFAULT_TIMEOUT_MS,
  type CallOptions,
  type OperationResult,
  type StreamItem,
  type UnaryOperationName,
} from '../../transport/transport.js';
import { V03_VERSION } from '../v03/wire.js';
import {
  GrpcChannelTransport,
  streamRequest,
  unaryRequest,
  type GrpcTransportOptions,
} from './client.js';
import { grpcFailure, type FailureContext } from './client-errors.js';
import { fromProto, toProto } from './convert.js';
import type { ProtoObject } from './proto.js';
import {
  errorCodeOf03,
  notIn03,
  protoV03,
  V03_EXTENSIONS_KEY,
  V03_RPCS,
  V03_RPC_OF,
  V03_SERVICE_NAME,
  type Rpc03,
} from './v03-proto.js';
import { requestTo03, resultFrom03 } from './v03-requests.js';
import { EXTENSIONS_KEY, LAST_EVENT_ID_KEY, STATUS_DETAILS_KEY } from './wire.js';

type Method = MethodDefinition<ProtoObject, ProtoObject>;

/** Client of a 0.3 gRPC interface; the API is the 1.0 one. */
export class Grpc03Transport extends GrpcChannelTransport {
  /** The protocol version this transport speaks. */
  readonly protocolVersion = V03_VERSION;

  /** Performs a unary operation. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    const { rpc, method } = this.method(operation);
    const message = toProto(rpc.request, requestTo03(operation, { ...request }));
    const context: FailureContext = { operation, url: this.url, signal: options.signal };
    if (options.signal?.aborted) throw grpcFailure(options.signal.reason, context);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const raw = await unaryRequest(
      this.client,
      method,
      message,
      metadata03(this.options.headers, options.headers),
      { timeoutMs, signal: options.signal },
      (error) => failure03(error, operation, context),
    );
    const result = resultFrom03(operation, fromProto(rpc.response, raw));
    return checkResult(
      OPERATIONS[operation].result,
      result,
      `${operation} result`,
      this.url,
    ) as OperationResult<N>;
  }

  /** Opens a server-streaming operation; ending the iteration early cancels the RPC. */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): AsyncGenerator<StreamItem> {
    const { rpc, method } = this.method(operation);
    const message = toProto(rpc.request, requestTo03(operation, { ...request }));
    const context: FailureContext = { operation, url: this.url, signal: options.signal };
    if (options.signal?.aborted) throw grpcFailure(options.signal.reason, context);
    const resume =
      options.lastEventId === undefined ? undefined : { [LAST_EVENT_ID_KEY]: options.lastEventId };
    // a2a-kit servers send the first event's id (0.3 servers do not: then events have none).
    yield* streamRequest(
      this.client,
      method,
      message,
      metadata03(this.options.headers, options.headers, resume),
      {
        headersMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        idleMs: options.idleTimeoutMs ?? this.options.idleTimeoutMs,
      },
      context,
      (raw) =>
        checkResult(
          OPERATIONS[operation].result,
          resultFrom03(operation, fromProto(rpc.response, raw)),
          `${operation} event`,
          this.url,
        ) as StreamItem['event'],
      (error) => failure03(error, operation, context),
    );
  }

  private method(operation: OperationName): { rpc: Rpc03; method: Method } {
    const name = V03_RPC_OF[operation];
    const rpc = name === undefined ? undefined : V03_RPCS[name];
    if (name === undefined || rpc === undefined) throw notIn03(operation);
    const service = protoV03().definition[V03_SERVICE_NAME] as Record<string, Method | undefined>;
    const method = service[name];
    if (!method) throw notIn03(operation);
    return { rpc, method };
  }
}

/** The transport factory of this binding's 0.3 client. */
export function grpc03Transport(options: GrpcTransportOptions): Grpc03Transport {
  return new Grpc03Transport(options);
}

/** Metadata of a 0.3 call: `headers` layered in order, extensions under their 0.3 key. */
function metadata03(...layers: (Readonly<Record<string, string>> | undefined)[]): Metadata {
  const metadata = new Metadata();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      const key = name.toLowerCase();
      metadata.set(key === EXTENSIONS_KEY ? V03_EXTENSIONS_KEY : key, value);
    }
  }
  return metadata;
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';
}

/** What a failed 0.3 call means: the trailer's exact error, else the 0.3 reading of the status. */
function failure03(error: unknown, operation: OperationName, context: FailureContext): Error {
  if (
    context.signal?.aborted ||
    !isServiceError(error) ||
    error.metadata?.get(STATUS_DETAILS_KEY).length
  ) {
    return grpcFailure(error, context);
  }
  const code = errorCodeOf03(error.code, operation);
  if (code === undefined) return grpcFailure(error, context);
  return new A2AError(code, error.details || undefined);
}
