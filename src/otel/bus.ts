/**
 * An event bus whose entries carry the trace context of the write that published them
 * (LogEntry.trace, with the publish time), so that a subscriber on another instance continues
 * the task's trace: each entry received with a trace context is delivered inside an
 * `a2a.bus.receive` span (kind CONSUMER) whose parent is the publisher's span (unless it is
 * delivered synchronously inside the publish, already in that span), and the bus lag
 * (publish to delivery) is measured. A publish leaves an `a2a.bus.publish` event on the
 * active span (a span per entry would double the spans of a stream for little insight).
 * The distributed buses (PostgreSQL) carry `trace` across; the in-process bus passes it as is.
 */
import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import type { EventBus, LogEntry, LogListener } from '../stores/types.js';
import { ATTR, PUBLISH_EVENT, SPAN } from './names.js';
import type { TelemetryRuntime } from './runtime.js';

/** `bus` with trace context carried on its entries by `runtime`. */
export function tracedBus(runtime: TelemetryRuntime, bus: EventBus): EventBus {
  return {
    publish(tenant, taskId, entry) {
      if (runtime.tracer() === undefined || entry.trace !== undefined) {
        return bus.publish(tenant, taskId, entry);
      }
      const active = runtime.active();
      const span = trace.getSpan(active);
      if (span === undefined) return bus.publish(tenant, taskId, entry);
      span.addEvent(PUBLISH_EVENT, { [ATTR.taskId]: taskId, [ATTR.seq]: entry.seq });
      const carried = runtime.inject(active, {});
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
  if (tracer === undefined) return listener(entry);
  const parent = runtime.extract(ROOT_CONTEXT, {
    get: (name) => (Object.hasOwn(carried, name) ? carried[name] : undefined),
  });
  // Delivered synchronously inside the publish (the in-process bus): already in that trace.
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
