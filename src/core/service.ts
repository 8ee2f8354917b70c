/**
 * What the bindings need from the server (A2AServer implements it), and the one event type of a
 * server stream.
 */
import type { CallContext } from './call-context.js';
import type { OperationName, StreamingOperationName } from './operations.js';
import type { RefusalListener } from './refusal.js';
import type {
  AgentCard,
  AgentInterface,
  StreamResponse,
  SubscribeToTaskRequest,
} from './schemas/index.js';

/**
 * One event of a stream with its id, on both sides: the server's `id` (the log sequence number)
 * becomes the SSE `id:` line; the client's is the one the event arrived with (on gRPC, derived
 * from the stream's first event id: core/event-cursor.ts).
 */
export interface StreamItem {
  id?: string | undefined;
  event: StreamResponse;
}

/** The older protocol versions a server can serve next to 1.0 (its `compat` option). */
export type CompatVersion = '0.3';

/** Every {@link CompatVersion}, to check a `compat` option against. */
export const COMPAT_VERSIONS: readonly CompatVersion[] = ['0.3'];

/**
 * Unary and streaming dispatch by spec operation name, and the public card for a set of
 * interfaces. Params are validated.
 */
export interface A2AService {
  invoke(name: OperationName, params: unknown, call: CallContext): Promise<unknown>;
  stream(
    name: StreamingOperationName,
    params: unknown,
    call: CallContext,
  ): Promise<AsyncIterable<StreamItem>>;
  agentCard(interfaces: AgentInterface[]): AgentCard;
  /**
   * The older versions served next to 1.0 (A2AServer's `compat` option): the HTTP handler and
   * the gRPC server built on this service serve them unless told otherwise. Default none.
   */
  readonly compat?: readonly CompatVersion[] | undefined;
  /**
   * Takes the requests a binding answered with an error before calling this service (set by
   * {@link withMiddleware} when a middleware observes them; core/refusal.ts). Bindings call it
   * through `reportRefusal`.
   */
  readonly refused?: RefusalListener | undefined;
}

/**
 * SubscribeToTask's parameters as the server receives them: the request, plus the id of the last
 * event the client saw when it reconnects (SSE `Last-Event-ID`, gRPC `last-event-id` metadata).
 */
export type SubscribeToTaskParams = SubscribeToTaskRequest & {
  lastEventId?: string | undefined;
};
