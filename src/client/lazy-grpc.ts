/**
 * The GRPC entry of DEFAULT_TRANSPORTS: a transport that imports the gRPC binding on its first
 * call, so @grpc/grpc-js and @grpc/proto-loader stay optional peers of the client. With
 * {@link grpcTransportWith} the transports it makes also present a client certificate (`tls`).
 */
import type { ClientTlsPem } from '../transport/client-tls.js';
import type { ClientTransport, TransportOptions } from '../transport/transport.js';
import { LazyTransport, type LazyBinding } from './lazy-transport.js';

/** What the gRPC transport takes beyond {@link TransportOptions}, for every interface. */
export interface GrpcExtraOptions {
  /** PEM texts to present and trust (the `tls` option of the binding's GrpcTransport). */
  readonly tls?: ClientTlsPem | undefined;
}

const grpcBinding = (extra: GrpcExtraOptions): LazyBinding => ({
  load: async () => {
    const { GrpcTransport } = await import('../bindings/grpc/client.js');
    return (options) => new GrpcTransport({ ...options, ...extra });
  },
  missing: {
    packages: ['@grpc/grpc-js', '@grpc/proto-loader'],
    feature: 'Calling gRPC interfaces',
    install: 'npm install @grpc/grpc-js @grpc/proto-loader',
  },
});

const GRPC_BINDING = grpcBinding({});

/** A gRPC transport loaded on first use; a clear error when the gRPC packages are missing. */
export class LazyGrpcTransport extends LazyTransport {
  constructor(options: TransportOptions, binding: LazyBinding = GRPC_BINDING) {
    super('GRPC', binding, options);
  }
}

/** The transport factory of {@link LazyGrpcTransport}. */
export function lazyGrpcTransport(options: TransportOptions): ClientTransport {
  return new LazyGrpcTransport(options);
}

/**
 * A GRPC transport factory whose transports take `extra`, e.g. client certificates:
 * `transports: { ...DEFAULT_TRANSPORTS, GRPC: grpcTransportWith({ tls: { cert, key, ca } }) }`.
 * Loaded on first use like the default one.
 */
export function grpcTransportWith(
  extra: GrpcExtraOptions,
): (options: TransportOptions) => ClientTransport {
  const binding = grpcBinding(extra);
  return (options) => new LazyGrpcTransport(options, binding);
}
