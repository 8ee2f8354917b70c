/**
 * The server span and request metrics of a request refused before the operation middleware ran
 * (core/refusal.ts: malformed JSON, an unsupported `A2A-Version`, an unknown method or route,
 * invalid params, an authentication refusal, an undecodable gRPC message): kind SERVER, named
 * after the method when the binding knew it (else `a2a.server`, with no `a2a.method.name`),
 * continuing the caller's trace context, from the request's arrival to its answer, with
 * `error.type` set to the A2A error code and status ERROR. Metrics label an unknown method
 * `_OTHER`.
 */
import { SpanKind, type Attributes } from '@opentelemetry/api';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import type { Refusal, RefusalListener } from '../core/refusal.js';
import { ATTR, SPAN } from './names.js';
import type { TelemetryRuntime } from './runtime.js';
import { end } from './server.js';

const NO_HEADERS = { get: () => null };
/** The `a2a.method.name` metric label of a request whose method is not known. */
export const OTHER_METHOD = '_OTHER';

/** The refusal listener of the server middleware of `runtime`. */
export function refusedTelemetry(runtime: TelemetryRuntime): RefusalListener {
  return (refusal: Refusal) => {
    const tracer = runtime.tracer();
    const meters = runtime.metrics();
    if (tracer === undefined && meters === undefined) return;
    const { operation, call, error, startedAt } = refusal;
    const binding = call.protocolBinding ?? 'unknown';
    if (tracer !== undefined) {
      const parent = runtime.extract(runtime.active(), call.headers ?? NO_HEADERS);
      const attributes: Attributes = {
        [ATTR.protocolVersion]: call.protocolVersion ?? PROTOCOL_VERSION,
        [ATTR.binding]: binding,
      };
      if (operation !== undefined) attributes[ATTR.method] = operation;
      if (call.tenant) attributes[ATTR.tenant] = call.tenant;
      const span = tracer.startSpan(
        operation ?? SPAN.server,
        { kind: SpanKind.SERVER, attributes, startTime: startedAt },
        parent,
      );
      end(span, {}, error.code);
    }
    if (meters !== undefined) {
      const method = operation ?? OTHER_METHOD;
      const tally = meters.serverRequests.get(method, binding, error.code);
      tally.value++;
      meters.serverDuration.record((performance.now() - startedAt) / 1000, tally.attributes);
    }
  };
}
