/**
 * The server span of every A2A operation, as an operation middleware (so on every binding:
 * JSON-RPC, HTTP+JSON, gRPC): kind SERVER, named after the method, continuing the caller's W3C
 * trace context read from the request headers (gRPC: metadata), with the draft convention's
 * attributes (names.ts). The rest of the chain, the agent's execution included, runs inside
 * the span's context. A stream's span ends when the stream ends. Errors set `error.type` to the
 * A2A error code and the span status to ERROR. Also records the request metrics.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { errorCode, paramFacts, resultFacts, type CallFacts } from '../core/call-facts.js';
import type { CallContext } from '../core/call-context.js';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import { isStreamingOperation, type OperationMiddleware } from '../core/middleware.js';
import type { OperationName } from '../core/operations.js';
import type { StreamItem } from '../core/service.js';
import type { Instruments } from './instruments.js';
import { ATTR } from './names.js';
import type { TelemetryRuntime } from './runtime.js';

const NO_HEADERS = { get: () => null };
/** Metric labels of a request. */
export const REQUEST_LABELS = [ATTR.method, ATTR.binding, ATTR.outcome] as const;
const STREAM_LABELS = [ATTR.method] as const;

/** The tracing and metrics middleware of `runtime`. */
export function serverMiddleware(runtime: TelemetryRuntime): OperationMiddleware {
  return async (operation, params, call, next) => {
    const tracer = runtime.tracer();
    const meters = runtime.metrics();
    if (tracer === undefined && meters === undefined) return next();
    const started = performance.now();
    const facts = paramFacts(params);
    const parent = runtime.extract(runtime.active(), call.headers ?? NO_HEADERS);
    const span = tracer?.startSpan(
      operation,
      { kind: SpanKind.SERVER, attributes: startAttributes(operation, params, call, facts) },
      parent,
    );
    const ctx = span ? trace.setSpan(parent, span) : parent;
    const finish = (error: unknown, events?: number) => {
      const outcome = error === undefined ? 'OK' : errorCode(error);
      if (span) end(span, facts, outcome, events);
      if (meters === undefined) return;
      const labels = runtime.labels(
        REQUEST_LABELS,
        operation,
        call.protocolBinding ?? 'unknown',
        outcome,
      );
      meters.serverRequests.add(1, labels);
      meters.serverDuration.record((performance.now() - started) / 1000, labels);
    };
    let result: unknown;
    try {
      result = await runtime.within(ctx, next);
    } catch (error) {
      finish(error);
      throw error;
    }
    if (!isStreamingOperation(operation)) {
      resultFacts(result, facts);
      finish(undefined);
      return result;
    }
    const labels = meters && runtime.labels(STREAM_LABELS, operation);
    return traced(result as AsyncIterable<StreamItem>, facts, finish, meters, labels);
  };
}

async function* traced(
  stream: AsyncIterable<StreamItem>,
  facts: CallFacts,
  finish: (error: unknown, events: number) => void,
  meters: Instruments | undefined,
  labels: Attributes | undefined,
): AsyncIterable<StreamItem> {
  let events = 0;
  let failure: unknown;
  meters?.activeStreams.add(1, labels);
  try {
    for await (const item of stream) {
      events++;
      resultFacts(item.event, facts);
      yield item;
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    meters?.activeStreams.add(-1, labels);
    finish(failure, events);
  }
}

function startAttributes(
  operation: OperationName,
  params: unknown,
  call: CallContext,
  facts: CallFacts,
): Attributes {
  const attributes: Attributes = {
    [ATTR.method]: operation,
    [ATTR.protocolVersion]: PROTOCOL_VERSION,
    [ATTR.binding]: call.protocolBinding ?? 'unknown',
  };
  if (call.tenant) attributes[ATTR.tenant] = call.tenant;
  const messageId = (params as { message?: { messageId?: unknown } } | null)?.message?.messageId;
  if (typeof messageId === 'string') attributes[ATTR.messageId] = messageId;
  if (facts.taskId !== undefined) attributes[ATTR.taskId] = facts.taskId;
  if (facts.contextId !== undefined) attributes[ATTR.conversationId] = facts.contextId;
  return attributes;
}

/** Sets what the call learned (ids, state, outcome) and ends `span`. */
export function end(span: Span, facts: CallFacts, outcome: string, events?: number): void {
  if (facts.taskId !== undefined) span.setAttribute(ATTR.taskId, facts.taskId);
  if (facts.contextId !== undefined) span.setAttribute(ATTR.conversationId, facts.contextId);
  if (facts.state !== undefined) span.setAttribute(ATTR.taskState, facts.state);
  if (events !== undefined) span.setAttribute(ATTR.streamEvents, events);
  if (outcome !== 'OK') {
    span.setAttribute(ATTR.errorType, outcome);
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
  }
  span.end();
}
