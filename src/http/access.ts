/**
 * The HTTP side of access control: every JSON-RPC and HTTP+JSON request is authenticated and
 * rate-limited before its binding parses or looks anything up (spec §13.1, checklist [198]), and
 * refused in its binding's shape: a google.rpc.Status body on HTTP+JSON, a JSON-RPC error object
 * on JSON-RPC, both with the HTTP status (401, 403, 429) and `WWW-Authenticate` / `Retry-After`.
 */
import { ERROR_CATALOG } from '../core/errors.js';
import type { AgentCard } from '../core/schemas/index.js';
import { errorJson } from '../bindings/jsonrpc/server.js';
import { JSONRPC_CONTENT_TYPE } from '../bindings/jsonrpc/wire.js';
import { responseType } from '../bindings/rest/server.js';
import type { AuthOptions } from '../security/auth/options.js';
import type { AuthBinding, AuthRequest } from '../security/auth/types.js';
import { AccessControl, type Refusal } from '../security/limits/access-control.js';
import { withCors, type CorsOptions } from '../security/limits/cors.js';
import type { LimitOptions } from '../security/limits/message-limits.js';
import { bodyText } from './body.js';
import { statusResponse } from './errors.js';
import type { BindingContext, HttpHandler, HttpRequest, HttpResponse } from './types.js';
import type { A2AService } from '../core/service.js';

/** The security options of the HTTP handler (see docs/security.md). */
export interface HandlerSecurityOptions {
  /**
   * Authentication: how to verify the schemes the card declares, or your own authenticator.
   * Required when the card declares `securityRequirements`.
   */
  auth?: AuthOptions | undefined;
  /** Message, history, rate and stream limits (defaults in `DEFAULT_LIMITS`). */
  limits?: LimitOptions | undefined;
  /** CORS for browser clients (default off: same-origin only). */
  cors?: CorsOptions | undefined;
  /** Access control shared with other listeners (serve() shares one with gRPC); wins over auth/limits. */
  access?: AccessControl | undefined;
  /** The card to serve as is, e.g. signed at start-up; default built per base URL. */
  card?: AgentCard | undefined;
  /** A JWKS document published at `path` (the public keys of the card's signatures). */
  publicJwks?:
    { readonly path: string; readonly jwks: { readonly keys: readonly object[] } } | undefined;
}

/** What the handler needs from its security options. */
export interface HandlerSecurity {
  /** The service with the per-operation checks. */
  readonly service: A2AService;
  readonly gate: HttpGate;
  /** The JWKS reply for a GET of its path, else undefined. */
  published(req: HttpRequest, path: string): HttpResponse | undefined;
  /** Adds CORS when configured. */
  cors(handler: HttpHandler): HttpHandler;
}

/** Builds the access control, gate, JWKS route and CORS of one handler. */
export function handlerSecurity(
  service: A2AService,
  options: HandlerSecurityOptions,
  maxBodyBytes: number,
): HandlerSecurity {
  const card = service.agentCard([]);
  const access =
    options.access ?? new AccessControl(card, { auth: options.auth, limits: options.limits });
  const jwks = options.publicJwks;
  const jwksBody = jwks && JSON.stringify(jwks.jwks);
  const cors = options.cors;
  // API keys in headers are request headers a browser must be allowed to send.
  const keyHeaders = Object.values(card.securitySchemes ?? {}).flatMap((s) =>
    s.apiKeySecurityScheme?.location === 'header' ? [s.apiKeySecurityScheme.name] : [],
  );
  return {
    service: access.wrap(service),
    gate: createHttpGate(access, maxBodyBytes),
    published(req, path) {
      if (jwks === undefined || jwksBody === undefined || path !== jwks.path) return undefined;
      if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' },
        body: jwksBody,
      };
    },
    cors: (handler) =>
      cors === undefined
        ? handler
        : withCors(handler, {
            ...cors,
            allowHeaders: [...keyHeaders, ...(cors.allowHeaders ?? [])],
          }),
  };
}

/** Runs one binding request behind the access control. */
export type HttpGate = (
  binding: Exclude<AuthBinding, 'GRPC'>,
  req: HttpRequest,
  query: string,
  ctx: BindingContext,
  next: () => Promise<HttpResponse>,
) => Promise<HttpResponse>;

/** The gate of a handler whose bodies are limited to `maxBodyBytes`. */
export function createHttpGate(access: AccessControl, maxBodyBytes: number): HttpGate {
  // A public agent without limits has nothing to check: the request goes straight through.
  if (access.open) return (_binding, _req, _query, _ctx, next) => next();
  return async (binding, req, query, ctx, next) => {
    const refusal = await access.admit(authRequest(binding, req, query), ctx.call);
    if (refusal !== undefined) return refuse(binding, req, refusal, maxBodyBytes);
    const response = await next();
    const late = access.lateRefusal(ctx.call);
    if (late !== undefined) {
      // A refusal inside the operation (skill scopes, extended card, stream limit): the binding
      // rendered the error; the HTTP status and challenge headers are added here.
      response.status = ERROR_CATALOG[late.error.code].http;
      response.headers = { ...response.headers, ...late.headers };
    }
    return response;
  };
}

/** What an authenticator sees of an HTTP request. */
export function authRequest(
  binding: Exclude<AuthBinding, 'GRPC'>,
  req: HttpRequest,
  query: string,
): AuthRequest {
  let params: URLSearchParams | undefined;
  return {
    binding,
    headers: req.headers,
    // Parsed only when a scheme reads the query (API keys in the query string).
    get query() {
      return (params ??= new URLSearchParams(query));
    },
    ...(req.clientCertificate === undefined ? {} : { clientCertificate: req.clientCertificate }),
    ...(req.remoteAddress === undefined ? {} : { remoteAddress: req.remoteAddress }),
  };
}

function refuse(
  binding: Exclude<AuthBinding, 'GRPC'>,
  req: HttpRequest,
  refusal: Refusal,
  maxBodyBytes: number,
): HttpResponse {
  const { error, headers } = refusal;
  if (binding === 'HTTP+JSON') return statusResponse(error, responseType(req), { ...headers });
  return {
    status: ERROR_CATALOG[error.code].http,
    headers: { ...headers, 'content-type': JSONRPC_CONTENT_TYPE },
    body: errorJson(requestIdJson(req, maxBodyBytes), error),
  };
}

/** The JSON of the request's JSON-RPC `id` when the body has a usable one, else `null`. */
function requestIdJson(req: HttpRequest, maxBodyBytes: number): string {
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
