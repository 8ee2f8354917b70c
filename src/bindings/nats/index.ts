/**
 * `a2a-kit/nats`: the NATS custom protocol binding (docs/bindings/nats.md): server, client
 * transport and wire facts. Needs the optional peer `@nats-io/transport-node`.
 */
export { serveNats } from './server.js';
export type { NatsServerHandle, ServeNatsOptions } from './server.js';
export { NatsTransport, natsTransport } from './client.js';
export type { NatsTransportOptions } from './client.js';
export { NATS_BINDING, NATS_HEADERS, natsUrl, parseNatsUrl } from './wire.js';
export type { NatsAddress, NatsMessageKind } from './wire.js';
