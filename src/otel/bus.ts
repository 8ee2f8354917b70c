/**
 * An event bus whose entries carry the trace context of the write that published them
 * (LogEntry.trace, with the publish time), so that a subscriber on another instance continues
 * the task's trace: each entry received with a trace context is delivered inside an
 * `a2a.bus.receive` span (kind CONSUMER) whose parent is the publisher's span (unless it is
 * delivered synchronously inside the publish, already in that span), and the bus lag
 * (publish to delivery) is measured. A publish opens no span and adds no event (the append it
 * follows is one already, store.ts); its trace context is computed once per context and shared.
 * The distributed buses (PostgreSQL, NATS) carry `trace` across; the in-process bus is left as it is.
 */
import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import type { EventBus, LogEntry, LogListener } from '../stores/types.js';
import { ATTR, SPAN } from './names.js';
import type { TelemetryRuntime } from './runtime.js';

/**
 * `bus` with trace context carried on its entries by `runtime`; the in-process bus as is (it
 * delivers inside the publish, in the publisher's own context, with no lag to measure).
 */
export function tracedBus(runtime: TelemetryRuntime, bus: EventBus): EventBus {
  if (bus instanceof MemoryEventBus) return bus;
  return {
    publish(tenant, taskId, entry) {
      if (runtime.tracer() === undefined || entry.trace !== undefined) {
        return bus.publish(tenant, taskId, entry);
      }
      const active = runtime.active();
      const carried = trace.getSpan(active) && runtime.carrier(active);
      if (carried === undefined) return bus.publish(tenant, taskId, entry);
      return bus.publish(tenant, taskId, { ...entry, trace: carried, publishedAt: Date.now() });
    },
    subscribe(tenant, taskId, listener) {
      return bus.subscribe(tenant, taskId, (entry) => deliver(runtime, taskId, entry, listener));
    },
    close: () => bus.close(),
  };
}

function deliver(
  runtime: TelemetryRuntime,
  taskId: string,
  entry: LogEntry,
  listener: LogListener,
): void {
  const carried = entry.trace;
  if (carried === undefined) return listener(entry);
  const meters = runtime.metrics();
  if (entry.publishedAt !== undefined) {
    meters?.busLag.record(Math.max(0, Date.now() - entry.publishedAt) / 1000);
  }
  const tracer = runtime.tracer();
  // Delivered synchronously inside the publish (the in-process bus): already in that trace.
  if (tracer === undefined || runtime.isActiveCarrier(carried)) return listener(entry);
  const parent = runtime.extract(ROOT_CONTEXT, {
    get: (name) => (Object.hasOwn(carried, name) ? carried[name] : undefined),
  });
  if (trace.getSpanContext(context.active())?.spanId === trace.getSpanContext(parent)?.spanId) {
    return listener(entry);
  }
  const span = tracer.startSpan(
    SPAN.receive,
    { kind: SpanKind.CONSUMER, attributes: { [ATTR.taskId]: taskId, [ATTR.seq]: entry.seq } },
    parent,
  );
  try {
    context.with(trace.setSpan(parent, span), () => listener(entry));
  } finally {
    span.end();
  }
}
