/**
 * A transport whose binding is imported on its first call, so the binding's packages stay
 * optional peers of the client; a clear MissingDependencyError names them when they are absent.
 * The gRPC and NATS entries of DEFAULT_TRANSPORTS are two of these (lazy-grpc.ts, lazy-nats.ts).
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

/** What a lazy transport loads, and what to install when it cannot. */
export interface LazyBinding {
  /** Imports the binding: its transport factory (an import failure means missing packages). */
  load(): Promise<(options: TransportOptions) => ClientTransport>;
  /** The packages it needs, the feature they enable, the install command. */
  missing: ConstructorParameters<typeof MissingDependencyError>[0];
}

/** A transport of `binding` loaded on first use. */
export class LazyTransport extends BaseTransport {
  readonly url: string;
  private loading: Promise<ClientTransport> | undefined;
  private loaded: ClientTransport | undefined;
  private closed = false;

  constructor(
    readonly binding: string,
    private readonly lazy: LazyBinding,
    private readonly options: TransportOptions,
  ) {
    super();
    this.url = options.url;
  }

  /** Performs a unary operation over the loaded transport. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): Promise<OperationResult<N>> {
    return (await this.transport()).call(operation, request, options);
  }

  /** Opens a streaming operation over the loaded transport. */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): AsyncGenerator<StreamItem> {
    yield* (await this.transport()).stream(operation, request, options);
  }

  /** Closes the loaded transport (its channel or connection), if one was opened. */
  close(): void {
    this.closed = true;
    this.loaded?.close?.();
  }

  private transport(): Promise<ClientTransport> {
    this.loading ??= this.lazy.load().then(
      (create) => {
        const transport = create(this.options);
        if (this.closed) transport.close?.();
        this.loaded = transport;
        return transport;
      },
      (error: unknown) => {
        throw new MissingDependencyError(this.lazy.missing, error);
      },
    );
    return this.loading;
  }
}
