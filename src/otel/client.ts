/**
 * The client span of every A2A call, as a client interceptor: kind CLIENT, named after the
 * method, a child of the active context (so an agent calling another agent from its `execute`
 * continues its own trace), covering retries and, for a stream, the time until it is consumed
 * (draft convention). Every attempt carries the span's W3C trace context in its headers
 * (`traceparent`, `tracestate`, `baggage`; gRPC: metadata), in place of a caller's own trace
 * headers only when those name the same trace. Also records the call metrics.
 */
import { SpanKind, trace, type Attributes, type Span } from '@opentelemetry/api';
import { errorCode, paramFacts, resultFacts, type CallFacts } from '../core/call-facts.js';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import type { ClientCall, Interceptor } from '../client/interceptors.js';
import type { Instruments } from './instruments.js';
import { ATTR } from './names.js';
import type { TelemetryRuntime } from './runtime.js';
import { end } from './server.js';

/** What one call keeps across its attempts (in `ClientCall.callState`). */
interface CallTrace {
  readonly span: Span | undefined;
  readonly carrier: Record<string, string>;
  readonly facts: CallFacts;
  readonly started: number;
  readonly meters: Instruments | undefined;
  events: number;
}

const KEY = Symbol('a2a-kit otel call');

/** The tracing and metrics interceptor of `runtime`. */
export function clientInterceptor(runtime: TelemetryRuntime): Interceptor {
  return {
    before(call) {
      let state = call.callState.get(KEY) as CallTrace | undefined;
      if (state === undefined) {
        const tracer = runtime.tracer();
        const meters = runtime.metrics();
        if (tracer === undefined && meters === undefined) return;
        const facts = paramFacts(call.request);
        const parent = runtime.active();
        const span = tracer?.startSpan(
          call.operation,
          { kind: SpanKind.CLIENT, attributes: startAttributes(call, facts) },
          parent,
        );
        const carrier = runtime.inject(span ? trace.setSpan(parent, span) : parent, {});
        state = { span, carrier, facts, started: performance.now(), meters, events: 0 };
        call.callState.set(KEY, state);
      }
      // Never replaces a header the caller set itself, except trace context of this very trace:
      // a caller that propagated its own context (the MCP bridge, trace.ts there) gets the
      // client span, its descendant, in its place.
      const own = sameTrace(call.headers['traceparent'], state.carrier['traceparent']);
      for (const [name, value] of Object.entries(state.carrier)) {
        if (call.headers[name] === undefined || (own && TRACE_HEADERS.has(name))) {
          call.headers[name] = value;
        }
      }
    },
    after(outcome) {
      const state = outcome.call.callState.get(KEY) as CallTrace | undefined;
      if (state === undefined || !('result' in outcome)) return;
      state.events++;
      resultFacts(outcome.result, state.facts);
    },
    end({ call, error }) {
      const state = call?.callState.get(KEY) as CallTrace | undefined;
      if (state === undefined || call === undefined) return;
      call.callState.delete(KEY);
      const outcome = error === undefined ? 'OK' : errorCode(error);
      const streamed =
        call.operation === 'SendStreamingMessage' || call.operation === 'SubscribeToTask';
      if (state.span) end(state.span, state.facts, outcome, streamed ? state.events : undefined);
      if (state.meters === undefined) return;
      const tally = state.meters.clientRequests.get(call.operation, call.binding, outcome);
      tally.value++;
      state.meters.clientDuration.record(
        (performance.now() - state.started) / 1000,
        tally.attributes,
      );
    },
  };
}

const TRACE_HEADERS = new Set(['traceparent', 'tracestate', 'baggage']);

/** True when two W3C `traceparent` values name the same trace id. */
function sameTrace(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const id = (value: string) => value.trim().split('-')[1];
  return id(a) !== undefined && id(a) === id(b);
}

function startAttributes(call: ClientCall, facts: CallFacts): Attributes {
  const attributes: Attributes = {
    [ATTR.method]: call.operation,
    [ATTR.protocolVersion]: PROTOCOL_VERSION,
    [ATTR.binding]: call.binding,
  };
  const address = hostAndPort(call.url);
  if (address.host) attributes[ATTR.serverAddress] = address.host;
  if (address.port !== undefined) attributes[ATTR.serverPort] = address.port;
  const messageId = (call.request['message'] as { messageId?: unknown } | undefined)?.messageId;
  if (typeof messageId === 'string') attributes[ATTR.messageId] = messageId;
  const tenant = call.request['tenant'];
  if (typeof tenant === 'string' && tenant !== '') attributes[ATTR.tenant] = tenant;
  if (facts.taskId !== undefined) attributes[ATTR.taskId] = facts.taskId;
  if (facts.contextId !== undefined) attributes[ATTR.conversationId] = facts.contextId;
  return attributes;
}

/** Host and port of an interface URL (`http://h:p/…` or gRPC's `h:p`). */
function hostAndPort(url: string): { host?: string; port?: number } {
  try {
    const parsed = new URL(url.includes('://') ? url : `grpc://${url}`);
    const port = parsed.port === '' ? undefined : Number(parsed.port);
    return { host: parsed.hostname, ...(port !== undefined ? { port } : {}) };
  } catch {
    return {};
  }
}
