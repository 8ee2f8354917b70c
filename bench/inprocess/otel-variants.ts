/**
 * The variants of inprocess/otel.ts by name, and what it answers per measurement: a module of
 * their own, so that the scenario reads them without running the measuring process's code.
 */

/** CPU µs per call of each variant, and the spans it exported per call. */
export interface OtelResult {
  variant: string;
  cpuMicros: number;
  spansPerCall: number;
}

/** Variant names the scenario reads. */
export const VARIANT = {
  plain: 'send, no telemetry',
  noSdk: 'send, a2a-kit/otel, no SDK registered',
  batch: 'send, a2a-kit/otel, SDK to memory (BatchSpanProcessor)',
  simple: 'send, a2a-kit/otel, SDK to memory (SimpleSpanProcessor)',
  contextOnly: 'send, no telemetry, AsyncLocalStorage context manager in use',
  floor: "send, no telemetry, plus the SDK's own work for a send's two spans (the bound)",
  tracesOnly: 'send, a2a-kit/otel, tracer provider only (BatchSpanProcessor)',
  metricsOnly: 'send, a2a-kit/otel, meter provider only',
  httpPlain: 'over HTTP: send, no telemetry',
  httpNoSdk: 'over HTTP: send, a2a-kit/otel, no SDK registered',
  httpBatch: 'over HTTP: send, a2a-kit/otel, SDK to memory (BatchSpanProcessor)',
  httpSimple: 'over HTTP: send, a2a-kit/otel, SDK to memory (SimpleSpanProcessor)',
  passThrough: 'middleware alone, pass-through',
  otelMiddleware: 'middleware alone, otel, no SDK registered',
} as const;
