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
 * - Every JSON-RPC answer, error or not, is HTTP 200 (the spec sets no status; SDKs use 200).
 * - The request Content-Type is not enforced: the body is parsed as JSON whatever it says.
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
import { bodyText } from '../../http/body.js';
import { addExtensionsHeader } from '../../http/service-params.js';
import { SSE_HEADERS, encodeSse, sseFrame } from '../../http/sse-encode.js';
import type { BindingContext, HttpRequest, HttpResponse } from '../../http/types.js';
import { JSONRPC_CONTENT_TYPE } from './wire.js';

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
    const request = parseRequest(bodyText(req, ctx.maxBodyBytes));
    idJson = JSON.stringify(request.id);
    const { method, params: rawParams } = checkRequest(request);
    // Version before method: without A2A-Version the method names mean 0.3 (spec §3.6.2).
    if (ctx.versionError !== undefined) throw ctx.versionError;
    const name = operationOf(method);
    const params = parseParams(name, rawParams);
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
    return reply(resultJson(idJson, result), ctx);
  } catch (error) {
    return reply(errorJson(idJson, toA2AError(error, ctx.onError)), ctx);
  }
}

/** A JSON-RPC success response; `undefined` results (Empty) are sent as `{}`. */
export function resultJson(idJson: string, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${idJson},"result":${JSON.stringify(result) ?? '{}'}}`;
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

function reply(body: string, ctx: BindingContext): HttpResponse {
  const headers = addExtensionsHeader(
    { 'content-type': JSONRPC_CONTENT_TYPE },
    ctx.call.activatedExtensions,
  );
  return { status: 200, headers, body };
}

type RequestObject = Record<string, unknown> & { id: string | number | null };

/** Parses the body into a request object with a valid id; until then errors answer with id null. */
function parseRequest(text: string): RequestObject {
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
function checkRequest(request: RequestObject): { method: string; params: unknown } {
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
