/**
 * The GRPC entries of DEFAULT_TRANSPORTS and COMPAT_TRANSPORTS (A2A 0.3): transports that import
 * the gRPC binding on their first call, so @grpc/grpc-js and @grpc/proto-loader stay optional
 * peers of the client. With {@link grpcTransportWith} and {@link grpc03TransportWith} the
 * transports they make also present a client certificate (`tls`).
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

const grpc03Binding = (extra: GrpcExtraOptions): LazyBinding => ({
  load: async () => {
    const { Grpc03Transport } = await import('../bindings/grpc/v03-client.js');
    return (options) => new Grpc03Transport({ ...options, ...extra });
  },
  missing: { ...GRPC_BINDING.missing, feature: 'Calling A2A 0.3 gRPC interfaces' },
});

const GRPC03_BINDING = grpc03Binding({});

/** A 0.3 gRPC transport loaded on first use (the 1.0 API over `a2a.v1.A2AService`). */
export class LazyGrpc03Transport extends LazyTransport {
  /** The protocol version this transport speaks. */
  readonly protocolVersion = '0.3';

  constructor(options: TransportOptions, binding: LazyBinding = GRPC03_BINDING) {
    super('GRPC', binding, options);
  }
}

/** The transport factory of {@link LazyGrpc03Transport}. */
export function lazyGrpc03Transport(options: TransportOptions): ClientTransport {
  return new LazyGrpc03Transport(options);
}

/** {@link grpcTransportWith} for 0.3 gRPC interfaces (the GRPC entry of COMPAT_TRANSPORTS['0.3']). */
export function grpc03TransportWith(
  extra: GrpcExtraOptions,
): (options: TransportOptions) => ClientTransport {
  const binding = grpc03Binding(extra);
  return (options) => new LazyGrpc03Transport(options, binding);
}
