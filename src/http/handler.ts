/**
 * The A2A HTTP router: serves the public Agent Card and the bindings it is given (each an
 * {@link HttpBinding}), reading the service parameters (`A2A-Version`, `A2A-Extensions`) and
 * refusing cross-site writes and unauthenticated calls on the way in. Runtime-neutral: adapters
 * in `node/` and `fetch.ts` wrap it. It knows no binding by name; `bindings/a2a-handler.ts`
 * assembles the default ones.
 */
import type { CallContext } from '../core/call-context.js';
import {
  A2AError,
  type InternalErrorReporter,
  logInternalError,
  toA2AError,
} from '../core/errors.js';
import type { OperationMiddleware } from '../core/middleware.js';
import type { OperationName } from '../core/operations.js';
import { reportRefusal } from '../core/refusal.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import type { A2AService } from '../core/service.js';
import { handlerSecurity, type HandlerSecurityOptions } from './access.js';
import { AGENT_CARD_PATH, createAgentCardEndpoint } from './agent-card.js';
import {
  bindingInterfaces,
  normalizePath,
  type BindingContext,
  type HttpBinding,
} from './binding.js';
import { crossSiteGuard } from './cross-site.js';
import { statusResponse } from './errors.js';
import { requestedExtensions, requestedVersion, versionError } from './service-params.js';
import type { HttpHandler, HttpRequest, HttpResponse, RoutedHttpHandler } from './types.js';

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends HandlerSecurityOptions {
  /**
   * Public origin the card advertises (`https://agent.example.com`); interface URLs are this
   * plus the binding paths. When absent it is derived per request from the Host header.
   */
  baseUrl?: string | undefined;
  /** Largest accepted request body in bytes (default 10 MiB); larger → PAYLOAD_TOO_LARGE. */
  maxBodyBytes?: number | undefined;
  /** Interval of SSE keep-alive comments while a stream is idle (default 15000 ms). */
  keepAliveMs?: number | undefined;
  /** `max-age` of the public card (default 300 s). */
  cardMaxAgeSeconds?: number | undefined;
  /** Receives unexpected errors before they are answered as INTERNAL (default: stderr). */
  onError?: InternalErrorReporter | undefined;
  /** Extra unauthenticated routes by exact path (e.g. the push JWKS). */
  routes?: Readonly<Record<string, HttpHandler>> | undefined;
  /** Interfaces served elsewhere (a gRPC port), listed after the HTTP bindings. */
  extraInterfaces?: readonly AgentInterface[] | undefined;
  /**
   * Another card body for requests of another protocol version (the 0.3 hybrid card of
   * `compat: ['0.3']`): `when` gets the request's `A2A-Version` (`''` when absent). Both bodies
   * are then served with `Vary: A2A-Version`.
   */
  versionedCard?:
    | {
        when(version: string): boolean;
        card(card: AgentCard): Record<string, unknown>;
      }
    | undefined;
  /**
   * Your operation middleware (logging, rate limits, authorization; see docs/middleware.md), run for
   * every operation after the built-in access control, the first outermost.
   */
  middleware?: readonly OperationMiddleware[] | undefined;
}

/** Default of {@link HttpHandlerOptions.maxBodyBytes}: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** One binding as the router matches it. */
interface Route {
  readonly binding: HttpBinding;
  readonly path: string;
  readonly slashed: string;
  readonly prefix: boolean;
  readonly allow: string | undefined;
}

/** Creates the request handler of `service` (an A2AServer) over `bindings`, in card order. */
export function createHttpHandler(
  service: A2AService,
  bindings: readonly HttpBinding[],
  options: HttpHandlerOptions = {},
): RoutedHttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const onError = options.onError ?? logInternalError;
  const fixedBaseUrl = options.baseUrl?.replace(/\/+$/, '');
  const security = handlerSecurity(service, options);
  const crossSite = crossSiteGuard({ cors: options.cors, baseUrl: fixedBaseUrl });
  const routes: Route[] = bindings.map((binding) => {
    const path = normalizePath(binding.path);
    const allow = binding.methods?.join(', ');
    return { binding, path, slashed: `${path}/`, prefix: binding.match === 'prefix', allow };
  });

  // Spec §8.3.1: interfaces in preference order, the bindings' own first, each with its URL.
  const interfaces = (baseUrl: string): AgentInterface[] =>
    bindingInterfaces(baseUrl, bindings, options.extraInterfaces);
  const baseCard = (baseUrl: string) => options.card ?? service.agentCard(interfaces(baseUrl));
  const variant = options.versionedCard;
  const vary = variant === undefined ? undefined : { vary: 'A2A-Version' };
  const lastModified = new Date();
  const card = createAgentCardEndpoint({
    card: baseCard,
    maxAgeSeconds: options.cardMaxAgeSeconds ?? 300,
    lastModified,
    headers: vary,
  });
  const otherCard =
    variant &&
    createAgentCardEndpoint({
      card: (baseUrl) => variant.card(baseCard(baseUrl)),
      maxAgeSeconds: options.cardMaxAgeSeconds ?? 300,
      lastModified,
      headers: vary,
    });

  function context(req: HttpRequest, query: string, binding: HttpBinding): BindingContext {
    const call = new HttpCallContext(req, binding.protocolBinding);
    const extensions = requestedExtensions(req);
    if (extensions !== undefined) call.requestedExtensions = extensions;
    return new RequestBindingContext(
      security.service,
      keepAliveMs,
      maxBodyBytes,
      onError,
      call,
      requestedVersion(req, query),
    );
  }

  // Every request to a binding is answered here: one refused before an observing middleware
  // (request log, tracing) saw it is reported to that middleware (core/refusal.ts).
  const observed = security.service.refused !== undefined;

  // Not async: a binding's promise is returned as it is (one promise per request fewer).
  function serveBinding(
    route: Route,
    req: HttpRequest,
    rest: string,
    query: string,
  ): Promise<HttpResponse> {
    const ctx = context(req, query, route.binding);
    return observed
      ? answerObserved(route, req, rest, query, ctx)
      : answer(route, req, rest, query, ctx);
  }

  async function answerObserved(
    route: Route,
    req: HttpRequest,
    rest: string,
    query: string,
    ctx: BindingContext,
  ): Promise<HttpResponse> {
    const startedAt = performance.now();
    const response = await answer(route, req, rest, query, ctx);
    const error = response.error;
    if (error !== undefined) {
      const { operation, call } = ctx;
      reportRefusal(security.service, { operation, call, error, startedAt }, onError);
    }
    return response;
  }

  function answer(
    route: Route,
    req: HttpRequest,
    rest: string,
    query: string,
    ctx: BindingContext,
  ): Promise<HttpResponse> {
    const { binding } = route;
    if (rest === '' && route.allow !== undefined && !binding.methods?.includes(req.method)) {
      return Promise.resolve(methodNotAllowed(req.method, route.allow));
    }
    // Cross-site writes, then authentication and rate limits: before any parsing or lookup
    // (spec §13.1).
    const crossSiteRefusal = crossSite(req);
    if (crossSiteRefusal !== undefined) {
      return Promise.resolve(binding.refuse(req, crossSiteRefusal, ctx));
    }
    const admission = security.admit(binding, req, query, ctx.call);
    if (admission !== undefined) {
      return admission.then((refused) =>
        refused !== undefined
          ? binding.refuse(req, refused, ctx)
          : binding.handle(req, rest, query, ctx),
      );
    }
    return binding.handle(req, rest, query, ctx);
  }

  function route(req: HttpRequest): Promise<HttpResponse> | HttpResponse {
    const url = req.url.charCodeAt(0) === 47 /* '/' */ ? req.url : originForm(req.url);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    for (const r of routes) {
      if (path === r.path || path === r.slashed) return serveBinding(r, req, '', query);
      if (r.prefix && path.startsWith(r.slashed)) {
        return serveBinding(r, req, path.slice(r.path.length), query);
      }
    }
    if (path === AGENT_CARD_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(req.method, 'GET');
      const base = (fixedBaseUrl ?? derivedBaseUrl(req)) + (req.basePath ?? '');
      if (otherCard && variant?.when(requestedVersion(req, query))) return otherCard(req, base);
      return card(req, base);
    }
    const extra =
      options.routes && Object.hasOwn(options.routes, path) ? options.routes[path] : undefined;
    if (extra !== undefined) return extra(req);
    const published = security.published(req, path);
    if (published !== undefined) return published;
    return statusResponse(
      new A2AError('METHOD_NOT_FOUND', `Not found: ${req.method} ${path}`),
      'application/json',
    );
  }

  function owns(path: string): boolean {
    for (const r of routes) {
      if (path === r.path || path === r.slashed || (r.prefix && path.startsWith(r.slashed))) {
        return true;
      }
    }
    return (
      path === AGENT_CARD_PATH ||
      (options.routes !== undefined && Object.hasOwn(options.routes, path)) ||
      path === options.publicJwks?.path
    );
  }

  // The bindings answer their own errors; this is the last line against a crash.
  const crashed = (error: unknown) =>
    statusResponse(toA2AError(error, onError), 'application/json');
  const handler = security.cors((req) => {
    try {
      const response = route(req);
      return response instanceof Promise ? response.catch(crashed) : Promise.resolve(response);
    } catch (error) {
      return Promise.resolve(crashed(error));
    }
  });
  return Object.assign(handler, { owns });
}

function methodNotAllowed(method: string, allow: string): HttpResponse {
  const error = new A2AError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}`);
  return statusResponse(error, 'application/json', { allow });
}

/** The path and query of an absolute-form request target (RFC 9112 §3.2.2). */
function originForm(target: string): string {
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return '/';
  }
}

/** `scheme://host` of the request: the adapter's origin, else `http://` + the Host header. */
function derivedBaseUrl(req: HttpRequest): string {
  if (req.origin !== undefined) return req.origin;
  const host = req.headers.get('host');
  // A Host header is client input: anything but a plain host[:port] must not reach the card.
  return host !== null && HOST.test(host) ? `http://${host}` : 'http://localhost';
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** What the router passes a binding; the VersionNotSupported error is made when read. */
class RequestBindingContext implements BindingContext {
  constructor(
    readonly service: A2AService,
    readonly keepAliveMs: number,
    readonly maxBodyBytes: number,
    readonly onError: InternalErrorReporter,
    readonly call: CallContext,
    private readonly version: string,
  ) {}

  /** The operation, set by the binding once it knows it (a refusal's log line and span). */
  operation: OperationName | undefined = undefined;

  // A 0.3 binding serves the requests it refuses (their versions), and an error's stack trace
  // is not free.
  get versionError(): A2AError | undefined {
    return versionError(this.version);
  }
}

/** The call context of one HTTP request; its signal is the request's, read when needed. */
class HttpCallContext implements CallContext {
  // Every field a binding or the server may set is declared, so each call context has one shape.
  tenant?: string | undefined;
  principal?: CallContext['principal'];
  requestedExtensions?: readonly string[] | undefined;
  activatedExtensions?: string[] | undefined;
  firstEventId?: string | undefined;
  protocolVersion?: string | undefined;
  readonly remoteAddress: string | undefined;
  private ownSignal: AbortSignal | undefined;

  constructor(
    private readonly req: HttpRequest,
    readonly protocolBinding: string,
  ) {
    this.remoteAddress = req.remoteAddress;
  }

  get signal(): AbortSignal | undefined {
    return this.ownSignal ?? this.req.signal;
  }

  get headers(): HttpRequest['headers'] {
    return this.req.headers;
  }

  set signal(signal: AbortSignal | undefined) {
    this.ownSignal = signal;
  }
}
