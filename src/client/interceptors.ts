/**
 * Hooks around every client call: `before` may change the request, headers and query of each
 * HTTP attempt (retries and stream resumes included, so a refreshed token is picked up);
 * `after` observes the outcome (for streams: each event, then a failure if one ends it); `end`
 * runs once when the whole call is over (a stream: when it ends, fails or its reader stops).
 */
import type { OperationName } from '../core/operations.js';
import type { CallOptions } from '../transport/transport.js';

/** One attempt of a call, as interceptors see and change it. */
export interface ClientCall {
  readonly operation: OperationName;
  /** The ProtoJSON request about to be sent (replace or edit it). */
  request: Record<string, unknown>;
  /** HTTP headers of this attempt. */
  headers: Record<string, string>;
  /** Extra query parameters of this attempt. */
  query: Record<string, string>;
  /** 1 for the first attempt, counting retries, fallbacks and stream resumes. */
  readonly attempt: number;
  /** Binding and URL of the interface used. */
  readonly binding: string;
  readonly url: string;
  /**
   * State shared by every attempt of one call (retries, fallbacks, stream resumes), for
   * interceptors that keep something per call (a tracing span): key it by your own symbol.
   */
  readonly callState: Map<unknown, unknown>;
}

/** What a call produced: a result (for streams: one event) or an error. */
export type CallOutcome =
  | { readonly call: ClientCall; readonly result: unknown }
  | { readonly call: ClientCall; readonly error: unknown };

/** Optional hooks; throwing in `before` fails the call. */
export interface Interceptor {
  before?(call: ClientCall): void | Promise<void>;
  after?(outcome: CallOutcome): void | Promise<void>;
  /**
   * Once per call, when it is over: after the last `after` of a unary call; for a stream when
   * it ended, failed (`error`) or its reader stopped early. `call` is the last attempt (absent
   * when the call failed before any attempt). Errors thrown here are ignored.
   */
  end?(outcome: CallEnd): void;
}

/** How a call ended, for {@link Interceptor.end}. */
export interface CallEnd {
  readonly call: ClientCall | undefined;
  readonly error?: unknown;
}

/** Runs every `end` hook in reverse order; never throws. */
export function runEnd(interceptors: readonly Interceptor[], outcome: CallEnd): void {
  for (let n = interceptors.length - 1; n >= 0; n--) {
    try {
      interceptors[n]?.end?.(outcome);
    } catch {
      // An observer failing must not change the call's outcome.
    }
  }
}

/** Runs every `before` hook in order. */
export async function runBefore(
  interceptors: readonly Interceptor[],
  call: ClientCall,
): Promise<void> {
  for (const i of interceptors) await i.before?.(call);
}

/** Runs every `after` hook in reverse order (the first interceptor wraps the others). */
export async function runAfter(
  interceptors: readonly Interceptor[],
  outcome: CallOutcome,
): Promise<void> {
  for (let n = interceptors.length - 1; n >= 0; n--) await interceptors[n]?.after?.(outcome);
}

/** A fresh {@link ClientCall} for one attempt: copies, so hooks never change the caller's objects. */
export function createCall(
  operation: OperationName,
  request: object,
  options: Pick<CallOptions, 'headers' | 'query'>,
  attempt: number,
  transport: { readonly binding: string; readonly url: string },
  callState: Map<unknown, unknown> = new Map(),
): ClientCall {
  return {
    operation,
    request: { ...request },
    headers: { ...options.headers },
    query: { ...options.query },
    attempt,
    binding: transport.binding,
    url: transport.url,
    callState,
  };
}
