/**
 * The transports A2AClient speaks out of the box, assembled in one place so the client itself
 * depends on the transport contract only: JSON-RPC and HTTP+JSON over fetch, and gRPC and NATS
 * loaded on first use (their packages are optional peers).
 */
import { JsonRpcTransport } from '../bindings/jsonrpc/client.js';
import { RestTransport } from '../bindings/rest/client.js';
import { JsonRpc03Transport } from '../bindings/v03/jsonrpc-client.js';
import { Rest03Transport } from '../bindings/v03/rest-client.js';
import type { TransportFactory } from './interface-pool.js';
import { lazyGrpc03Transport, lazyGrpcTransport } from './lazy-grpc.js';
import { NATS_BINDING } from '../bindings/nats/wire.js';
import { lazyNatsTransport } from './lazy-nats.js';

/**
 * The bindings this client speaks out of the box. GRPC and NATS load their binding on first use,
 * so they are not among {@link DEFAULT_BINDINGS}: ask for them with `bindings` or
 * `preferredBinding`.
 */
export const DEFAULT_TRANSPORTS: Readonly<Record<string, TransportFactory>> = {
  JSONRPC: (options) => new JsonRpcTransport(options),
  'HTTP+JSON': (options) => new RestTransport(options),
  GRPC: lazyGrpcTransport,
  // The NATS custom binding (docs/bindings/nats.md), opt-in like gRPC.
  [NATS_BINDING]: lazyNatsTransport,
};

/**
 * The bindings considered when neither `bindings` nor `transports` is given: the two that need
 * nothing beyond fetch. A card whose only usable interface is gRPC needs `bindings` or
 * `preferredBinding` to include GRPC, so a missing optional package is never a surprise.
 */
export const DEFAULT_BINDINGS: readonly string[] = ['JSONRPC', 'HTTP+JSON'];

/**
 * The transports of older protocol versions, by version and binding: A2A 0.3 over JSON-RPC,
 * HTTP+JSON and gRPC (loaded on first use, like 1.0's; docs/interop.md). The caller sees 1.0
 * shapes either way.
 */
export const COMPAT_TRANSPORTS: Readonly<
  Record<string, Readonly<Record<string, TransportFactory>>>
> = {
  '0.3': {
    JSONRPC: (options) => new JsonRpc03Transport(options),
    'HTTP+JSON': (options) => new Rest03Transport(options),
    GRPC: lazyGrpc03Transport,
  },
};

/** The protocol versions a client considers by default, preferred first. */
export const DEFAULT_PROTOCOL_VERSIONS: readonly string[] = ['1.0', '0.3'];
