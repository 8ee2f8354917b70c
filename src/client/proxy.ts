/**
 * A gateway in front of another agent: an A2AService that forwards each of the 11 operations to
 * an upstream agent through an {@link A2AClient}, so any binding this package serves (JSON-RPC,
 * HTTP+JSON, gRPC) fronts any binding the upstream speaks. Used by `a2a serve --proxy URL` to
 * add authentication, TLS or a binding in front of an agent, or to watch its traffic.
 *
 * Upstream A2A errors pass through unchanged (same code, same details); an upstream that cannot
 * be reached is UNAVAILABLE (spec §3.3.2 leaves transport failures to the binding). Stream events
 * keep the upstream's SSE ids, so a client resuming through the proxy with `Last-Event-ID`
 * resumes the upstream stream (spec §3.1.6).
 */
import type { CallContext } from '../core/call-context.js';
import { A2AError } from '../core/errors.js';
import { OPERATIONS, type OperationName, type StreamingOperationName } from '../core/operations.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import type { A2AService, StreamItem } from '../core/service.js';
import { TransportError } from '../transport/errors.js';
import type { CallOptions, EventStream } from '../transport/transport.js';
import type { A2AClient } from './client.js';

/** Options of {@link proxyService}. */
export interface ProxyOptions {
  /** Per call: extra headers for the upstream (e.g. from the caller's context); default none. */
  headers?: ((call: CallContext) => Record<string, string> | undefined) | undefined;
  /** Sees every forwarded call as it ends (traffic logging); errors thrown here are ignored. */
  onCall?: ((record: ProxyCallRecord) => void) | undefined;
}

/** One forwarded call, as {@link ProxyOptions.onCall} sees it. */
export interface ProxyCallRecord {
  operation: OperationName;
  /** Milliseconds until the reply (unary) or the end of the stream. */
  durationMs: number;
  /** Stream events forwarded (streams only). */
  events?: number;
  /** The A2A error code the caller got, if any. */
  error?: string;
}

type Method = (params: unknown, options?: CallOptions) => Promise<unknown> | EventStream;

/** The upstream's A2A service, reached through `client`. */
export function proxyService(client: A2AClient, options: ProxyOptions = {}): A2AService {
  const callOptions = (call: CallContext, lastEventId?: string): CallOptions => {
    const result: CallOptions = {};
    if (call.signal !== undefined) result.signal = call.signal;
    const headers = options.headers?.(call);
    if (headers !== undefined) result.headers = headers;
    if (lastEventId !== undefined) result.lastEventId = lastEventId;
    return result;
  };
  const method = (name: OperationName): Method => {
    const fn = (client as unknown as Record<string, Method>)[OPERATIONS[name].method];
    if (typeof fn !== 'function')
      throw new A2AError('UNSUPPORTED_OPERATION', `${name} is not forwarded`);
    return fn.bind(client);
  };
  const record = (entry: ProxyCallRecord) => {
    try {
      options.onCall?.(entry);
    } catch {
      // A logging hook never breaks the call it logs.
    }
  };

  return {
    async invoke(name, params, call) {
      const started = performance.now();
      try {
        const result = await method(name)(params, callOptions(call));
        record({ operation: name, durationMs: performance.now() - started });
        return result;
      } catch (error) {
        const a2a = upstreamError(error);
        record({ operation: name, durationMs: performance.now() - started, error: a2a.code });
        throw a2a;
      }
    },
    async stream(name: StreamingOperationName, params, call) {
      const { lastEventId, ...request } = params as Record<string, unknown> & {
        lastEventId?: string;
      };
      const started = performance.now();
      const upstream = method(name)(request, callOptions(call, lastEventId)) as EventStream;
      const iterator = upstream[Symbol.asyncIterator]();
      // The first event settles the opening: an upstream refusal is the caller's refusal.
      let first: IteratorResult<unknown>;
      try {
        first = await iterator.next();
      } catch (error) {
        const a2a = upstreamError(error);
        record({ operation: name, durationMs: performance.now() - started, error: a2a.code });
        throw a2a;
      }
      return forward(first, iterator, upstream, (events, error) =>
        record({
          operation: name,
          durationMs: performance.now() - started,
          events,
          ...(error === undefined ? {} : { error }),
        }),
      );
    },
    agentCard(interfaces: AgentInterface[]): AgentCard {
      // Ours replace the upstream's; its signatures covered the upstream's card, not this one.
      const { signatures: _signatures, ...card } = client.card;
      return { ...card, supportedInterfaces: interfaces };
    },
  };
}

async function* forward(
  first: IteratorResult<unknown>,
  iterator: AsyncIterator<unknown>,
  upstream: EventStream,
  done: (events: number, error?: string) => void,
): AsyncIterable<StreamItem> {
  let events = 0;
  let error: string | undefined;
  try {
    for (let next = first; next.done !== true; next = await iterator.next()) {
      events++;
      const item = { event: next.value } as StreamItem;
      if (upstream.lastEventId !== undefined) item.id = upstream.lastEventId;
      yield item;
    }
  } catch (caught) {
    const a2a = upstreamError(caught);
    error = a2a.code;
    throw a2a;
  } finally {
    await iterator.return?.();
    done(events, error);
  }
}

/** An upstream failure as the A2AError the caller gets. */
function upstreamError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  if (error instanceof TransportError) {
    return new A2AError('UNAVAILABLE', `The upstream agent could not be reached: ${error.message}`);
  }
  return new A2AError('INTERNAL', 'The upstream call failed');
}
