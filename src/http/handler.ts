/**
 * The A2A HTTP handler: serves the public Agent Card, the JSON-RPC endpoint and the HTTP+JSON
 * routes of one server, reading the service parameters (`A2A-Version`, `A2A-Extensions`) on the
 * way in. Runtime-neutral: adapters in `node/` and `fetch.ts` wrap it.
 */
import {
  A2AError,
  type InternalErrorReporter,
  logInternalError,
  toA2AError,
} from '../core/errors.js';
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import type { AgentInterface } from '../core/schemas/index.js';
import type { CallContext } from '../core/call-context.js';
import { handleJsonRpc } from '../bindings/jsonrpc/server.js';
import { handleRest } from '../bindings/rest/server.js';
import { handlerSecurity, type HandlerSecurityOptions } from './access.js';
import { AGENT_CARD_PATH, createAgentCardEndpoint } from './agent-card.js';
import { statusResponse } from './errors.js';
import { requestedExtensions, requestedVersion, versionError } from './service-params.js';
import type { BindingContext, HttpHandler, HttpRequest, HttpResponse } from './types.js';
import type { A2AService } from '../core/service.js';

/** Options of {@link createA2AHandler}. */
export interface A2AHandlerOptions extends HandlerSecurityOptions {
  /**
   * Public origin the card advertises (`https://agent.example.com`); interface URLs are this
   * plus the binding paths. When absent it is derived per request from the Host header.
   */
  baseUrl?: string | undefined;
  /** Path of the JSON-RPC endpoint (default `/a2a/jsonrpc`). */
  jsonrpcPath?: string | undefined;
  /** Base path of the HTTP+JSON routes (default `/a2a/rest`). */
  restPath?: string | undefined;
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
  /** Interfaces served elsewhere (a gRPC port), listed after JSON-RPC and HTTP+JSON. */
  extraInterfaces?: readonly AgentInterface[] | undefined;
}

/** Default of {@link A2AHandlerOptions.maxBodyBytes}: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Creates the request handler of `service` (an A2AServer). */
export function createA2AHandler(
  service: A2AService,
  options: A2AHandlerOptions = {},
): HttpHandler {
  const jsonrpcPath = normalizePath(options.jsonrpcPath ?? '/a2a/jsonrpc');
  const restPath = normalizePath(options.restPath ?? '/a2a/rest');
  const restPrefix = `${restPath}/`;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const onError = options.onError ?? logInternalError;
  const fixedBaseUrl = options.baseUrl?.replace(/\/+$/, '');
  const security = handlerSecurity(service, options, maxBodyBytes);

  // Spec §8.3.1: interfaces in preference order, JSON-RPC first, each with its absolute URL.
  const interfaces = (baseUrl: string): AgentInterface[] => cardInterfaces(baseUrl, options);
  const card = createAgentCardEndpoint({
    card: (baseUrl) => options.card ?? service.agentCard(interfaces(baseUrl)),
    maxAgeSeconds: options.cardMaxAgeSeconds ?? 300,
    lastModified: new Date(),
  });

  function context(req: HttpRequest, query: string): BindingContext {
    const call = new HttpCallContext(req);
    const extensions = requestedExtensions(req);
    if (extensions !== undefined) call.requestedExtensions = extensions;
    const lastEventId = req.headers.get('last-event-id');
    if (lastEventId !== null) call.lastEventId = lastEventId;
    return {
      service: security.service,
      keepAliveMs,
      maxBodyBytes,
      onError,
      call,
      versionError: versionError(requestedVersion(req, query)),
    };
  }

  async function route(req: HttpRequest): Promise<HttpResponse> {
    const url = req.url.charCodeAt(0) === 47 /* '/' */ ? req.url : originForm(req.url);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    // Authentication and rate limits come before any parsing or lookup (spec §13.1).
    if (path === jsonrpcPath && req.method === 'POST') {
      const ctx = context(req, query);
      return security.gate('JSONRPC', req, query, ctx, () => handleJsonRpc(req, ctx));
    }
    if (path.startsWith(restPrefix) || path === restPath) {
      const ctx = context(req, query);
      const rest = path.slice(restPath.length);
      return security.gate('HTTP+JSON', req, query, ctx, () => handleRest(req, rest, query, ctx));
    }
    if (path === jsonrpcPath) return methodNotAllowed(req.method, 'POST');
    if (path === AGENT_CARD_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(req.method, 'GET');
      return card(req, fixedBaseUrl ?? derivedBaseUrl(req));
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

  return security.cors(async (req) => {
    try {
      return await route(req);
    } catch (error) {
      // The bindings answer their own errors; this is the last line against a crash.
      return statusResponse(toA2AError(error, onError), 'application/json');
    }
  });
}

/**
 * The interfaces the card lists for `baseUrl`, in preference order (spec §8.3.1): JSON-RPC,
 * HTTP+JSON, then `extraInterfaces`, each with its absolute URL.
 */
export function cardInterfaces(
  baseUrl: string,
  options: Pick<A2AHandlerOptions, 'jsonrpcPath' | 'restPath' | 'extraInterfaces'> = {},
): AgentInterface[] {
  const jsonrpcPath = normalizePath(options.jsonrpcPath ?? '/a2a/jsonrpc');
  const restPath = normalizePath(options.restPath ?? '/a2a/rest');
  return [
    { url: baseUrl + jsonrpcPath, protocolBinding: 'JSONRPC', protocolVersion: PROTOCOL_VERSION },
    { url: baseUrl + restPath, protocolBinding: 'HTTP+JSON', protocolVersion: PROTOCOL_VERSION },
    ...(options.extraInterfaces ?? []),
  ];
}

function methodNotAllowed(method: string, allow: string): HttpResponse {
  const error = new A2AError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}`);
  return statusResponse(error, 'application/json', { allow });
}

/** `/a2a/rest/` → `/a2a/rest`; always with a leading slash. */
function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
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

/** The call context of one HTTP request; its signal is the request's, read when needed. */
class HttpCallContext implements CallContext {
  tenant?: string | undefined;
  principal?: CallContext['principal'];
  requestedExtensions?: readonly string[] | undefined;
  activatedExtensions?: string[] | undefined;
  lastEventId?: string | undefined;
  private ownSignal: AbortSignal | undefined;

  constructor(private readonly req: HttpRequest) {}

  get signal(): AbortSignal | undefined {
    return this.ownSignal ?? this.req.signal;
  }

  set signal(signal: AbortSignal | undefined) {
    this.ownSignal = signal;
  }
}
