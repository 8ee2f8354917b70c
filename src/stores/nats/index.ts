/**
 * `a2a-kit/stores/nats`: the NATS JetStream event bus (live fan-out between server instances,
 * replay from a sequence), the push sink for `nats://subject` configs, and the connection helpers. Needs the optional peers
 * `@nats-io/transport-node` and `@nats-io/jetstream`.
 */
export { NatsEventBus } from './event-bus.js';
export type { NatsEventBusOptions } from './event-bus.js';
export { natsPushSink, pushSubject } from './push-sink.js';
export type { NatsPushSink, NatsPushSinkOptions } from './push-sink.js';
export { DEFAULT_NATS_URL, openNats, subjectToken } from './connection.js';
export type { NatsConnectionOptions, OpenedNats } from './connection.js';
