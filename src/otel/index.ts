/**
 * `a2a-kit/otel`: OpenTelemetry traces and metrics for a2a-kit servers and clients, through
 * `@opentelemetry/api` only (an optional peer: install it, and an SDK of your choice). With no
 * SDK registered every piece falls through to the plain path. See docs/observability.md.
 *
 * ```ts
 * const otel = a2aTelemetry();
 * await serve(otel.agent(agent), {
 *   middleware: [otel.middleware], store: otel.store(store), bus: otel.bus(bus), push: { ...otel.push },
 * });
 * const client = await A2AClient.connect(url, { interceptors: [otel.interceptor] });
 * ```
 */
import type { OperationMiddleware } from '../core/middleware.js';
import type { Interceptor } from '../client/interceptors.js';
import type { Agent } from '../server/agent.js';
import type { EventBus, TaskStore } from '../stores/types.js';
import { tracedAgent } from './agent.js';
import { tracedBus } from './bus.js';
import { clientInterceptor } from './client.js';
import { pushTelemetry, type PushTelemetry } from './push.js';
import { TelemetryRuntime, type TelemetryProviders } from './runtime.js';
import { refusedTelemetry } from './refused.js';
import { serverMiddleware } from './server.js';
import { tracedStore } from './store.js';

export { ATTR, EVENT, METRIC, SCOPE, SPAN } from './names.js';
export type { PushTelemetry } from './push.js';
export type { TelemetryProviders } from './runtime.js';

/** Every instrumented seam of one telemetry setup. */
export interface A2ATelemetry {
  /** Server span and request metrics per request, on every binding (refused ones too). */
  readonly middleware: OperationMiddleware;
  /** Client span, trace context propagation and call metrics per call. */
  readonly interceptor: Interceptor;
  /** The agent with each execution a child span. */
  agent(agent: Agent): Agent;
  /** The store with traced appends, trace context on push deliveries, task outcomes. */
  store(store: TaskStore): TaskStore;
  /** The bus with trace context on its entries (cross-instance continuation, bus lag). */
  bus(bus: EventBus): EventBus;
  /** Push notifier options: delivery spans with `traceparent`, delivery metrics. */
  readonly push: PushTelemetry;
}

/** Builds the instrumentation of every seam, on the given or the global providers. */
export function a2aTelemetry(options: TelemetryProviders = {}): A2ATelemetry {
  const runtime = new TelemetryRuntime(options);
  return {
    // Requests refused before the middleware ran get their span too (core/refusal.ts).
    middleware: Object.assign(serverMiddleware(runtime), { refused: refusedTelemetry(runtime) }),
    interceptor: clientInterceptor(runtime),
    agent: (agent) => tracedAgent(runtime, agent),
    store: (store) => tracedStore(runtime, store),
    bus: (bus) => tracedBus(runtime, bus),
    push: pushTelemetry(runtime),
  };
}
