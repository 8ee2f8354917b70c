/**
 * Push deliveries traced and counted: each attempt is an `a2a.push.deliver` span (kind CLIENT)
 * continuing the trace context the delivery was enqueued with (the append of its event, on
 * whatever instance), and the webhook request carries that span's `traceparent`, so the
 * receiver continues the task's trace. Outcomes (delivered, retried, failed, dropped) and
 * attempt durations are measured. Spread the result into createPushNotifier's options (or
 * serve's `push`).
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { DeliveryInstrument, PushDeliveryOutcome } from '../push/worker.js';
import { ATTR, SPAN } from './names.js';
import type { TelemetryRuntime } from './runtime.js';

/** The notifier options that trace and measure deliveries. */
export interface PushTelemetry {
  readonly instrument: DeliveryInstrument;
  readonly onDelivery: (outcome: PushDeliveryOutcome) => void;
}

/** Push tracing and metrics of `runtime`. */
export function pushTelemetry(runtime: TelemetryRuntime): PushTelemetry {
  return {
    async instrument(attempt, send) {
      const tracer = runtime.tracer();
      if (tracer === undefined) return send(attempt.trace ?? {});
      const carried = attempt.trace ?? {};
      const parent = runtime.extract(ROOT_CONTEXT, {
        get: (name) => (Object.hasOwn(carried, name) ? carried[name] : undefined),
      });
      const span = tracer.startSpan(
        SPAN.push,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [ATTR.taskId]: attempt.taskId,
            [ATTR.pushConfigId]: attempt.configId,
            [ATTR.pushAttempt]: attempt.attempt,
            [ATTR.seq]: attempt.seq,
            [ATTR.urlFull]: attempt.url,
          },
        },
        parent,
      );
      try {
        const status = await send(runtime.inject(trace.setSpan(parent, span), {}));
        span.setAttribute(ATTR.httpStatus, status);
        if (status >= 400) {
          span.setAttribute(ATTR.errorType, String(status));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return status;
      } catch (error) {
        span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : 'Error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        throw error;
      } finally {
        span.end();
      }
    },
    onDelivery(outcome) {
      const meters = runtime.metrics();
      if (meters === undefined) return;
      meters.pushDeliveries.add(1, { [ATTR.pushOutcome]: outcome.outcome });
      if (outcome.outcome !== 'dropped') meters.pushDuration.record(outcome.durationMs / 1000);
    },
  };
}
