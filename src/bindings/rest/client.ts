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
import { OPERATIONS, type OperationName } from '../../core/operations.js';
import type { StreamResponse } from '../../core/schemas/index.js';
import { TransportError } from '../../transport/errors.js';
import type { ReplyHead } from '../../transport/http-send.js';
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
export class RestTransport extends HttpTransport {
  readonly binding = 'HTTP+JSON';
  readonly url: string;

  constructor(options: TransportOptions) {
    super(options);
    this.url = options.url.replace(/\/+$/, '');
  }

  /** The operation's route: path fields in the URL, the rest as query or JSON body (§11.5). */
  protected prepare(operation: OperationName, request: object, streaming: boolean) {
    const route = routeFor(operation);
    const fields = request as Record<string, unknown>;
    const inPath = new Set([...pathFields(route), 'tenant']);
    // spec §8.3.2 / requirement [24] of test/conformance/requirements.ts: the interface tenant as path prefix, or none at all.
    const url = new URL(this.url + buildPath(route, fields, this.options.tenant));
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
    const wire: WireRequest<undefined> = {
      url: url.toString(),
      method: route.method,
      accept: streaming ? 'text/event-stream' : ACCEPT_JSON,
      contentType: body === undefined ? undefined : A2A_JSON,
      body,
      context: undefined,
    };
    return wire;
  }

  /** The validated result, or the google.rpc.Status error of a failed reply. */
  protected result({ operation, response, url, type, text }: WireReply<undefined>): unknown {
    if (!response.ok) throw failure(response, url, type, text);
    // google.protobuf.Empty: `{}`, `null` or (HTTP 204) nothing at all.
    if (operation === 'DeleteTaskPushNotificationConfig' && text.trim() === '') return {};
    if (!isJsonType(type)) {
      throw new TransportError(
        'BAD_RESPONSE',
        `${operation}: expected JSON from ${url}, got ${type || 'no content type'}: ${snippet(text)}`,
        { url, status: response.status },
      );
    }
    const body = parseJsonBody(text, `${operation} reply`, url, response.status);
    const schema: z.ZodType = OPERATIONS[operation].result;
    return checkResult(schema, body, `${operation} result`, url);
  }

  /** An error status, or a success that is no event stream. */
  protected refusal({ operation, response, url, type, text }: WireReply<undefined>): Error {
    if (!response.ok) return failure(response, url, type, text);
    return new TransportError(
      'BAD_RESPONSE',
      `${operation}: expected text/event-stream from ${url}, got ${type || 'no content type'}: ${snippet(text)}`,
      { url, status: response.status },
    );
  }

  /** A bare StreamResponse; a failure after the stream started is `event: error` + a Status. */
  protected event({ operation, sse, url }: WireEvent<undefined>): StreamResponse {
    const body = parseJsonBody(sse.data, `${operation} event`, url);
    if (sse.event === 'error') {
      throw (
        errorFromStatus(body, 500) ??
        new TransportError(
          'BAD_RESPONSE',
          `${operation}: unreadable error event from ${url}: ${snippet(sse.data)}`,
          { url },
        )
      );
    }
    return checkResult(
      OPERATIONS[operation].result,
      body,
      `${operation} event`,
      url,
    ) as StreamResponse;
  }
}

function failure(response: ReplyHead, url: string, type: string, text: string): Error {
  const body = isJsonType(type) || type === '' ? tryJson(text) : undefined;
  return (
    errorFromStatus(body, response.status) ?? badStatus(response, url, text, statusMessage(body))
  );
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
