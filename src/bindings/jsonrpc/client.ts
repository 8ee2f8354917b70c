/**
 * JSON-RPC 2.0 client transport (spec §9): one POST endpoint, method = PascalCase operation name,
 * params = ProtoJSON request with the interface tenant in `params.tenant`; streams are SSE whose
 * `data` lines are whole JSON-RPC responses.
 */
import type { z } from 'zod';
import {
  A2AError,
  CODE_BY_JSONRPC,
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
import { JSONRPC_CONTENT_TYPE, methodFor, type JsonRpcErrorObject } from './wire.js';

const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

/** The A2A error a JSON-RPC error object stands for: ErrorInfo reason first, then the code. */
export function errorFromJsonRpc(error: JsonRpcErrorObject): A2AError {
  const code = reasonFromDetails(error.data) ?? CODE_BY_JSONRPC.get(error.code) ?? 'INTERNAL';
  const message = typeof error.message === 'string' && error.message ? error.message : undefined;
  return new A2AError(code, message, optionsFromDetails(error.data));
}

/** Client of an agent's JSON-RPC interface. */
export class JsonRpcTransport extends BaseTransport {
  readonly binding = 'JSONRPC';
  readonly url: string;
  private nextId = 1;

  constructor(private readonly options: TransportOptions) {
    super();
    this.url = options.url;
  }

  /** Performs a unary operation. */
  async call<N extends UnaryOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): Promise<OperationResult<N>> {
    const id = this.nextId++;
    const exchange = await this.send(operation, request, id, options, false);
    const { response } = exchange;
    const type = mediaType(response);
    const text = await exchange.text();
    if (!isJsonType(type)) {
      if (!response.ok) throw badStatus(response, this.url, text);
      throw new TransportError(
        'BAD_RESPONSE',
        `${operation}: expected JSON from ${this.url}, got ${type || 'no content type'}: ${snippet(text)}`,
        { url: this.url, status: response.status },
      );
    }
    const body = response.ok
      ? parseJsonBody(text, `${operation} reply`, this.url, response.status)
      : safeJson(text);
    return this.result(operation, body, id, response, text) as OperationResult<N>;
  }

  /** Opens a streaming operation (SSE). */
  async *stream<N extends StreamingOperationName>(
    operation: N,
    request: OperationParams<N>,
    options: CallOptions = {},
  ): AsyncGenerator<StreamItem> {
    const id = this.nextId++;
    const exchange = await this.send(operation, request, id, options, true);
    const { response } = exchange;
    const type = mediaType(response);
    if (type !== 'text/event-stream' || !response.ok) {
      // Errors before the first event come back as an ordinary JSON-RPC error reply (digest §f).
      const text = await exchange.text();
      if (isJsonType(type)) this.result(operation, safeJson(text), id, response, text);
      if (!response.ok) throw badStatus(response, this.url, text);
      throw new TransportError(
        'BAD_RESPONSE',
        `${operation}: expected text/event-stream from ${this.url}, got ${type || 'no content type'}`,
        { url: this.url, status: response.status },
      );
    }
    const idle = options.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const events = parseSse(exchange.chunks(idle), {
      ...(this.options.maxEventBytes !== undefined
        ? { maxEventBytes: this.options.maxEventBytes }
        : {}),
    });
    for await (const sse of events) {
      const body = parseJsonBody(sse.data, `${operation} event`, this.url);
      const event = this.result(operation, body, id, response) as StreamItem['event'];
      yield { id: sse.id, event };
    }
  }

  private async send(
    operation: OperationName,
    request: object,
    id: number,
    options: CallOptions,
    streaming: boolean,
  ): Promise<HttpExchange> {
    const params: Record<string, unknown> = { ...request };
    // spec §8.3.2 / checklist [24]: exactly the interface tenant, or none at all.
    if (this.options.tenant !== undefined) params.tenant = this.options.tenant;
    else delete params.tenant;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: methodFor(operation), params });
    return openExchange({
      url: withQuery(this.url, options.query),
      method: 'POST',
      headers: buildHeaders({
        layers: [this.options.headers, options.headers],
        accept: streaming ? 'text/event-stream, application/json' : JSONRPC_CONTENT_TYPE,
        contentType: JSONRPC_CONTENT_TYPE,
        lastEventId: options.lastEventId,
      }),
      body,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: this.options.fetch,
    });
  }

  /** Checks a JSON-RPC response object and returns its validated result (or throws its error). */
  private result(
    operation: OperationName,
    body: unknown,
    id: number,
    response: Response,
    text = '',
  ): unknown {
    const where = `${operation} reply from ${this.url}`;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      if (!response.ok) throw badStatus(response, this.url, text);
      throw new TransportError('BAD_RESPONSE', `${where} is not a JSON-RPC response object`, {
        url: this.url,
      });
    }
    const envelope = body as Record<string, unknown>;
    const error = envelope.error;
    if (
      typeof error === 'object' &&
      error !== null &&
      typeof (error as JsonRpcErrorObject).code === 'number'
    ) {
      // 401, 403 and 429 are refusals of the caller, reported like every binding reports them
      // (BAD_STATUS with the status and Retry-After; docs/errors.md), with the server's message.
      if (REFUSAL_STATUSES.has(response.status)) {
        throw badStatus(response, this.url, text, (error as JsonRpcErrorObject).message);
      }
      throw errorFromJsonRpc(error as JsonRpcErrorObject);
    }
    if (!response.ok) throw badStatus(response, this.url, text);
    if (envelope.jsonrpc !== '2.0') {
      throw new TransportError('BAD_RESPONSE', `${where} lacks "jsonrpc": "2.0"`, {
        url: this.url,
      });
    }
    if (envelope.id !== id) {
      throw new TransportError(
        'BAD_RESPONSE',
        `${where} answers id ${JSON.stringify(envelope.id)}, expected ${id}`,
        {
          url: this.url,
        },
      );
    }
    if (!('result' in envelope)) {
      throw new TransportError('BAD_RESPONSE', `${where} has neither "result" nor "error"`, {
        url: this.url,
      });
    }
    const schema: z.ZodType = OPERATIONS[operation].result;
    return checkResult(schema, envelope.result, `${operation} result`, this.url);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
