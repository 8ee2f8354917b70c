/**
 * HTTP+JSON (REST) client transport (spec §11): one route per operation, path fields in the URL,
 * GET/DELETE fields as camelCase query parameters (§11.5), the tenant as a `/{tenant}` path
 * prefix, errors as google.rpc.Status, streams as SSE of bare StreamResponse objects.
 */
import type { z } from 'zod';
import {
  A2AError,
  CODE_BY_HTTP,
  optionsFromDetails,
  reasonFromDetails,
} from '../../core/errors.js';
import {
  OPERATIONS,
  type OperationName,
  type OperationParams,
  type StreamingOperationName,
} from '../../core/operations.js';
import { TransportError } from '../../client/errors.js';
import {
  badStatus,
  buildHeaders,
  checkResult,
  isJsonType,
  mediaType,
  openExchange,
  parseJsonBody,
  snippet,
  withQuery,
  type HttpExchange,
} from '../../client/http-exchange.js';
import {
  BaseTransport,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type CallOptions,
  type OperationResult,
  type StreamItem,
  type TransportOptions,
  type UnaryOperationName,
} from '../../client/transport.js';
import { parseSse } from '../../http/sse-parse.js';
import { A2A_JSON, buildPath, pathFields, routeFor } from './wire.js';

const ACCEPT_JSON = `${A2A_JSON}, application/json`;

/**
 * The A2A error a google.rpc.Status body stands for (`{"error": Status}` or a bare Status):
 * the ErrorInfo reason when present, else the HTTP status mapping; undefined when the body is no
 * Status or its status maps to no A2A code (then it is a transport-level BAD_STATUS).
 */
export function errorFromStatus(body: unknown, httpStatus: number): A2AError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const wrapped = (body as Record<string, unknown>).error;
  const status = (typeof wrapped === 'object' && wrapped !== null ? wrapped : body) as Record<
    string,
    unknown
  >;
  const looksLikeStatus =
    typeof status.message === 'string' ||
    typeof status.status === 'string' ||
    Array.isArray(status.details);
  if (!looksLikeStatus) return undefined;
  const statusCode = typeof status.code === 'number' ? status.code : httpStatus;
  const code = reasonFromDetails(status.details) ?? CODE_BY_HTTP.get(statusCode);
  if (!code) return undefined;
  const message = typeof status.message === 'string' && status.message ? status.message : undefined;
  return new A2AError(code, message, optionsFromDetails(status.details));
}

/** Client of an agent's HTTP+JSON interface. */
export class RestTransport extends BaseTransport {
  readonly binding = 'HTTP+JSON';
  readonly url: string;

  constructor(private readonly options: TransportOptions) {
    super();
    this.url = options.url.replace(/\/+$/, '');
  }

  /** Performs a unary operation. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    const exchange = await this.send(operation, request, options, false);
    const { response, url } = exchange;
    const type = mediaType(response);
    const text = await exchange.text();
    if (!response.ok) throw this.failure(response, url, type, text);
    // google.protobuf.Empty: `{}`, `null` or (HTTP 204) nothing at all.
    if (operation === 'DeleteTaskPushNotificationConfig' && text.trim() === '')
      return {} as OperationResult<N>;
    if (!isJsonType(type)) {
      throw new TransportError(
        'BAD_RESPONSE',
        `${operation}: expected JSON from ${url}, got ${type || 'no content type'}: ${snippet(text)}`,
        { url, status: response.status },
      );
    }
    const body = parseJsonBody(text, `${operation} reply`, url, response.status);
    const schema: z.ZodType = OPERATIONS[operation].result;
    return checkResult(schema, body, `${operation} result`, url) as OperationResult<N>;
  }

  /** Opens a streaming operation (SSE). */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): AsyncGenerator<StreamItem> {
    const exchange = await this.send(operation, request, options, true);
    const { response, url } = exchange;
    const type = mediaType(response);
    if (!response.ok || type !== 'text/event-stream') {
      const text = await exchange.text();
      if (!response.ok) throw this.failure(response, url, type, text);
      throw new TransportError(
        'BAD_RESPONSE',
        `${operation}: expected text/event-stream from ${url}, got ${type || 'no content type'}: ${snippet(text)}`,
        { url, status: response.status },
      );
    }
    const idle = options.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const events = parseSse(exchange.chunks(idle), {
      ...(this.options.maxEventBytes !== undefined
        ? { maxEventBytes: this.options.maxEventBytes }
        : {}),
    });
    for await (const sse of events) {
      const body = parseJsonBody(sse.data, `${operation} event`, url);
      if (sse.event === 'error') {
        // A failure after the stream started: `event: error` + a Status (digest §f).
        throw (
          errorFromStatus(body, 500) ??
          new TransportError(
            'BAD_RESPONSE',
            `${operation}: unreadable error event from ${url}: ${snippet(sse.data)}`,
            { url },
          )
        );
      }
      const event = checkResult(OPERATIONS[operation].result, body, `${operation} event`, url);
      yield { id: sse.id, event: event as StreamItem['event'] };
    }
  }

  private failure(response: Response, url: string, type: string, text: string): Error {
    const body = isJsonType(type) || type === '' ? safeJson(text) : undefined;
    return (
      errorFromStatus(body, response.status) ?? badStatus(response, url, text, statusMessage(body))
    );
  }

  private async send(
    operation: OperationName,
    request: object,
    options: CallOptions,
    streaming: boolean,
  ): Promise<HttpExchange> {
    const route = routeFor(operation);
    const fields = request as Record<string, unknown>;
    const inPath = new Set([...pathFields(route), 'tenant']);
    // spec §8.3.2 / checklist [24]: the interface tenant as path prefix, or none at all.
    const path = buildPath(route, fields, this.options.tenant);
    const url = new URL(this.url + path);
    let body: string | undefined;
    if (route.input === 'query') {
      for (const [name, value] of Object.entries(fields)) {
        if (!inPath.has(name)) appendQuery(url.searchParams, name, value);
      }
    } else if (route.method === 'POST') {
      const rest: Record<string, unknown> = {};
      if (route.input === 'body') {
        for (const [name, value] of Object.entries(fields))
          if (!inPath.has(name)) rest[name] = value;
      }
      body = JSON.stringify(rest);
    }
    return openExchange({
      url: withQuery(url.toString(), options.query),
      method: route.method,
      headers: buildHeaders({
        layers: [this.options.headers, options.headers],
        accept: streaming ? 'text/event-stream' : ACCEPT_JSON,
        contentType: body === undefined ? undefined : A2A_JSON,
        lastEventId: options.lastEventId,
      }),
      body,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: this.options.fetch,
    });
  }
}

/** §11.5: scalars as text, booleans lowercase, repeated values as repeated keys, no objects. */
function appendQuery(params: URLSearchParams, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) appendQuery(params, name, v);
    return;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    params.append(name, String(value));
    return;
  }
  throw new TypeError(`${name}: only scalar values can be sent as query parameters (spec §11.5)`);
}

function statusMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as Record<string, unknown>).error;
  const message =
    typeof error === 'object' && error !== null
      ? (error as Record<string, unknown>).message
      : undefined;
  return typeof message === 'string' ? message : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
