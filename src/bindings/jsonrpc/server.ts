/**
 * Server side of the JSON-RPC 2.0 binding (spec §9): one POST endpoint, PascalCase methods,
 * `params` = the ProtoJSON request, errors as JSON-RPC error objects whose `data` is an array of
 * `@type` details (spec §9.5), streaming methods answered with SSE (spec §9.4.2).
 *
 * Decisions where JSON-RPC 2.0 and A2A leave room:
 * - Batches (a JSON array) are answered with one -32600: A2A defines no batch semantics and
 *   streaming methods cannot be batched.
 * - A request without `id` (a JSON-RPC notification) is rejected with -32600: every A2A method
 *   has a result the caller needs, and silently dropping it would hide client bugs. `id: null`
 *   is allowed (JSON-RPC permits it) and echoed.
 * - `params` must be a JSON object (A2A uses by-name parameters only); absent or `null` means
 *   `{}` (GetExtendedAgentCard takes no parameters, spec §3.1.11).
 * - Every JSON-RPC answer, error or not, is HTTP 200 (the spec sets no status; SDKs use 200),
 *   except refusals (401, 403, 429, 415): they carry the HTTP status and headers of the refusal.
 * - The request Content-Type must be `application/json` (spec §9.1) or `application/a2a+json`,
 *   parameters allowed; anything else (also none) is HTTP 415 with -32600 before the body is
 *   read, so a web page cannot post a request cross-site without a CORS preflight.
 * - The endpoint answers at its path with or without a trailing slash.
 */
import { A2AError, ERROR_CATALOG, errorDetails, toA2AError } from '../../core/errors.js';
import {
  OPERATIONS,
  isOperationName,
  type OperationName,
  type StreamingOperationName,
} from '../../core/operations.js';
import { MAX_ID_LENGTH } from '../../core/schemas/proto-json.js';
import { parseParams } from '../../core/validate.js';
import { normalizePath } from '../../http/binding.js';
import type { BindingContext, HttpBinding } from '../../http/binding.js';
import { bodyText } from '../../http/body.js';
import { isJsonMediaType, unsupportedMediaType } from '../../http/media-type.js';
import { addExtensionsHeader, withLastEventId } from '../../http/service-params.js';
import { SSE_HEADERS, encodeSse, sseFrame } from '../../http/sse-encode.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { JSONRPC_CONTENT_TYPE } from './wire.js';
import { withFields } from '../../core/with-fields.js';

/** Options of {@link jsonRpcBinding}. */
export interface JsonRpcBindingOptions {
  /** Path of the endpoint (default `/a2a/jsonrpc`). */
  path?: string | undefined;
}

/** The JSON-RPC binding (spec §9) for the HTTP router: one POST endpoint. */
export function jsonRpcBinding(options: JsonRpcBindingOptions = {}): HttpBinding {
  return {
    protocolBinding: 'JSONRPC',
    path: normalizePath(options.path ?? '/a2a/jsonrpc'),
    match: 'exact',
    methods: ['POST'],
    handle: (req, _rest, _query, ctx) => handleJsonRpc(req, ctx),
    refuse: (req, error, ctx) =>
      reply(errorJson(requestIdJson(req, ctx.maxBodyBytes), error), ctx, error),
  };
}

/** 0.3 method names and their 1.0 successors, for a helpful -32601 (spec Appendix A). */
const LEGACY_METHODS: ReadonlyMap<string, OperationName> = new Map<string, OperationName>([
  ['message/send', 'SendMessage'],
  ['message/stream', 'SendStreamingMessage'],
  ['tasks/get', 'GetTask'],
  ['tasks/list', 'ListTasks'],
  ['tasks/cancel', 'CancelTask'],
  ['tasks/resubscribe', 'SubscribeToTask'],
  ['tasks/pushNotificationConfig/set', 'CreateTaskPushNotificationConfig'],
  ['tasks/pushNotificationConfig/get', 'GetTaskPushNotificationConfig'],
  ['tasks/pushNotificationConfig/list', 'ListTaskPushNotificationConfigs'],
  ['tasks/pushNotificationConfig/delete', 'DeleteTaskPushNotificationConfig'],
  ['agent/getAuthenticatedExtendedCard', 'GetExtendedAgentCard'],
]);

const BY_LOWER_CASE = new Map<string, OperationName>(
  Object.keys(OPERATIONS).map((name) => [name.toLowerCase(), name as OperationName]),
);

/** Answers one JSON-RPC POST (spec §9). Never throws. */
export async function handleJsonRpc(req: HttpRequest, ctx: BindingContext): Promise<HttpResponse> {
  let idJson = 'null';
  try {
    const contentType = req.headers.get('content-type');
    if (contentType === null || !isJsonMediaType(contentType)) {
      throw unsupportedMediaType(contentType, JSONRPC_CONTENT_TYPE);
    }
    const request = parseRequest(bodyText(req, ctx.maxBodyBytes));
    idJson = JSON.stringify(request.id);
    const { method, params: rawParams } = checkRequest(request);
    // Version before method: without A2A-Version the method names mean 0.3 (spec §3.6.2).
    const versionRefused = ctx.versionError;
    if (versionRefused !== undefined) throw versionRefused;
    const name = operationOf(method);
    ctx.operation = name;
    const params = withLastEventId(name, parseParams(name, rawParams), req);
    ctx.call.tenant = params.tenant;
    if (isStreaming(name)) {
      const source = await ctx.service.stream(name, params, ctx.call);
      return {
        status: 200,
        headers: addExtensionsHeader({ ...SSE_HEADERS }, ctx.call.activatedExtensions),
        body: encodeSse(source, {
          keepAliveMs: ctx.keepAliveMs,
          data: (item) => resultJson(idJson, item.event),
          errorFrame: (error) => sseFrame(errorJson(idJson, toA2AError(error, ctx.onError))),
        }),
      };
    }
    const result = await ctx.service.invoke(name, params, ctx.call);
    return reply(resultJson(idJson, result), ctx, undefined);
  } catch (error) {
    const failure = toA2AError(error, ctx.onError);
    return reply(errorJson(idJson, failure), ctx, failure);
  }
}

/** A JSON-RPC success response; `undefined` results (Empty) are sent as `{}`. */
export function resultJson(idJson: string, result: unknown): string {
  return resultText(idJson, JSON.stringify(result) ?? '{}');
}

/** A JSON-RPC success response whose `result` is the JSON text `text`. */
export function resultText(idJson: string, text: string): string {
  return `{"jsonrpc":"2.0","id":${idJson},"result":${text}}`;
}

/**
 * A JSON-RPC error response: the catalog's code, the message, and `data` = the `@type` details
 * (ErrorInfo for A2A errors, BadRequest for invalid params), omitted when there are none.
 */
export function errorJson(idJson: string, error: A2AError): string {
  const details = errorDetails(error);
  const body: { code: number; message: string; data?: unknown } = {
    code: ERROR_CATALOG[error.code].jsonrpc,
    message: error.message,
  };
  if (details.length > 0) body.data = details;
  return `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(body)}}`;
}

/** An HTTP 200 answer, or a refusal's status and headers (`error.headers` is set on refusals). */
function reply(body: string, ctx: BindingContext, error: A2AError | undefined): HttpResponse {
  const refusal = error?.headers;
  const headers = addExtensionsHeader(
    refusal === undefined
      ? { 'content-type': JSONRPC_CONTENT_TYPE }
      : withFields(refusal, { 'content-type': JSONRPC_CONTENT_TYPE }),
    ctx.call.activatedExtensions,
  );
  const status =
    refusal === undefined || error === undefined ? 200 : ERROR_CATALOG[error.code].http;
  return error === undefined ? { status, headers, body } : { status, headers, body, error };
}

/** The JSON of the request's JSON-RPC `id` when the body has a usable one, else `null`. */
export function requestIdJson(req: HttpRequest, maxBodyBytes: number): string {
  try {
    const body: unknown = JSON.parse(bodyText(req, maxBodyBytes));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'null';
    const id = (body as { id?: unknown }).id;
    const usable = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    return usable ? JSON.stringify(id) : 'null';
  } catch {
    return 'null';
  }
}

/** A JSON-RPC request object whose id is usable. */
export type RequestObject = Record<string, unknown> & { id: string | number | null };

/** Parses the body into a request object with a valid id; until then errors answer with id null. */
export function parseRequest(text: string): RequestObject {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new A2AError('PARSE_ERROR', 'Parse error: the request body is not valid JSON');
  }
  if (Array.isArray(raw)) {
    throw new A2AError(
      'INVALID_REQUEST',
      'Batch requests are not supported: send one JSON-RPC request per HTTP request',
    );
  }
  if (typeof raw !== 'object' || raw === null) {
    throw new A2AError(
      'INVALID_REQUEST',
      'Invalid request: the body must be a JSON-RPC 2.0 request object',
    );
  }
  const request = raw as Record<string, unknown>;
  if (!('id' in request)) {
    throw new A2AError(
      'INVALID_REQUEST',
      'Invalid request: "id" is required (A2A does not use JSON-RPC notifications)',
    );
  }
  const id = request.id;
  if (!(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    throw new A2AError(
      'INVALID_REQUEST',
      'Invalid request: "id" must be a string, a number or null',
    );
  }
  // Every reply echoes the id: bound it like the A2A ids (MAX_ID_LENGTH).
  if (typeof id === 'string' && id.length > MAX_ID_LENGTH) {
    throw new A2AError(
      'INVALID_REQUEST',
      `Invalid request: "id" must be at most ${MAX_ID_LENGTH} characters`,
    );
  }
  return request as RequestObject;
}

/** Checks `jsonrpc`, `method` and `params` of a request whose id is known. */
export function checkRequest(request: RequestObject): { method: string; params: unknown } {
  if (request.jsonrpc !== '2.0') {
    throw new A2AError('INVALID_REQUEST', 'Invalid request: "jsonrpc" must be "2.0"');
  }
  if (typeof request.method !== 'string') {
    throw new A2AError('INVALID_REQUEST', 'Invalid request: "method" must be a string');
  }
  const params = request.params ?? undefined;
  if (params !== undefined && (typeof params !== 'object' || Array.isArray(params))) {
    throw new A2AError('INVALID_PARAMS', 'Invalid params: "params" must be a JSON object', {
      fieldViolations: [{ field: 'params', description: 'must be a JSON object' }],
    });
  }
  return { method: request.method, params };
}

/** The operation of a method name, or METHOD_NOT_FOUND with a hint for 0.3-style names. */
function operationOf(method: string): OperationName {
  if (isOperationName(method)) return method;
  const successor = LEGACY_METHODS.get(method) ?? BY_LOWER_CASE.get(method.toLowerCase());
  const hint =
    successor !== undefined
      ? ` A2A 1.0 methods are PascalCase: use "${successor}".`
      : method.includes('/')
        ? ' A2A 1.0 methods are PascalCase, e.g. SendMessage.'
        : '';
  const shown = method.length > 100 ? `${method.slice(0, 100)}…` : method;
  throw new A2AError('METHOD_NOT_FOUND', `Method not found: "${shown}".${hint}`);
}

function isStreaming(name: OperationName): name is StreamingOperationName {
  return OPERATIONS[name].streaming;
}
