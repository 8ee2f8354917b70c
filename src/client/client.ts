/**
 * A2AClient: connect to an agent from its card and call every spec operation. Picks the
 * interface (spec §8.3.2), falls back to the next one when the first cannot be reached (§5.2),
 * retries safe calls, resumes dropped streams, runs interceptors around every attempt.
 */
import { A2AError } from '../core/errors.js';
import type { OperationParams, StreamingOperationName } from '../core/operations.js';
import type {
  AgentCard,
  AgentInterface,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '../core/schemas/index.js';
import { verifyAgentCard, type VerifyAgentCardOptions } from '../security/card-signing.js';
import { AgentCardResolver, parseAgentCard, sharedCardResolver } from './card-resolver.js';
import {
  createCall,
  runAfter,
  runBefore,
  runEnd,
  type ClientCall,
  type Interceptor,
} from './interceptors.js';
import { withRetry, type RetryEnvironment, type RetryOptions } from './retry.js';
import { InterfacePool, type TransportFactory } from './interface-pool.js';
import {
  COMPAT_TRANSPORTS,
  DEFAULT_BINDINGS,
  DEFAULT_PROTOCOL_VERSIONS,
  DEFAULT_TRANSPORTS,
} from './default-transports.js';
import { resumableStream, type ResumeNotice } from './stream-resume.js';
import {
  DEFAULT_TIMEOUT_MS,
  eventStream,
  type CallOptions,
  type ClientTransport,
  type EventStream,
  type OperationResult,
  type StreamItem,
  type UnaryOperationName,
} from '../transport/transport.js';
import { SAFE_OPERATIONS, unsupportedByCard } from './policy.js';
import { deadlineError, taskIdOf } from './deadline.js';
import { isTransportError } from '../transport/errors.js';
import { withFields } from '../core/with-fields.js';

export type { TransportFactory } from './interface-pool.js';

/** Options of {@link A2AClient.connect}. */
export interface A2AClientOptions extends RetryEnvironment {
  /**
   * Bindings to consider, in no particular order (default: every key of `transports` when given,
   * else {@link DEFAULT_BINDINGS}).
   */
  bindings?: readonly string[] | undefined;
  /** Use only this binding. */
  preferredBinding?: string | undefined;
  /** Transport factories by binding (default {@link DEFAULT_TRANSPORTS}). */
  transports?: Readonly<Record<string, TransportFactory>> | undefined;
  /**
   * Protocol versions to use, preferred first (default `['1.0', '0.3']`): when a card offers an
   * interface at both, the first listed wins; `['1.0']` never talks 0.3, `['0.3', '1.0']`
   * prefers it. The API and results are 1.0 shapes either way (docs/interop.md).
   */
  protocolVersions?: readonly string[] | undefined;
  /** Transport factories of the versions other than 1.0 (default {@link COMPAT_TRANSPORTS}). */
  compatTransports?:
    Readonly<Record<string, Readonly<Record<string, TransportFactory>>>> | undefined;
  /** Overrides the interface tenant (normally copied from the card, spec §8.3.2). */
  tenant?: string | undefined;
  /** Headers sent on every call (and on the card request). */
  headers?: Record<string, string> | undefined;
  interceptors?: readonly Interceptor[] | undefined;
  /**
   * Unary calls: the whole call, retries and the waits between them included (default 30 s).
   * Streams: the wait for the response headers.
   */
  timeoutMs?: number | undefined;
  /** Streams: longest silence before the stream counts as dropped (default 120 s). */
  idleTimeoutMs?: number | undefined;
  /** Largest SSE event accepted, in bytes (default 4 MiB). */
  maxEventBytes?: number | undefined;
  /**
   * Largest unary reply body accepted, in bytes, after decoding (default 64 MiB): a larger one
   * is refused with a TransportError (BAD_RESPONSE) before it is all read.
   */
  maxReplyBytes?: number | undefined;
  /** Retries of safe calls (reads, SendMessage); `{ maxAttempts: 1 }` disables them. */
  retries?: RetryOptions | undefined;
  /** Automatic stream resumption; `false` disables it. */
  resume?: RetryOptions | false | undefined;
  /** Check the card's capabilities before optional operations (default true, requirement (test/conformance/requirements.ts) [26]). */
  checkCapabilities?: boolean | undefined;
  onRetry?:
    | ((notice: { operation: string; attempt: number; delayMs: number; error: unknown }) => void)
    | undefined;
  onResume?: ((notice: ResumeNotice) => void) | undefined;
  /** Where cards come from (default: the process-wide shared resolver). */
  cardResolver?: AgentCardResolver | undefined;
  fetch?: typeof fetch | undefined;
  /** Aborts connecting. */
  signal?: AbortSignal | undefined;
  /**
   * Verify the card's signatures before using it (spec §8.4.3) with these trusted keys (`keys`,
   * `jwksUrl` or `trustJku`). Fails closed: an unsigned or altered card throws CardSignatureError.
   */
  verifyCard?: VerifyAgentCardOptions | undefined;
}

/**
 * Where `connect` fetches the card: the shared resolver, or with a `fetch` of its own a resolver
 * using that fetch (the card comes over the same network as the calls; a fetch may reach agents
 * the global one cannot, e.g. in process, so its cards are not shared).
 */
function resolverFor(fetchImpl: typeof fetch | undefined): AgentCardResolver {
  return fetchImpl === undefined ? sharedCardResolver : new AgentCardResolver({ fetch: fetchImpl });
}

/** A client of one agent. */
export class A2AClient {
  private currentCard: AgentCard;
  private readonly pool: InterfacePool;
  private readonly interceptors: readonly Interceptor[];

  /** Fetches (or takes) the card, validates it and picks the interfaces to use. */
  static async connect(
    urlOrCard: string | URL | AgentCard,
    options: A2AClientOptions = {},
  ): Promise<A2AClient> {
    const trusted = options.verifyCard;
    const verify =
      trusted &&
      (async (raw: unknown) => {
        // Anything but an object is no card, and so no signed card either.
        await verifyAgentCard(typeof raw === 'object' && raw !== null ? raw : {}, trusted);
      });
    if (verify && !(typeof urlOrCard === 'string' || urlOrCard instanceof URL)) {
      await verify(urlOrCard);
    }
    const card =
      typeof urlOrCard === 'string' || urlOrCard instanceof URL
        ? await (options.cardResolver ?? resolverFor(options.fetch)).resolve(urlOrCard, {
            signal: options.signal,
            headers: options.headers,
            verify,
          })
        : parseAgentCard(urlOrCard, 'the given agent card');
    return new A2AClient(card, options);
  }

  /** A client for an already validated card; throws IncompatibleAgentError when nothing matches. */
  constructor(
    card: AgentCard,
    private readonly options: A2AClientOptions = {},
  ) {
    this.currentCard = card;
    const { headers, fetch, timeoutMs, idleTimeoutMs, maxEventBytes, maxReplyBytes } = options;
    this.pool = new InterfacePool(card, {
      transports: options.transports ?? DEFAULT_TRANSPORTS,
      bindings: options.bindings ?? (options.transports ? undefined : DEFAULT_BINDINGS),
      preferredBinding: options.preferredBinding,
      versions: options.protocolVersions ?? DEFAULT_PROTOCOL_VERSIONS,
      versionTransports: options.compatTransports ?? COMPAT_TRANSPORTS,
      tenant: options.tenant,
      transport: { headers, fetch, timeoutMs, idleTimeoutMs, maxEventBytes, maxReplyBytes },
    });
    this.interceptors = options.interceptors ?? [];
  }

  /** The agent card (replaced by the extended card once fetched, spec §3.1.11). */
  get card(): AgentCard {
    return this.currentCard;
  }

  /** The interface in use (the first candidate until a call has confirmed one). */
  get selectedInterface(): AgentInterface {
    return this.pool.selected;
  }

  /** The transport of the interface in use. */
  get transport(): ClientTransport {
    return this.pool.transport;
  }

  /** Releases transports that hold resources (gRPC channels); HTTP transports hold none. */
  close(): void {
    this.pool.close();
  }

  /** SendMessage (spec §3.1.1); retried safely: the server de-duplicates on `messageId`. */
  sendMessage(request: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    return this.unary('SendMessage', request, options);
  }
  /** SendStreamingMessage (spec §3.1.2); a dropped stream resumes by itself. */
  sendStreamingMessage(request: SendMessageRequest, options?: CallOptions): EventStream {
    return this.streaming('SendStreamingMessage', request, options);
  }
  /** GetTask (spec §3.1.3). */
  getTask(request: GetTaskRequest, options?: CallOptions): Promise<Task> {
    return this.unary('GetTask', request, options);
  }
  /** ListTasks (spec §3.1.4). */
  listTasks(request: ListTasksRequest = {}, options?: CallOptions): Promise<ListTasksResponse> {
    return this.unary('ListTasks', request, options);
  }
  /** CancelTask (spec §3.1.5). */
  cancelTask(request: CancelTaskRequest, options?: CallOptions): Promise<Task> {
    return this.unary('CancelTask', request, options);
  }
  /** SubscribeToTask (spec §3.1.6); `options.lastEventId` resumes after an event seen earlier. */
  subscribeToTask(request: SubscribeToTaskRequest, options?: CallOptions): EventStream {
    return this.streaming('SubscribeToTask', request, options);
  }
  /** CreateTaskPushNotificationConfig (spec §3.1.7). */
  createTaskPushNotificationConfig(
    request: TaskPushNotificationConfig,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.unary('CreateTaskPushNotificationConfig', request, options);
  }
  /** GetTaskPushNotificationConfig (spec §3.1.8). */
  getTaskPushNotificationConfig(
    request: GetTaskPushNotificationConfigRequest,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.unary('GetTaskPushNotificationConfig', request, options);
  }
  /** ListTaskPushNotificationConfigs (spec §3.1.9). */
  listTaskPushNotificationConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    options?: CallOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.unary('ListTaskPushNotificationConfigs', request, options);
  }
  /** DeleteTaskPushNotificationConfig (spec §3.1.10). */
  deleteTaskPushNotificationConfig(
    request: DeleteTaskPushNotificationConfigRequest,
    options?: CallOptions,
  ): Promise<Empty> {
    return this.unary('DeleteTaskPushNotificationConfig', request, options);
  }
  /** GetExtendedAgentCard (spec §3.1.11); the result replaces {@link card} for this client. */
  async getExtendedAgentCard(
    request: GetExtendedAgentCardRequest = {},
    options?: CallOptions,
  ): Promise<AgentCard> {
    const card = await this.unary('GetExtendedAgentCard', request, options);
    this.currentCard = card;
    return card;
  }

  private async unary<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    let call: ClientCall | undefined;
    let attempts = 0;
    const callState = new Map<unknown, unknown>();
    // One deadline for the call, retries and the waits between them included.
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const started = Date.now();
    const deadline = started + timeoutMs;
    try {
      this.checkCapability(operation);
      const result = await withRetry(
        () =>
          this.pool.run(async (t) => {
            call = createCall(operation, request, options, ++attempts, t, callState);
            // No interceptors (the usual case): no hop through an async hook runner.
            if (this.interceptors.length > 0) await runBefore(this.interceptors, call);
            const callOptions = withFields(options, {
              headers: call.headers,
              query: call.query,
              timeoutMs: Math.max(1, deadline - Date.now()),
            });
            return t.call(operation, call.request as OperationParams<N>, callOptions);
          }),
        {
          policy: SAFE_OPERATIONS.has(operation) ? this.options.retries : { maxAttempts: 1 },
          signal: options.signal,
          deadline,
          random: this.options.random,
          sleep: this.options.sleep,
          onRetry: (n) => this.options.onRetry?.({ operation, ...n }),
        },
      );
      if (call && this.interceptors.length > 0) await runAfter(this.interceptors, { call, result });
      runEnd(this.interceptors, { call });
      return result;
    } catch (caught) {
      const error = isTransportError(caught, 'TIMEOUT')
        ? deadlineError({
            operation,
            url: caught.url ?? this.pool.selected.url,
            timeoutMs,
            elapsedMs: Date.now() - started,
            attempts,
            taskId: taskIdOf(operation, request),
            cause: caught,
          })
        : caught;
      if (call) await runAfter(this.interceptors, { call, error });
      runEnd(this.interceptors, { call, error });
      throw error;
    }
  }

  private streaming<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): EventStream {
    const state = {
      call: undefined as ClientCall | undefined,
      attempts: 0,
      callState: new Map<unknown, unknown>(),
    };
    const open = (op: StreamingOperationName, req: object, opts: CallOptions) =>
      this.openStream(op, req, opts, state);
    const resume = this.options.resume;
    const items: AsyncIterable<StreamItem> =
      resume === false
        ? open(operation, request, options)
        : resumableStream({
            open: () => open(operation, request, options),
            resubscribe: (id, lastEventId) =>
              open('SubscribeToTask', { id }, withFields(options, { lastEventId })),
            getTask: (id) =>
              this.unary(
                'GetTask',
                { id },
                { signal: options.signal, timeoutMs: options.timeoutMs },
              ),
            policy: resume,
            stopWhenSettled: operation === 'SendStreamingMessage',
            followUp:
              operation === 'SendStreamingMessage' &&
              Boolean((request as OperationParams<'SendStreamingMessage'>).message.taskId),
            lastEventId: options.lastEventId,
            signal: options.signal,
            random: this.options.random,
            sleep: this.options.sleep,
            onResume: this.options.onResume,
          });
    const interceptors = this.interceptors;
    const checkCapability = () => this.checkCapability(operation);
    return eventStream(
      (async function* observed() {
        let failure: { error: unknown } | undefined;
        try {
          checkCapability();
          for await (const item of items) {
            if (state.call) await runAfter(interceptors, { call: state.call, result: item.event });
            yield item;
          }
        } catch (error) {
          failure = { error };
          if (state.call) await runAfter(interceptors, { call: state.call, error });
          throw error;
        } finally {
          runEnd(interceptors, { call: state.call, ...failure });
        }
      })(),
    );
  }

  /** One stream attempt (interceptors run first), through the interface pool. */
  private openStream(
    operation: StreamingOperationName,
    request: object,
    options: CallOptions,
    state: { call: ClientCall | undefined; attempts: number; callState: Map<unknown, unknown> },
  ): AsyncIterable<StreamItem> {
    const interceptors = this.interceptors;
    return this.pool.stream(async function* attempt(t) {
      const call = createCall(operation, request, options, ++state.attempts, t, state.callState);
      state.call = call;
      await runBefore(interceptors, call);
      const callOptions = withFields(options, { headers: call.headers, query: call.query });
      yield* t.stream(operation, call.request as OperationParams<typeof operation>, callOptions);
    });
  }

  private checkCapability(operation: UnaryOperationName | StreamingOperationName): void {
    if (this.options.checkCapabilities === false) return;
    const refusal = unsupportedByCard(this.currentCard, operation);
    if (refusal) throw new A2AError(refusal.code, refusal.message);
  }
}
