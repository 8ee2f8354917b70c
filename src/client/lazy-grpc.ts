/**
 * The GRPC entry of DEFAULT_TRANSPORTS: a transport that imports the gRPC binding on its first
 * call, so @grpc/grpc-js and @grpc/proto-loader stay optional peers of the client.
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
