/**
 * Refused requests: those a binding answers with an error before the operation middleware ran
 * (malformed JSON, a body too large, an unsupported `A2A-Version`, an unknown method or route,
 * params that fail validation, authentication and rate-limit refusals, undecodable gRPC
 * messages), or that a middleware early in the chain refused. Middleware that observes every
 * request (the request log, the server span) takes them through its `refused` member
 * ({@link OperationMiddleware}), so every request is logged and traced exactly once. Each
 * transport reports them at one place: the HTTP router's entry, the gRPC call's failure path,
 * the NATS request's reply.
 */
import type { CallContext } from './call-context.js';
import type { A2AError, InternalErrorReporter } from './errors.js';
import type { OperationName } from './operations.js';

/** One request answered with an error that an observing middleware did not see. */
export interface Refusal {
  /** The operation, when the binding got as far as knowing it (else undefined). */
  readonly operation: OperationName | undefined;
  /** The call as far as it was built: binding, headers, tenant and caller when known. */
  readonly call: CallContext;
  /** What the caller was answered. */
  readonly error: A2AError;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
}

/** Told of the refused requests an observing middleware did not see. */
export type RefusalListener = (refusal: Refusal) => void;

/** Something that may take refusals (an A2AService behind observing middleware). */
export interface RefusalSink {
  readonly refused?: RefusalListener | undefined;
}

/**
 * Tells `sink` (when it listens) of `refusal`. A listener that throws is reported to `onError`,
 * never to the caller, whose answer is already made.
 */
export function reportRefusal(
  sink: RefusalSink,
  refusal: Refusal,
  onError: InternalErrorReporter,
): void {
  try {
    sink.refused?.(refusal);
  } catch (error) {
    try {
      onError(error);
    } catch {
      // A failing reporter must not fail the request either.
    }
  }
}
