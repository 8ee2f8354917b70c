/**
 * The GRPC entry of DEFAULT_TRANSPORTS: a transport that imports the gRPC binding on its first
 * call, so @grpc/grpc-js and @grpc/proto-loader stay optional peers of the client.
 */
import { MissingDependencyError } from '../core/missing-dependency.js';
import type { OperationParams, StreamingOperationName } from '../core/operations.js';
import {
  BaseTransport,
  type CallOptions,
  type ClientTransport,
  type OperationResult,
  type StreamItem,
  type TransportOptions,
  type UnaryOperationName,
} from '../transport/transport.js';

/** The `protocolBinding` of gRPC interfaces. */
const GRPC = 'GRPC';

/** A gRPC transport loaded on first use; a clear error when the gRPC packages are missing. */
export class LazyGrpcTransport extends BaseTransport {
  readonly binding = GRPC;
  readonly url: string;
  private loading: Promise<ClientTransport> | undefined;
  private loaded: ClientTransport | undefined;
  private closed = false;

  constructor(private readonly options: TransportOptions) {
    super();
    this.url = options.url;
  }

  /** Performs a unary operation over the loaded gRPC transport. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): Promise<OperationResult<N>> {
    return (await this.transport()).call(operation, request, options);
  }

  /** Opens a server-streaming operation over the loaded gRPC transport. */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): AsyncGenerator<StreamItem> {
    yield* (await this.transport()).stream(operation, request, options);
  }

  /** Closes the channel, if one was opened. */
  close(): void {
    this.closed = true;
    this.loaded?.close?.();
  }

  private transport(): Promise<ClientTransport> {
    this.loading ??= import('../bindings/grpc/client.js').then(
      ({ GrpcTransport }) => {
        const transport = new GrpcTransport(this.options);
        if (this.closed) transport.close();
        this.loaded = transport;
        return transport;
      },
      (error: unknown) => {
        throw new MissingDependencyError(
          {
            packages: ['@grpc/grpc-js', '@grpc/proto-loader'],
            feature: 'Calling gRPC interfaces',
            install: 'npm install @grpc/grpc-js @grpc/proto-loader',
          },
          error,
        );
      },
    );
    return this.loading;
  }
}

/** The transport factory of {@link LazyGrpcTransport}. */
export function lazyGrpcTransport(options: TransportOptions): ClientTransport {
  return new LazyGrpcTransport(options);
}
