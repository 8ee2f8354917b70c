/**
 * The NATS entry of DEFAULT_TRANSPORTS: a transport that imports the NATS binding on its first
 * call, so @nats-io/transport-node stays an optional peer of the client.
 */
import { NATS_BINDING } from '../bindings/nats/wire.js';
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

/** A NATS transport loaded on first use; a clear error when the NATS client is missing. */
export class LazyNatsTransport extends BaseTransport {
  readonly binding = NATS_BINDING;
  readonly url: string;
  private loading: Promise<ClientTransport> | undefined;
  private loaded: ClientTransport | undefined;
  private closed = false;

  constructor(private readonly options: TransportOptions) {
    super();
    this.url = options.url;
  }

  /** Performs a unary operation over the loaded NATS transport. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): Promise<OperationResult<N>> {
    return (await this.transport()).call(operation, request, options);
  }

  /** Opens a streaming operation over the loaded NATS transport. */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): AsyncGenerator<StreamItem> {
    yield* (await this.transport()).stream(operation, request, options);
  }

  /** Releases the NATS connection, if one was opened. */
  close(): void {
    this.closed = true;
    this.loaded?.close?.();
  }

  private transport(): Promise<ClientTransport> {
    this.loading ??= import('../bindings/nats/client.js').then(
      ({ NatsTransport }) => {
        const transport = new NatsTransport(this.options);
        if (this.closed) transport.close();
        this.loaded = transport;
        return transport;
      },
      (error: unknown) => {
        throw new MissingDependencyError(
          {
            packages: ['@nats-io/transport-node'],
            feature: 'Calling NATS interfaces',
            install: 'npm install @nats-io/transport-node',
          },
          error,
        );
      },
    );
    return this.loading;
  }
}

/** The transport factory of {@link LazyNatsTransport}. */
export function lazyNatsTransport(options: TransportOptions): ClientTransport {
  return new LazyNatsTransport(options);
}
