/**
 * Server side of the 0.3 HTTP+JSON binding (0.3 spec §3.2.3, routes of its proto's HTTP rules):
 * every route under `/v1` of the REST base path, bodies in proto-JSON of `a2a.v1` (message parts
 * in `content`, `TASK_STATE_CANCELLED`, `{task}|{message}` results), errors as the bare
 * `{code, message}` object with the catalog's HTTP status, streams as SSE whose `data` is the
 * proto-JSON StreamResponse and whose late errors are `event: error` frames. ListTasks is not a
 * 0.3 route (`GET /v1/tasks` answers 404 with -32601).
 */
import { A2AError, toA2AError } from '../../core/errors.js';
import { OPERATIONS, type OperationName } from '../../core/operations.js';
import { parseParams } from '../../core/validate.js';
import type { BindingContext } from '../../http/binding.js';
import { bodyText } from '../../http/body.js';
import { isJsonMediaType, unsupportedMediaType } from '../../http/media-type.js';
import { withLastEventId } from '../../http/service-params.js';
import { SSE_HEADERS, encodeSse, sseFrame } from '../../http/sse-encode.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { cardTo03 } from './card.js';
import { isObject, type Json } from './convert.js';
import {
  addExtensionsHeader03,
  errorObject03,
  httpStatus03,
  requestedExtensions03,
} from './errors.js';
import { createConfigFrom03, sendParamsFrom03 } from './requests.js';
import { eventText03, protoResultText03 } from './text.js';
import { V03_VERSION } from './wire.js';
import { withFields } from '../../core/with-fields.js';

const JSON_TYPE = 'application/json';

/** One matched 0.3 route: the operation and its 1.0 parameters before the body is read. */
interface Route03 {
  readonly operation: OperationName;
  readonly taskId?: string | undefined;
  readonly configId?: string | undefined;
}

const SEND: Route03 = { operation: 'SendMessage' };
const STREAM: Route03 = { operation: 'SendStreamingMessage' };

/** Matches `method` + `path` (relative to `/v1`), or undefined. */
export function matchRoute03(method: string, path: string): Route03 | undefined {
  // The sends first, without splitting: they are most of the traffic.
  if (method === 'POST' && path === '/message:send') return SEND;
  if (method === 'POST' && path === '/message:stream') return STREAM;
  const segments = path.replace(/\/+$/, '').split('/').slice(1).map(decode);
  const [a, b, c, d] = segments;
  if (segments.includes(undefined as never)) return undefined;
  if (segments.length === 1) {
    if (a === 'card' && method === 'GET') return { operation: 'GetExtendedAgentCard' };
    if (a === 'message:send' && method === 'POST') return { operation: 'SendMessage' };
    if (a === 'message:stream' && method === 'POST') return { operation: 'SendStreamingMessage' };
    return undefined;
  }
  if (a !== 'tasks' || b === undefined || b === '') return undefined;
  if (segments.length === 2) {
    const colon = b.lastIndexOf(':');
    const verb = colon < 0 ? '' : b.slice(colon);
    const taskId = colon < 0 ? b : b.slice(0, colon);
    if (verb === '' && method === 'GET') return { operation: 'GetTask', taskId };
    if (verb === ':cancel' && method === 'POST') return { operation: 'CancelTask', taskId };
    if (verb === ':subscribe' && (method === 'GET' || method === 'POST')) {
      return { operation: 'SubscribeToTask', taskId };
    }
    return undefined;
  }
  if (c !== 'pushNotificationConfigs') return undefined;
  if (segments.length === 3) {
    if (method === 'POST') return { operation: 'CreateTaskPushNotificationConfig', taskId: b };
    if (method === 'GET') return { operation: 'ListTaskPushNotificationConfigs', taskId: b };
    return undefined;
  }
  if (segments.length !== 4 || d === undefined || d === '') return undefined;
  if (method === 'GET')
    return { operation: 'GetTaskPushNotificationConfig', taskId: b, configId: d };
  if (method === 'DELETE') {
    return { operation: 'DeleteTaskPushNotificationConfig', taskId: b, configId: d };
  }
  return undefined;
}

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined as never;
  }
}

/** Answers one 0.3 request; `path` is relative to `/v1`. Never throws. */
export async function handleRest03(
  req: HttpRequest,
  path: string,
  query: string,
  ctx: BindingContext,
): Promise<HttpResponse> {
  try {
    const route = matchRoute03(req.method, path);
    if (route === undefined) {
      throw new A2AError('METHOD_NOT_FOUND', `No A2A 0.3 operation at ${req.method} /v1${path}`);
    }
    const extensions = requestedExtensions03(req.headers.get('x-a2a-extensions'));
    if (extensions !== undefined) ctx.call.requestedExtensions = extensions;
    ctx.call.protocolVersion = V03_VERSION;
    const name = route.operation;
    ctx.operation = name;
    const params = withLastEventId(
      name,
      parseParams(name, paramsOf(route, req, query, ctx.maxBodyBytes)),
      req,
    );
    if (OPERATIONS[name].streaming) {
      const source = await ctx.service.stream(name as 'SubscribeToTask', params, ctx.call);
      return {
        status: 200,
        headers: addExtensionsHeader03({ ...SSE_HEADERS }, ctx.call.activatedExtensions),
        body: encodeSse(source, {
          keepAliveMs: ctx.keepAliveMs,
          data: (item) => eventText03(item.event, 'proto'),
          errorFrame: (error) =>
            `event: error\n${sseFrame(JSON.stringify(errorObject03(toA2AError(error, ctx.onError))))}`,
        }),
      };
    }
    const result = await ctx.service.invoke(name, params, ctx.call);
    if (name === 'DeleteTaskPushNotificationConfig') {
      return {
        status: 204,
        headers: addExtensionsHeader03({}, ctx.call.activatedExtensions),
        body: undefined,
      };
    }
    return {
      status: 200,
      headers: addExtensionsHeader03({ 'content-type': JSON_TYPE }, ctx.call.activatedExtensions),
      body: protoResultText03(name, result, cardTo03),
    };
  } catch (error) {
    return errorResponse03(toA2AError(error, ctx.onError));
  }
}

/** A 0.3 HTTP+JSON error response: the bare error object with the catalog's status. */
export function errorResponse03(error: A2AError): HttpResponse {
  return {
    status: httpStatus03(error),
    headers: withFields(error.headers, { 'content-type': JSON_TYPE }),
    body: JSON.stringify(errorObject03(error)),
    error,
  };
}

/** The 1.0 parameters of a route: path fields over the body or the query. */
function paramsOf(route: Route03, req: HttpRequest, query: string, maxBodyBytes: number): Json {
  const { taskId, configId } = route;
  switch (route.operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsFrom03(body(req, maxBodyBytes), 'proto');
    case 'GetTask': {
      const q = new URLSearchParams(query);
      const history = q.get('historyLength') ?? q.get('history_length');
      return history === null ? { id: taskId } : { id: taskId, historyLength: Number(history) };
    }
    case 'CancelTask':
    case 'SubscribeToTask':
      return { id: taskId };
    case 'CreateTaskPushNotificationConfig':
      return createConfigFrom03(taskId, body(req, maxBodyBytes));
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return { taskId, id: configId };
    case 'ListTaskPushNotificationConfigs':
      return { taskId };
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return {};
  }
}

function body(req: HttpRequest, maxBodyBytes: number): Json {
  const contentType = req.headers.get('content-type');
  if (contentType === null || !isJsonMediaType(contentType)) {
    throw unsupportedMediaType(contentType, JSON_TYPE);
  }
  let value: unknown;
  try {
    value = JSON.parse(bodyText(req, maxBodyBytes));
  } catch (error) {
    if (error instanceof A2AError) throw error;
    throw new A2AError('PARSE_ERROR', 'Parse error: the request body is not valid JSON');
  }
  if (!isObject(value)) {
    throw new A2AError('INVALID_PARAMS', 'Invalid params: the body must be a JSON object', {
      fieldViolations: [{ field: 'body', description: 'must be a JSON object' }],
    });
  }
  return value;
}
