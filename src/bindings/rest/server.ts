/**
 * Server side of the HTTP+JSON binding (spec §11): routes of REST_ROUTES (also under
 * `/{tenant}`), request = path fields over body or query fields, success = the ProtoJSON response
 * with status 200, errors = google.rpc.Status with the catalog's HTTP status (spec §11.6),
 * streaming = SSE whose `data` is the bare StreamResponse (spec §11.7). A trailing slash is
 * ignored (`/tasks/` is `/tasks`). A body must be sent as `application/a2a+json` or
 * `application/json`: other types, and a body without a Content-Type, are refused with 415.
 */
import { A2AError, toA2AError } from '../../core/errors.js';
import {
  OPERATIONS,
  type OperationName,
  type StreamingOperationName,
} from '../../core/operations.js';
import { parseParams } from '../../core/validate.js';
import { normalizePath, type BindingContext, type HttpBinding } from '../../http/binding.js';
import { bodyText } from '../../http/body.js';
import { statusJson, statusResponse } from '../../http/errors.js';
import {
  JSON_TYPE,
  isJsonMediaType,
  mediaType,
  unsupportedMediaType,
} from '../../http/media-type.js';
import { addExtensionsHeader, withLastEventId } from '../../http/service-params.js';
import { SSE_HEADERS, encodeSse } from '../../http/sse-encode.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { matchRoute, queryFields } from './router.js';
import { A2A_JSON, type RestRoute } from './wire.js';
import { withFields } from '../../core/with-fields.js';

/** Options of {@link restBinding}. */
export interface RestBindingOptions {
  /** Base path of the routes (default `/a2a/rest`). */
  path?: string | undefined;
}

/** The HTTP+JSON binding (spec §11) for the HTTP router: every route under its base path. */
export function restBinding(options: RestBindingOptions = {}): HttpBinding {
  return {
    protocolBinding: 'HTTP+JSON',
    path: normalizePath(options.path ?? '/a2a/rest'),
    match: 'prefix',
    handle: handleRest,
    refuse: (req, error) => statusResponse(error, responseType(req), { ...error.headers }),
  };
}

/**
 * Answers one request under the REST base path; `path` is relative to it (starts with `/` or is
 * empty) and `query` is the raw query string. Never throws.
 */
export async function handleRest(
  req: HttpRequest,
  path: string,
  query: string,
  ctx: BindingContext,
): Promise<HttpResponse> {
  const contentType = responseType(req);
  try {
    const match = matchRoute(req.method, routePath(path));
    if (match.kind === 'not-found') {
      throw new A2AError('METHOD_NOT_FOUND', `No A2A operation at ${req.method} ${path || '/'}`);
    }
    if (match.kind === 'method-not-allowed') {
      const error = new A2AError(
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed here; use ${match.allow.join(' or ')}`,
      );
      return statusResponse(error, contentType, { allow: match.allow.join(', ') });
    }
    ctx.operation = match.route.operation;
    const versionRefused = ctx.versionError;
    if (versionRefused !== undefined) throw versionRefused;
    const { route } = match;
    // Path-bound fields (and the path tenant) win over body and query (spec §11.3).
    const fields = withFields(requestFields(req, route, query, ctx.maxBodyBytes), match.fields);
    if (match.tenant !== undefined) fields.tenant = match.tenant;
    const params = withLastEventId(route.operation, parseParams(route.operation, fields), req);
    ctx.call.tenant = params.tenant;
    if (isStreaming(route.operation)) {
      const source = await ctx.service.stream(route.operation, params, ctx.call);
      return {
        status: 200,
        headers: addExtensionsHeader({ ...SSE_HEADERS }, ctx.call.activatedExtensions),
        body: encodeSse(source, {
          keepAliveMs: ctx.keepAliveMs,
          data: (item) => JSON.stringify(item.event),
          errorFrame: (error) =>
            `event: error\ndata: ${statusJson(toA2AError(error, ctx.onError))}\n\n`,
        }),
      };
    }
    const result = await ctx.service.invoke(route.operation, params, ctx.call);
    return {
      status: 200,
      headers: addExtensionsHeader({ 'content-type': contentType }, ctx.call.activatedExtensions),
      body: JSON.stringify(result) ?? '{}',
    };
  } catch (error) {
    const failure = toA2AError(error, ctx.onError);
    const headers = addExtensionsHeader({ ...failure.headers }, ctx.call.activatedExtensions);
    return statusResponse(failure, contentType, headers);
  }
}

/** The path to route: `/` for the base itself, one trailing slash dropped (`/tasks/` → `/tasks`). */
function routePath(path: string): string {
  if (path === '' || path === '/') return '/';
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The media type of the reply: the one the client asked for in `Accept` (a2a+json preferred),
 * else the one it sent, else `application/a2a+json` (spec §11.1, v1.0.1).
 */
export function responseType(req: HttpRequest): string {
  const accept = req.headers.get('accept');
  if (accept !== null) {
    if (accept.includes(A2A_JSON)) return A2A_JSON;
    if (accept.includes(JSON_TYPE)) return JSON_TYPE;
  }
  const sent = req.headers.get('content-type');
  if (sent !== null && mediaType(sent) === JSON_TYPE) return JSON_TYPE;
  return A2A_JSON;
}

/** The request fields carried outside the path: query parameters or the JSON body. */
function requestFields(
  req: HttpRequest,
  route: RestRoute,
  query: string,
  maxBodyBytes: number,
): Record<string, unknown> {
  // The limit applies to every route, also those that ignore their body.
  const text = bodyText(req, maxBodyBytes);
  switch (route.input) {
    case 'query':
      return queryFields(query);
    case 'none':
      return {};
    case 'body':
      return jsonBody(text, req.headers.get('content-type'));
  }
}

/**
 * Parses a POST body: JSON media types only, a body without Content-Type included (a web page
 * can send both without a CORS preflight); an empty body without one is `{}` (e.g. `:cancel`).
 */
function jsonBody(text: string, contentType: string | null): Record<string, unknown> {
  if (contentType === null) {
    if (text === '') return {};
    throw unsupportedMediaType(contentType, A2A_JSON);
  }
  if (!isJsonMediaType(contentType)) throw unsupportedMediaType(contentType, A2A_JSON);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new A2AError('PARSE_ERROR', 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new A2AError('INVALID_PARAMS', 'The request body must be a JSON object', {
      fieldViolations: [{ field: 'body', description: 'must be a JSON object' }],
    });
  }
  return body as Record<string, unknown>;
}

function isStreaming(name: OperationName): name is StreamingOperationName {
  return OPERATIONS[name].streaming;
}
