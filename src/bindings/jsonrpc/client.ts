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
import { OPERATIONS, type OperationName } from '../../core/operations.js';
import type { StreamResponse } from '../../core/schemas/index.js';
import { TransportError } from '../../transport/errors.js';
import {
  badStatus,
  checkResult,
  isJsonType,
  parseJsonBody,
  snippet,
  tryJson,
} from '../../transport/http-exchange.js';
import {
  HttpTransport,
  type WireEvent,
  type WireReply,
  type WireRequest,
} from '../../transport/http-transport.js';
import type { TransportOptions } from '../../transport/transport.js';
import { JSONRPC_CONTENT_TYPE, methodFor, type JsonRpcErrorObject } from './wire.js';
import type { ReplyHead } from '../../transport/http-send.js';
import { withFields } from '../../core/with-fields.js';

const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

/** The A2A error a JSON-RPC error object stands for: ErrorInfo reason first, then the code. */
export function errorFromJsonRpc(error: JsonRpcErrorObject): A2AError {
  const code = reasonFromDetails(error.data) ?? CODE_BY_JSONRPC.get(error.code) ?? 'INTERNAL';
  const message = typeof error.message === 'string' && error.message ? error.message : undefined;
  return new A2AError(code, message, optionsFromDetails(error.data));
}

/** Client of an agent's JSON-RPC interface. */
export class JsonRpcTransport extends HttpTransport<number> {
  readonly binding = 'JSONRPC';
  readonly url: string;
  private nextId = 1;

  constructor(options: TransportOptions) {
    super(options);
    this.url = options.url;
  }

  /** The wire method and params of `operation` (a 0.3 transport converts them). */
  protected wireCall(
    operation: OperationName,
    params: Record<string, unknown>,
  ): { method: string; params: unknown; noVersion?: boolean } {
    return { method: methodFor(operation), params };
  }

  /** The 1.0 form of a wire result before it is validated (identity; 0.3 converts). */
  protected fromWire(_operation: OperationName, result: unknown): unknown {
    return result;
  }

  /** A POST of the JSON-RPC request object; the id is what the reply must answer. */
  protected prepare(operation: OperationName, request: object, streaming: boolean) {
    const id = this.nextId++;
    // spec §8.3.2 / requirement [24] of test/conformance/requirements.ts: exactly the interface tenant, or none at all.
    const { tenant } = this.options;
    let params: Record<string, unknown>;
    if (tenant !== undefined) params = withFields(request, { tenant });
    else {
      const { tenant: _dropped, ...rest } = request as Record<string, unknown>;
      params = rest;
    }
    const call = this.wireCall(operation, params);
    const wire: WireRequest<number> = {
      url: this.url,
      method: 'POST',
      accept: streaming ? 'text/event-stream, application/json' : JSONRPC_CONTENT_TYPE,
      contentType: JSONRPC_CONTENT_TYPE,
      body: JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: call.params }),
      context: id,
      noVersion: call.noVersion,
    };
    return wire;
  }

  /** The result of a unary reply, or the error it carries. */
  protected result({ operation, response, type, text, context }: WireReply<number>): unknown {
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
      : tryJson(text);
    return this.envelope(operation, body, context, response, text);
  }

  /** Errors before the first event come back as an ordinary JSON-RPC error reply (spec §9.4.2). */
  protected refusal({ operation, response, type, text, context }: WireReply<number>): Error {
    try {
      if (isJsonType(type)) this.envelope(operation, tryJson(text), context, response, text);
    } catch (error) {
      return error as Error;
    }
    if (!response.ok) return badStatus(response, this.url, text);
    return new TransportError(
      'BAD_RESPONSE',
      `${operation}: expected text/event-stream from ${this.url}, got ${type || 'no content type'}`,
      { url: this.url, status: response.status },
    );
  }

  /** Each SSE `data` is a whole JSON-RPC response carrying one StreamResponse. */
  protected event({ operation, sse, response, context }: WireEvent<number>): StreamResponse {
    const body = parseJsonBody(sse.data, `${operation} event`, this.url);
    return this.envelope(operation, body, context, response) as StreamResponse;
  }

  /** Checks a JSON-RPC response object and returns its validated result (or throws its error). */
  private envelope(
    operation: OperationName,
    body: unknown,
    id: number,
    response: ReplyHead,
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
    const result = this.fromWire(operation, envelope.result);
    return checkResult(schema, result, `${operation} result`, this.url);
  }
}
