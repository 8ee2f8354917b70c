/**
 * The names a2a-kit's telemetry emits, in one place. Spans and their attributes follow the draft
 * OpenTelemetry semantic convention for A2A (open-telemetry/semantic-conventions-genai PR #195,
 * "semconv for a2a protocol", every attribute `development`): `a2a.client` / `a2a.server` spans
 * named after the method, `a2a.method.name`, `a2a.task.id`, `a2a.task.state`,
 * `a2a.protocol.version`, `gen_ai.conversation.id` for the context id. The draft defers metrics
 * and does not cover agent execution, stores, buses or push: those names (`a2a.agent.execute`,
 * `a2a.store.append`, `a2a.push.deliver`, every metric) are a2a-kit's own, under `a2a.`.
 * docs/observability.md lists each with its meaning.
 */

/** Instrumentation scope name of tracers and meters. */
export const SCOPE = 'a2a-kit';

/** Span attributes (draft convention, plus a2a-kit's own marked below). */
export const ATTR = {
  method: 'a2a.method.name',
  protocolVersion: 'a2a.protocol.version',
  /** In the draft's test vectors. */
  binding: 'a2a.protocol.binding',
  tenant: 'a2a.tenant',
  messageId: 'a2a.message.id',
  taskId: 'a2a.task.id',
  taskState: 'a2a.task.state',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  /** a2a-kit: events a stream carried. */
  streamEvents: 'a2a.stream.events',
  /** a2a-kit: push config id and attempt of a delivery. */
  pushConfigId: 'a2a.push.config.id',
  pushAttempt: 'a2a.push.attempt',
  httpStatus: 'http.response.status_code',
  urlFull: 'url.full',
  /** a2a-kit: number of events of a store append. */
  appendEvents: 'a2a.store.events',
  /** a2a-kit: log sequence number of a bus entry. */
  seq: 'a2a.event.seq',
  /** Metrics only: `OK` or the A2A error code. */
  outcome: 'a2a.outcome',
  /** Metrics only: what became of a push attempt (delivered, retried, failed, dropped). */
  pushOutcome: 'a2a.push.outcome',
} as const;

/** Names of the spans a2a-kit opens besides the per-method client and server spans. */
export const SPAN = {
  execute: 'a2a.agent.execute',
  append: 'a2a.store.append',
  receive: 'a2a.bus.receive',
  push: 'a2a.push.deliver',
  /** The SERVER span of a request refused before its method was known (an unknown method). */
  server: 'a2a.server',
} as const;

/**
 * Names of the span events a2a-kit adds to the active span instead of opening a span (a span
 * per append would more than double the spans of a send for little insight).
 */
export const EVENT = {
  /** A store append while the writer's span is open (else it is a span of the same name). */
  append: 'a2a.store.append',
} as const;

/** Metric instrument names (a2a-kit's own; the draft defers metrics). */
export const METRIC = {
  serverRequests: 'a2a.server.requests',
  serverDuration: 'a2a.server.request.duration',
  clientRequests: 'a2a.client.requests',
  clientDuration: 'a2a.client.request.duration',
  activeStreams: 'a2a.server.active_streams',
  activeTasks: 'a2a.server.active_tasks',
  taskOutcomes: 'a2a.task.outcomes',
  pushDeliveries: 'a2a.push.deliveries',
  pushDuration: 'a2a.push.delivery.duration',
  appendDuration: 'a2a.store.append.duration',
  busLag: 'a2a.bus.lag',
} as const;
