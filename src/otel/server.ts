/**
 * The server span of every A2A operation, as an operation middleware (so on every binding:
 * JSON-RPC, HTTP+JSON, gRPC): kind SERVER, named after the method, continuing the caller's W3C
 * trace context read from the request headers (gRPC: metadata), with the draft convention's
 * attributes (names.ts). The rest of the chain, the agent's execution included, runs inside
 * the span's context. A stream's span ends when the stream ends. Errors set `error.type` to the
 * A2A error code and the span status to ERROR. Also records the request metrics.
 */
import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { errorCode, paramFacts, resultFacts, type CallFacts } from '../core/call-facts.js';
import type { CallContext } from '../core/call-context.js';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import { isStreamingOperation, type OperationMiddleware } from '../core/middleware.js';
import type { OperationName } from '../core/operations.js';
import type { StreamItem } from '../core/service.js';
import type { Instruments, Tally } from './instruments.js';
import { ATTR } from './names.js';
import type { TelemetryRuntime } from './runtime.js';

const NO_HEADERS = { get: () => null };

/**
 * The tracing and metrics middleware of `runtime`. With nothing registered it hands `next()`'s
 * own promise back (a plain function: an async one would add its promise and two hops).
 */
export function serverMiddleware(runtime: TelemetryRuntime): OperationMiddleware {
  return (operation, params, call, next) => {
    const tracer = runtime.tracer();
    const meters = runtime.metrics();
    if (tracer === undefined && meters === undefined) return next();
    return observed(runtime, tracer, meters, operation, params, call, next);
  };
}

async function observed(
  runtime: TelemetryRuntime,
  tracer: Tracer | undefined,
  meters: Instruments | undefined,
  operation: OperationName,
  params: unknown,
  call: CallContext,
  next: () => Promise<unknown>,
): Promise<unknown> {
  const started = performance.now();
  const facts = paramFacts(params);
  let span: Span | undefined;
  let result: unknown;
  const finish = (error: unknown, events?: number) => {
    const outcome = error === undefined ? 'OK' : errorCode(error);
    if (span) end(span, facts, outcome, events);
    if (meters === undefined) return;
    const tally = meters.serverRequests.get(operation, call.protocolBinding ?? 'unknown', outcome);
    tally.value++;
    meters.serverDuration.record((performance.now() - started) / 1000, tally.attributes);
  };
  try {
    if (tracer === undefined) {
      result = await next(); // metrics only: no span, no context to carry
    } else {
      const parent = runtime.extract(runtime.active(), call.headers ?? NO_HEADERS);
      span = tracer.startSpan(
        operation,
        { kind: SpanKind.SERVER, attributes: startAttributes(operation, params, call, facts) },
        parent,
      );
      result = await runtime.within(trace.setSpan(parent, span), next);
    }
  } catch (error) {
    finish(error);
    throw error;
  }
  if (!isStreamingOperation(operation)) {
    resultFacts(result, facts);
    finish(undefined);
    return result;
  }
  const streams = meters?.activeStreams.get(operation);
  return traced(result as AsyncIterable<StreamItem>, facts, finish, streams);
}

async function* traced(
  stream: AsyncIterable<StreamItem>,
  facts: CallFacts,
  finish: (error: unknown, events: number) => void,
  streams: Tally | undefined,
): AsyncIterable<StreamItem> {
  let events = 0;
  let failure: unknown;
  if (streams) streams.value++;
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
    if (streams) streams.value--;
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
