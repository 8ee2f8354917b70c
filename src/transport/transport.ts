/**
 * The client-side plug-in point: one transport per binding (JSON-RPC, HTTP+JSON, later gRPC).
 * A transport implements two primitives (`call`, `stream`); {@link BaseTransport} derives the
 * per-operation methods from them, so operation names come from the one operation table.
 */
import type { z } from 'zod';
import {
  OPERATIONS,
  type OperationName,
  type OperationParams,
  type StreamingOperationName,
} from '../core/operations.js';
import type { Empty, SendMessageResponse, StreamResponse } from '../core/schemas/index.js';
import type { StreamItem } from '../core/service.js';

/** The operations that answer once (everything but the two streams). */
export type UnaryOperationName = Exclude<OperationName, StreamingOperationName>;

/** The validated result of a unary operation. */
export type OperationResult<N extends UnaryOperationName> = N extends 'SendMessage'
  ? SendMessageResponse
  : N extends 'DeleteTaskPushNotificationConfig'
    ? Empty
    : z.output<(typeof OPERATIONS)[N]['result']>;

/** Per-call options every operation accepts. */
export interface CallOptions {
  /** Aborts the call (a {@link TransportError} `ABORTED`). Never cancels the task (spec §3.5.2). */
  signal?: AbortSignal | undefined;
  /**
   * Unary: limit for the whole exchange (through A2AClient: for the whole call, retries
   * included). Streams: limit until the response headers arrive.
   */
  timeoutMs?: number | undefined;
  /** Streams: longest silence (no bytes, keep-alives included) before `TIMEOUT`. */
  idleTimeoutMs?: number | undefined;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string> | undefined;
  /** Extra query parameters for this call (e.g. an API key sent in the query). */
  query?: Record<string, string> | undefined;
  /** SubscribeToTask: resume after this event id (SSE `Last-Event-ID`; gRPC `last-event-id`). */
  lastEventId?: string | undefined;
}

/** One stream event with its SSE id: the one type client and server share (core/service.ts). */
export type { StreamItem };

/** The events of a streaming operation, validated, with the resume point of the stream. */
export interface EventStream extends AsyncIterable<StreamResponse> {
  /** The id of the latest event that carried one: what `lastEventId` resumes from. */
  readonly lastEventId: string | undefined;
}

/** Options shared by the HTTP transports. */
export interface TransportOptions {
  /** The interface URL from the card. */
  url: string;
  /** The interface tenant: set in every request; requests carry no tenant when absent (spec §8.3.2). */
  tenant?: string | undefined;
  /** The fetch implementation (default: global fetch). */
  fetch?: typeof fetch | undefined;
  /** Headers sent on every call. */
  headers?: Record<string, string> | undefined;
  /** Default unary timeout (default 30 s). */
  timeoutMs?: number | undefined;
  /** Default stream idle timeout (default 120 s). */
  idleTimeoutMs?: number | undefined;
  /** Largest SSE event accepted, in bytes (default 4 MiB). */
  maxEventBytes?: number | undefined;
  /** Largest unary reply body accepted, in bytes, after decoding (default 64 MiB). */
  maxReplyBytes?: number | undefined;
}

/** Default unary call timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default stream idle timeout: servers send keep-alives well within it. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

type OperationMethods = {
  [N in OperationName as (typeof OPERATIONS)[N]['method']]: N extends UnaryOperationName
    ? (request: OperationParams<N>, options?: CallOptions) => Promise<OperationResult<N>>
    : (request: OperationParams<N>, options?: CallOptions) => EventStream;
};

/** A binding's client: the two primitives plus one method per spec operation, camel-cased. */
export interface ClientTransport extends OperationMethods {
  /** The card's `protocolBinding` string (`JSONRPC`, `HTTP+JSON`, …). */
  readonly binding: string;
  /** The interface URL. */
  readonly url: string;
  /** Performs a unary operation and returns its validated result. */
  call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): Promise<OperationResult<N>>;
  /** Opens a streaming operation; the request is sent when iteration starts. */
  stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): AsyncIterable<StreamItem>;
  /** Releases resources the transport holds (a gRPC channel); HTTP transports hold none. */
  close?(): void;
}

/** Wraps stream items as an {@link EventStream}. */
export function eventStream(items: AsyncIterable<StreamItem>): EventStream {
  let lastEventId: string | undefined;
  return {
    get lastEventId() {
      return lastEventId;
    },
    async *[Symbol.asyncIterator]() {
      for await (const item of items) {
        if (item.id !== undefined) lastEventId = item.id;
        yield item.event;
      }
    },
  };
}

/** Implements the per-operation methods of {@link ClientTransport} on top of `call`/`stream`. */
export abstract class BaseTransport implements ClientTransport {
  abstract readonly binding: string;
  abstract readonly url: string;

  abstract call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): Promise<OperationResult<N>>;

  abstract stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options?: CallOptions,
  ): AsyncIterable<StreamItem>;

  /** SendMessage (spec §3.1.1). */
  sendMessage(request: OperationParams<'SendMessage'>, options?: CallOptions) {
    return this.call('SendMessage', request, options);
  }
  /** SendStreamingMessage (spec §3.1.2). */
  sendStreamingMessage(request: OperationParams<'SendStreamingMessage'>, options?: CallOptions) {
    return eventStream(this.stream('SendStreamingMessage', request, options));
  }
  /** GetTask (spec §3.1.3). */
  getTask(request: OperationParams<'GetTask'>, options?: CallOptions) {
    return this.call('GetTask', request, options);
  }
  /** ListTasks (spec §3.1.4). */
  listTasks(request: OperationParams<'ListTasks'>, options?: CallOptions) {
    return this.call('ListTasks', request, options);
  }
  /** CancelTask (spec §3.1.5). */
  cancelTask(request: OperationParams<'CancelTask'>, options?: CallOptions) {
    return this.call('CancelTask', request, options);
  }
  /** SubscribeToTask (spec §3.1.6). */
  subscribeToTask(request: OperationParams<'SubscribeToTask'>, options?: CallOptions) {
    return eventStream(this.stream('SubscribeToTask', request, options));
  }
  /** CreateTaskPushNotificationConfig (spec §3.1.7). */
  createTaskPushNotificationConfig(
    request: OperationParams<'CreateTaskPushNotificationConfig'>,
    options?: CallOptions,
  ) {
    return this.call('CreateTaskPushNotificationConfig', request, options);
  }
  /** GetTaskPushNotificationConfig (spec §3.1.8). */
  getTaskPushNotificationConfig(
    request: OperationParams<'GetTaskPushNotificationConfig'>,
    options?: CallOptions,
  ) {
    return this.call('GetTaskPushNotificationConfig', request, options);
  }
  /** ListTaskPushNotificationConfigs (spec §3.1.9). */
  listTaskPushNotificationConfigs(
    request: OperationParams<'ListTaskPushNotificationConfigs'>,
    options?: CallOptions,
  ) {
    return this.call('ListTaskPushNotificationConfigs', request, options);
  }
  /** DeleteTaskPushNotificationConfig (spec §3.1.10). */
  deleteTaskPushNotificationConfig(
    request: OperationParams<'DeleteTaskPushNotificationConfig'>,
    options?: CallOptions,
  ) {
    return this.call('DeleteTaskPushNotificationConfig', request, options);
  }
  /** GetExtendedAgentCard (spec §3.1.11). */
  getExtendedAgentCard(request: OperationParams<'GetExtendedAgentCard'>, options?: CallOptions) {
    return this.call('GetExtendedAgentCard', request, options);
  }
}

/** The result schema of an operation, for validating what the peer sent. */
export function resultSchema(operation: OperationName): z.ZodType {
  return OPERATIONS[operation].result;
}
