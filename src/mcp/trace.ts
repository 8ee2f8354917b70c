/**
 * Trace context across the bridge (W3C Trace Context; MCP carries it in `_meta.traceparent` /
 * `_meta.tracestate`): read from one side, written to the other, through @opentelemetry/api's
 * propagation API. The API is an optional peer loaded on first use; without it, or without a
 * registered propagator (the API's default is a no-op), nothing is carried and nothing fails.
 */
import type * as OtelModule from '@opentelemetry/api';
import type { Context as OtelContext } from '@opentelemetry/api';
import type { HttpHandler } from '../http/types.js';

type OtelApi = typeof OtelModule;

/** The W3C fields a carrier may hold. */
export type TraceCarrier = Record<string, string>;

let api: Promise<OtelApi | undefined> | undefined;

/** @opentelemetry/api, or undefined when it is not installed. */
function otel(): Promise<OtelApi | undefined> {
  api ??= import('@opentelemetry/api').catch(() => undefined);
  return api;
}

const getter = {
  keys: (carrier: unknown) => Object.keys(carrier as object),
  get: (carrier: unknown, key: string) => {
    const value = (carrier as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * The trace fields of the active context (a span of the caller's own instrumentation, or the
 * context {@link inTraceOf} made active), to send on. Empty when nothing is traced.
 */
export async function outgoingTrace(): Promise<TraceCarrier> {
  const o = await otel();
  if (!o) return {};
  const carrier: TraceCarrier = {};
  o.propagation.inject(o.context.active(), carrier);
  return carrier;
}

/**
 * Runs `run` with the trace context of `meta` (an MCP request's `_meta.traceparent`,
 * `tracestate`, `baggage`) as the active context, so everything it does continues the MCP
 * caller's trace: the spans an instrumented A2AClient opens (a2a-kit/otel's interceptor) are
 * children of the caller's span, and {@link outgoingTrace} sends it on. Without those fields, or
 * without @opentelemetry/api, `run` runs in the context as it is.
 */
export async function inTraceOf<T>(
  meta: Record<string, unknown> | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const fields = traceFieldsOf(meta);
  if (fields['traceparent'] === undefined) return run();
  const o = await otel();
  if (!o) return run();
  return o.context.with(o.propagation.extract(o.context.active(), fields, getter), run);
}

/** Only the W3C fields of `meta` (traceparent, tracestate, baggage), as MCP `_meta` holds them. */
export function traceFieldsOf(meta: Record<string, unknown> | undefined): TraceCarrier {
  const fields: TraceCarrier = {};
  for (const key of ['traceparent', 'tracestate', 'baggage']) {
    const value = meta?.[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

/**
 * Runs an A2A HTTP handler inside the trace context of each request's `traceparent` /
 * `tracestate` headers, so an agent's `execute` (an MCP-backed agent among them) sees it as the
 * active context. Needs a context manager registered with @opentelemetry/api (any OTel SDK
 * registers one); a server with its own tracing middleware does not need this.
 */
export function withTraceContext(handler: HttpHandler): HttpHandler {
  return async (req) => {
    const o = await otel();
    if (!o) return handler(req);
    const carrier: Record<string, string> = {};
    for (const key of ['traceparent', 'tracestate', 'baggage']) {
      const value = req.headers.get(key);
      if (value !== null) carrier[key] = value;
    }
    if (Object.keys(carrier).length === 0) return handler(req);
    const ctx: OtelContext = o.propagation.extract(o.context.active(), carrier, getter);
    return o.context.with(ctx, () => handler(req));
  };
}
