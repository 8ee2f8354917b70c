/**
 * The NATS entry of DEFAULT_TRANSPORTS: a transport that imports the NATS binding on its first
 * call, so @nats-io/transport-node stays an optional peer of the client.
 */
import { NATS_BINDING } from '../bindings/nats/wire.js';
import type { ClientTransport, TransportOptions } from '../transport/transport.js';
import { LazyTransport, type LazyBinding } from './lazy-transport.js';

const NATS: LazyBinding = {
  load: async () => {
    const { NatsTransport } = await import('../bindings/nats/client.js');
    return (options) => new NatsTransport(options);
  },
  missing: {
    packages: ['@nats-io/transport-node'],
    feature: 'Calling NATS interfaces',
    install: 'npm install @nats-io/transport-node',
  },
};

/** A NATS transport loaded on first use; a clear error when the NATS client is missing. */
export class LazyNatsTransport extends LazyTransport {
  constructor(options: TransportOptions) {
    super(NATS_BINDING, NATS, options);
  }
}

/** The transport factory of {@link LazyNatsTransport}. */
export function lazyNatsTransport(options: TransportOptions): ClientTransport {
  return new LazyNatsTransport(options);
}
