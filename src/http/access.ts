/**
 * The HTTP side of access control: every request to a binding is authenticated and rate-limited
 * before the binding parses or looks anything up (spec §13.1, requirement 198 of test/conformance/requirements.ts); the per-operation
 * checks run as the first operation middleware. Refusals are A2AErrors carrying their HTTP
 * headers (`WWW-Authenticate`, `Retry-After`); the binding renders them in its own shape.
 */
import type { CallContext } from '../core/call-context.js';
import type { A2AError } from '../core/errors.js';
import { withMiddleware, type OperationMiddleware } from '../core/middleware.js';
import type { AgentCard } from '../core/schemas/index.js';
import type { A2AService } from '../core/service.js';
import type { AuthOptions } from '../security/auth/options.js';
import type { AuthRequest } from '../security/auth/types.js';
import { AccessControl } from '../security/limits/access-control.js';
import type { LimitOptions } from '../security/limits/message-limits.js';
import type { HttpBinding } from './binding.js';
import { withCors, type CorsOptions } from './cors.js';
import type { HttpHandler, HttpRequest, HttpResponse } from './types.js';

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
  /** Operation middleware run after the access control's (see {@link withMiddleware}). */
  middleware?: readonly OperationMiddleware[] | undefined;
}

/** What the handler needs from its security options. */
export interface HandlerSecurity {
  /** The service behind the operation middleware: access control first, then the user's. */
  readonly service: A2AService;
  /** Authenticates and rate-limits one request; the refusal, or undefined to go on. */
  admit(
    binding: HttpBinding,
    req: HttpRequest,
    query: string,
    call: CallContext,
  ): Promise<A2AError | undefined> | undefined;
  /** The JWKS reply for a GET of its path, else undefined. */
  published(req: HttpRequest, path: string): HttpResponse | undefined;
  /** Adds CORS when configured. */
  cors(handler: HttpHandler): HttpHandler;
}

/** Builds the access control, admission, JWKS route and CORS of one handler. */
export function handlerSecurity(
  service: A2AService,
  options: HandlerSecurityOptions,
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
    service: withMiddleware(service, [access.middleware, ...(options.middleware ?? [])]),
    // A public agent without limits has nothing to check: the request goes straight through.
    admit: access.open
      ? () => undefined
      : (binding, req, query, call) =>
          access.admit(authRequest(binding.protocolBinding, req, query), call),
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

/** What an authenticator sees of an HTTP request. */
export function authRequest(binding: string, req: HttpRequest, query: string): AuthRequest {
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
    // Built when a scheme reads it (signed requests): the URL the client called.
    get message() {
      return { method: req.method, url: targetUri(req), body: req.body };
    },
  };
}

/**
 * The target URI of a request (RFC 9110 §7.1): its origin (the adapter's, else the scheme of
 * the connection and the Host header), mount path, path and query.
 */
export function targetUri(req: HttpRequest): string {
  const origin =
    req.origin ?? `${req.secure ? 'https' : 'http'}://${req.headers.get('host') ?? 'localhost'}`;
  return origin + (req.basePath ?? '') + req.url;
}
