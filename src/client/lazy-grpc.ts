/**
 * The GRPC entries of DEFAULT_TRANSPORTS and COMPAT_TRANSPORTS (A2A 0.3): transports that import
 * the gRPC binding on their first call, so @grpc/grpc-js and @grpc/proto-loader stay optional
 * peers of the client.
 */
import type { ClientTransport, TransportOptions } from '../transport/transport.js';
import { LazyTransport, type LazyBinding } from './lazy-transport.js';

const GRPC_BINDING: LazyBinding = {
  load: async () => {
    const { GrpcTransport } = await import('../bindings/grpc/client.js');
    return (options) => new GrpcTransport(options);
  },
  missing: {
    packages: ['@grpc/grpc-js', '@grpc/proto-loader'],
    feature: 'Calling gRPC interfaces',
    install: 'npm install @grpc/grpc-js @grpc/proto-loader',
  },
};

/** A gRPC transport loaded on first use; a clear error when the gRPC packages are missing. */
export class LazyGrpcTransport extends LazyTransport {
  constructor(options: TransportOptions) {
    super('GRPC', GRPC_BINDING, options);
  }
}

/** The transport factory of {@link LazyGrpcTransport}. */
export function lazyGrpcTransport(options: TransportOptions): ClientTransport {
  return new LazyGrpcTransport(options);
}

const GRPC03_BINDING: LazyBinding = {
  load: async () => {
    const { Grpc03Transport } = await import('../bindings/grpc/v03-client.js');
    return (options) => new Grpc03Transport(options);
  },
  missing: { ...GRPC_BINDING.missing, feature: 'Calling A2A 0.3 gRPC interfaces' },
};

/** A 0.3 gRPC transport loaded on first use (the 1.0 API over `a2a.v1.A2AService`). */
export class LazyGrpc03Transport extends LazyTransport {
  /** The protocol version this transport speaks. */
  readonly protocolVersion = '0.3';

  constructor(options: TransportOptions) {
    super('GRPC', GRPC03_BINDING, options);
  }
}

/** The transport factory of {@link LazyGrpc03Transport}. */
export function lazyGrpc03Transport(options: TransportOptions): ClientTransport {
  return new LazyGrpc03Transport(options);
}
