/**
 * A task store with its appends traced and timed: each append is an `a2a.store.append` event on
 * the writer's span while that is open (the operation being served: a send, a CancelTask), else
 * an `a2a.store.append` span of its own (a task running on after its request answered, a
 * recovery), and a latency measurement either way. The push deliveries it enqueues carry the
 * trace context of that span (AppendOptions.trace), so each webhook request continues the
 * task's trace, even when another instance or a restarted process sends it.
 * Tasks reaching a terminal or interrupted state are counted by state. Give the same wrapped
 * store to the server and to the push notifier (their shared outbox is how deliveries are
 * enqueued in the append's own transaction).
 */
import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { StreamResponse } from '../core/schemas/index.js';
import { isSettled } from '../core/task-state.js';
import type { NewDelivery, PushOutbox, StoreFacets, TaskStore } from '../stores/types.js';
import { ATTR, EVENT, SPAN } from './names.js';
import { rejected, type TelemetryRuntime } from './runtime.js';

/** `store` with its appends traced and measured by `runtime`. */
export function tracedStore(runtime: TelemetryRuntime, store: TaskStore): TaskStore {
  const facets = tracedFacets(runtime, store.facets);
  return {
    create: (scope, task, options) => store.create(scope, task, options),
    append(scope, taskId, events, expectedSeq, options) {
      const tracer = runtime.tracer();
      const meters = runtime.metrics();
      if (tracer === undefined && meters === undefined) {
        return store.append(scope, taskId, events, expectedSeq, options);
      }
      const started = performance.now();
      const parent = tracer && runtime.active();
      const writer = parent && trace.getSpan(parent);
      // The writer's span still open (the operation being served): an event on it. Otherwise
      // (a task running on after its request answered, a recovery): a span of its own.
      const span =
        parent !== undefined && writer?.isRecording() !== true
          ? tracer?.startSpan(
              SPAN.append,
              {
                kind: SpanKind.INTERNAL,
                attributes: { [ATTR.taskId]: taskId, [ATTR.appendEvents]: events.length },
              },
              parent,
            )
          : undefined;
      // Only the push deliveries an append enqueues carry its trace context: none, none to make.
      const carried =
        parent !== undefined && options?.push !== undefined
          ? runtime.carrier(span ? trace.setSpan(parent, span) : parent)
          : undefined;
      const state = settledState(events);
      // Settled in a reaction rather than an async function: one promise less per append.
      const settle = (failure: string | undefined) => {
        meters?.appendDuration.record((performance.now() - started) / 1000);
        if (span !== undefined) {
          if (state !== undefined) span.setAttribute(ATTR.taskState, state);
          if (failure !== undefined) span.setAttribute(ATTR.errorType, failure);
          span.end();
        } else if (writer !== undefined) {
          const attributes: Attributes = { [ATTR.appendEvents]: events.length };
          if (state !== undefined) attributes[ATTR.taskState] = state;
          if (failure !== undefined) attributes[ATTR.errorType] = failure;
          writer.addEvent(EVENT.append, attributes);
        }
      };
      const failed = (error: unknown): never => {
        span?.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        settle(error instanceof Error ? error.name : 'Error');
        throw error;
      };
      let appended: Promise<number>;
      try {
        appended = Promise.resolve(
          store.append(
            scope,
            taskId,
            events,
            expectedSeq,
            carried ? { ...options, trace: carried } : options,
          ),
        );
      } catch (error) {
        appended = rejected(error);
      }
      return appended.then((seq) => {
        if (state !== undefined && meters !== undefined) meters.taskOutcomes.get(state).value++;
        settle(undefined);
        return seq;
      }, failed);
    },
    get: (scope, taskId) => store.get(scope, taskId),
    events: (scope, taskId, afterSeq, limit, maxBytes) =>
      store.events(scope, taskId, afterSeq, limit, maxBytes),
    list: (scope, query) => store.list(scope, query),
    findByMessageId: (scope, messageId) => store.findByMessageId(scope, messageId),
    delete: (scope, taskId) => store.delete(scope, taskId),
    close: () => store.close(),
    facets,
  };
}

/** The state a batch leaves the task in, when it is terminal or interrupted. */
function settledState(events: readonly StreamResponse[]): string | undefined {
  let state: string | undefined;
  for (const e of events) {
    if ('statusUpdate' in e) {
      const s = e.statusUpdate.status.state;
      state = isSettled(s) ? s : undefined;
    }
  }
  return state;
}

/** The facets with an outbox whose deliveries carry the active trace context. */
function tracedFacets(
  runtime: TelemetryRuntime,
  facets: StoreFacets | undefined,
): StoreFacets | undefined {
  const outbox = facets?.pushOutbox;
  if (facets === undefined || outbox === undefined) return facets;
  return { ...facets, pushOutbox: tracedOutbox(runtime, outbox) };
}

function tracedOutbox(runtime: TelemetryRuntime, outbox: PushOutbox): PushOutbox {
  return {
    enqueue(deliveries) {
      const carried = runtime.tracer() && runtime.carrier(runtime.active());
      if (carried === undefined) return outbox.enqueue(deliveries);
      return outbox.enqueue(
        deliveries.map((d): NewDelivery => (d.trace ? d : { ...d, trace: carried })),
      );
    },
    claim: (limit, leaseMs) => outbox.claim(limit, leaseMs),
    complete: (ref) => outbox.complete(ref),
    retry: (ref, delayMs, error) => outbox.retry(ref, delayMs, error),
    fail: (ref, error) => outbox.fail(ref, error),
    release: (ref) => outbox.release(ref),
    list: (taskId) => outbox.list(taskId),
  };
}
