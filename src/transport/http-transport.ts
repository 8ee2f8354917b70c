/**
 * The call/stream skeleton the HTTP bindings' clients share (JSON-RPC spec §9, HTTP+JSON §11):
 * one fetch exchange per call within its timeout, a unary body read whole, a stream read as SSE
 * with the idle timeout and the event size limit. A binding only says how its request looks and
 * how its replies read.
 */
import type { OperationName, OperationParams, StreamingOperationName } from '../core/operations.js';
import type { StreamResponse } from '../core/schemas/index.js';
import {
  buildHeaders,
  mediaType,
  openExchange,
  withQuery,
  type HttpExchange,
  type HttpRequest,
} from './http-exchange.js';
import type { ReplyHead } from './http-send.js';
import { parseSse, type SseEvent } from './sse-parse.js';
import {
  BaseTransport,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type CallOptions,
  type OperationResult,
  type StreamItem,
  type TransportOptions,
  type UnaryOperationName,
} from './transport.js';

/** The HTTP request a binding builds for one call, and what it needs to read the reply. */
export interface WireRequest<C> {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  accept: string;
  contentType?: string | undefined;
  body?: string | undefined;
  /** Per-call facts the reply is checked against (the JSON-RPC request id). */
  context: C;
  /** Send no `A2A-Version` header (0.3 transports). */
  noVersion?: boolean | undefined;
}

/** A reply read whole: a unary answer, or a stream request answered without an event stream. */
export interface WireReply<C> {
  operation: OperationName;
  response: ReplyHead;
  /** The URL called (path and query included). */
  url: string;
  /** The media type, lower-cased, without parameters. */
  type: string;
  text: string;
  context: C;
}

/** One SSE message of an open stream. */
export interface WireEvent<C> {
  operation: StreamingOperationName;
  sse: SseEvent;
  /** The response the stream arrives on. */
  response: ReplyHead;
  url: string;
  context: C;
}

/** An HTTP binding's client: the shared skeleton around the binding's request and reply rules. */
export abstract class HttpTransport<C = undefined> extends BaseTransport {
  /** The headers of calls without per-call headers, by accept / content type / version. */
  private readonly fixedHeaders = new Map<string, Readonly<Record<string, string>>>();

  constructor(protected readonly options: TransportOptions) {
    super();
  }

  /** Builds the request of `operation` (`streaming`: an SSE stream is asked for). */
  protected abstract prepare(
    operation: OperationName,
    request: object,
    streaming: boolean,
  ): WireRequest<C>;

  /** The validated result of a unary reply; throws the error the reply stands for. */
  protected abstract result(reply: WireReply<C>): unknown;

  /** The error of a stream request answered with something else than an event stream. */
  protected abstract refusal(reply: WireReply<C>): Error;

  /** The validated event of one SSE message; throws the error the message reports. */
  protected abstract event(event: WireEvent<C>): StreamResponse;

  /** Performs a unary operation. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    const wire = this.prepare(operation, request, false);
    const exchange = await this.open(wire, options, true);
    const text = await exchange.text();
    return this.result(this.reply(operation, exchange, text, wire)) as OperationResult<N>;
  }

  /** Opens a streaming operation (SSE). */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): AsyncGenerator<StreamItem> {
    const wire = this.prepare(operation, request, true);
    const exchange = await this.open(wire, options, false);
    const { response, url } = exchange;
    if (!response.ok || mediaType(response) !== 'text/event-stream') {
      const text = await exchange.text();
      throw this.refusal(this.reply(operation, exchange, text, wire));
    }
    const idle = options.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const { maxEventBytes } = this.options;
    const events = parseSse(
      exchange.chunks(idle),
      maxEventBytes !== undefined ? { maxEventBytes } : {},
    );
    for await (const sse of events) {
      const event = this.event({ operation, sse, response, url, context: wire.context });
      yield { id: sse.id, event };
    }
  }

  private open(wire: WireRequest<C>, options: CallOptions, unary: boolean): Promise<HttpExchange> {
    return openExchange({
      url: withQuery(wire.url, options.query),
      method: wire.method,
      headers: this.headers(wire, options),
      body: wire.body,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: this.options.fetch,
      unary,
      direct: true,
      maxReplyBytes: this.options.maxReplyBytes,
    });
  }

  /**
   * The headers of one call: built once per kind of request (accept, content type, version)
   * when the call adds none of its own, as most do; built for the call otherwise.
   */
  private headers(wire: WireRequest<C>, options: CallOptions): HttpRequestHeaders {
    const parts = {
      layers: [this.options.headers, options.headers],
      accept: wire.accept,
      contentType: wire.contentType,
      lastEventId: options.lastEventId,
      noVersion: wire.noVersion,
    };
    if (options.lastEventId !== undefined || !isEmpty(options.headers)) return buildHeaders(parts);
    const key = `${wire.accept}\n${wire.contentType ?? ''}\n${wire.noVersion === true}`;
    let fixed = this.fixedHeaders.get(key);
    if (fixed === undefined) {
      const record: Record<string, string> = {};
      buildHeaders(parts).forEach((value, name) => (record[name] = value));
      fixed = Object.freeze(record);
      this.fixedHeaders.set(key, fixed);
    }
    return fixed;
  }

  private reply(
    operation: OperationName,
    exchange: HttpExchange,
    text: string,
    wire: WireRequest<C>,
  ): WireReply<C> {
    const { response, url } = exchange;
    return { operation, response, url, type: mediaType(response), text, context: wire.context };
  }
}

type HttpRequestHeaders = HttpRequest['headers'];

function isEmpty(record: Readonly<Record<string, string>> | undefined): boolean {
  for (const _ in record) return false;
  return true;
}
