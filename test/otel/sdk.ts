/**
 * The real OpenTelemetry SDK for the tests of a2a-kit/otel: a tracer provider exporting to
 * memory, a meter provider read on demand, W3C trace context + baggage propagation and the
 * AsyncLocalStorage context manager (as NodeSDK sets them up), plus helpers to read the span tree.
 */
import {
  SpanKind,
  SpanStatusCode,
  context,
  type Attributes,
  type HrTime,
  type TextMapPropagator,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type TimedEvent,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import { ATTR, SPAN } from '../../src/otel/index.js';

/** A metric reader the test collects from when it wants. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One SDK setup: spans in memory, metrics on demand. */
export function testSdk() {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const propagator: TextMapPropagator = new CompositePropagator({
    propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
  });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    propagator,
    spans: () => exporter.getFinishedSpans(),
    /** Data points of one metric, by name. */
    async points(name: string): Promise<DataPoint<number | Histogram>[]> {
      const { resourceMetrics } = await reader.collect();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name === name) {
            return metric.dataPoints as DataPoint<number | Histogram>[];
          }
        }
      }
      return [];
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
    },
  };
}

/** The parent span id of a finished span ('' for a root). */
export function parentOf(span: ReadableSpan): string {
  return span.parentSpanContext?.spanId ?? '';
}

/**
 * Checks that instance B's bus receive spans of task `taskId` continue the trace of its
 * SendMessage on instance A (trace context across instances through the event bus),
 * each the child of one of A's spans, while B's own SubscribeToTask span stays in B's client
 * trace. Returns A's trace id and span ids, for further checks.
 */
export function expectContinuedOnB(
  sdkA: ReturnType<typeof testSdk>,
  sdkB: ReturnType<typeof testSdk>,
  taskId: string,
): { traceId: string | undefined; idsOnA: Set<string> } {
  const send = sdkA.spans().find((s) => s.name === 'SendMessage' && s.kind === SpanKind.SERVER);
  expect(send).toBeDefined();
  const traceId = send?.spanContext().traceId;
  const idsOnA = new Set(sdkA.spans().map((s) => s.spanContext().spanId));
  const received = sdkB.spans().filter((s) => s.name === SPAN.receive);
  // The artifact and COMPLETED at least (WORKING may precede B's subscription).
  expect(received.length).toBeGreaterThanOrEqual(2);
  for (const r of received) {
    expect(r.kind).toBe(SpanKind.CONSUMER);
    expect(r.spanContext().traceId).toBe(traceId);
    expect(idsOnA.has(parentOf(r))).toBe(true);
    expect(r.attributes[ATTR.taskId]).toBe(taskId);
  }
  const subscribe = sdkB
    .spans()
    .find((s) => s.name === 'SubscribeToTask' && s.kind === SpanKind.SERVER);
  expect(subscribe?.spanContext().traceId).not.toBe(traceId);
  return { traceId, idsOnA };
}

/**
 * An indented text rendering of the span tree of one trace: under each span its child spans and
 * its events (`· name`), in time order.
 */
export function renderTree(
  spans: readonly ReadableSpan[],
  attributes: readonly string[] = [],
): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    const parent = ids.has(parentOf(s)) ? parentOf(s) : '';
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const kinds = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
  const shown = (values: Attributes | undefined) => {
    const list = attributes
      .filter((a) => values?.[a] !== undefined)
      .map((a) => `${a}=${String(values?.[a])}`);
    return list.length ? ' ' + list.join(' ') : '';
  };
  const nanos = (t: HrTime) => t[0] * 1e9 + t[1];
  const lines: string[] = [];
  // A span's events first, then its child spans, each group in its own time order: the SDK
  // stamps a span's start with Date.now() (whole milliseconds) and its events with a precise
  // offset from that start, so an event and a child span less than 1 ms apart do not compare.
  const walk = (id: string, events: readonly TimedEvent[], depth: number) => {
    for (const e of [...events].sort((a, b) => nanos(a.time) - nanos(b.time))) {
      lines.push(`${'  '.repeat(depth)}· ${e.name}${shown(e.attributes)}`);
    }
    const spans = [...(children.get(id) ?? [])].sort(
      (a, b) => nanos(a.startTime) - nanos(b.startTime) || nanos(a.endTime) - nanos(b.endTime),
    );
    for (const s of spans) {
      const error = s.status.code === SpanStatusCode.ERROR ? ' ERROR' : '';
      lines.push(
        `${'  '.repeat(depth)}${s.name} [${kinds[s.kind] ?? s.kind}]${error}${shown(s.attributes)}`,
      );
      walk(s.spanContext().spanId, s.events, depth + 1);
    }
  };
  walk('', [], 0);
  return lines.join('\n');
}
