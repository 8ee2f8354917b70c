/**
 * The operation middleware seam: functions run around every A2A operation on every binding
 * (JSON-RPC, HTTP+JSON, gRPC), after the binding validated the request and before the server
 * runs it. Access control is one; logging, rate limits and custom authorization are others.
 */
import type { CallContext } from './call-context.js';
import type { OperationName, StreamingOperationName } from './operations.js';
import type { Refusal, RefusalListener } from './refusal.js';
import type { A2AService, StreamItem } from './service.js';

/**
 * One middleware: look at (or replace) the validated `params`, refuse by throwing an A2AError,
 * or call `next` and return (or wrap) its result. For the streaming operations
 * (`SendStreamingMessage`, `SubscribeToTask`) `next` resolves to an
 * `AsyncIterable<StreamItem>` — the stream is open then; its events follow as it is read.
 * `next()` without an argument passes `params` on unchanged.
 *
 * A middleware that observes every request (a request log, tracing) also sets `refused`: it is
 * then told of each request answered with an error that it did not see (refused by the binding
 * before the middleware ran, or by a middleware before it), once per request (core/refusal.ts).
 */
export type OperationMiddleware = ((
  operation: OperationName,
  params: unknown,
  call: CallContext,
  next: (params?: unknown) => Promise<unknown>,
) => Promise<unknown>) & { readonly refused?: RefusalListener | undefined };

/** True for the two operations whose result is a stream of {@link StreamItem}s. */
export function isStreamingOperation(name: OperationName): name is StreamingOperationName {
  return name === 'SendStreamingMessage' || name === 'SubscribeToTask';
}

/**
 * `service` with `middleware` around each operation, the first outermost. No middleware gives
 * `service` itself, so an agent without hooks pays nothing. The result's `refused` (present
 * when a layer, or `service`, has one) passes a refusal to each observing layer that did not
 * see its call, then to `service`.
 */
export function withMiddleware(
  service: A2AService,
  middleware: readonly OperationMiddleware[],
): A2AService {
  if (middleware.length === 0) return service;
  const chain = [...middleware];
  // The calls each observing layer saw: a refusal goes to the layers that did not.
  const seen = chain.map((layer) =>
    layer.refused === undefined ? undefined : new WeakSet<CallContext>(),
  );
  const only = chain.length === 1 ? chain[0] : undefined;
  function run(
    name: OperationName,
    params: unknown,
    call: CallContext,
    last: (params: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    // One layer (the access control alone, the common case): no step closures.
    if (only !== undefined) {
      seen[0]?.add(call);
      return only(name, params, call, (next) => last(next === undefined ? params : next));
    }
    const step = (index: number, current: unknown): Promise<unknown> => {
      const layer = chain[index];
      if (layer === undefined) return last(current);
      seen[index]?.add(call);
      return layer(name, current, call, (next) =>
        step(index + 1, next === undefined ? current : next),
      );
    };
    return step(0, params);
  }
  const observed = seen.some((s) => s !== undefined) || service.refused !== undefined;
  const refused = (refusal: Refusal): void => {
    chain.forEach((layer, i) => {
      if (seen[i]?.has(refusal.call) === false) layer.refused?.(refusal);
    });
    service.refused?.(refusal);
  };
  return {
    invoke: (name, params, call) => run(name, params, call, (p) => service.invoke(name, p, call)),
    stream: (name, params, call) =>
      run(name, params, call, (p) => service.stream(name, p, call)) as Promise<
        AsyncIterable<StreamItem>
      >,
    agentCard: (interfaces) => service.agentCard(interfaces),
    compat: service.compat,
    ...(observed ? { refused } : {}),
  };
}
