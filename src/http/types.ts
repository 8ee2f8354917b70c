/**
 * The runtime-neutral HTTP model the A2A handler works on. Adapters (node:http, fetch) translate
 * to and from it; the hot path never builds WHATWG Request/Response objects on Node.
 */
import type { ClientCertificate, HttpHeaders } from '../core/call-context.js';
import type { A2AError } from '../core/errors.js';

/** One incoming HTTP request. */
export interface HttpRequest {
  /** Upper-case verb (`GET`, `POST`, …). */
  readonly method: string;
  /** Path and query string as sent (`/a2a/rest/tasks?pageSize=5`), after any {@link basePath}. */
  readonly url: string;
  /**
   * Where the handler is mounted (`/agents/x`), already removed from {@link url} by the adapter
   * (a framework's mount path, a proxy's `X-Forwarded-Prefix`); put in front of every interface
   * URL of the card. No trailing slash; default none.
   */
  readonly basePath?: string | undefined;
  readonly headers: HttpHeaders;
  /** The complete body, or undefined when there is none. */
  readonly body?: Uint8Array | string | undefined;
  /** Set by adapters that stopped reading because the body exceeded their limit. */
  readonly bodyTooLarge?: boolean | undefined;
  /** `scheme://host[:port]` of the request when the adapter knows it (fetch does). */
  readonly origin?: string | undefined;
  /** True when the request came over TLS (node:https); tells `https` from `http` without an origin. */
  readonly secure?: boolean | undefined;
  /** Aborted when the client goes away. */
  readonly signal?: AbortSignal | undefined;
  /** The peer's IP address, when the adapter knows it (rate limits of anonymous callers). */
  readonly remoteAddress?: string | undefined;
  /** The TLS client certificate, on a TLS server that asked for one (mutual TLS). */
  readonly clientCertificate?: ClientCertificate | undefined;
}

/** One outgoing HTTP response; a streaming body is an async iterable of text chunks (SSE). */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string | AsyncIterable<string> | undefined;
  /**
   * The A2A error this response answers with, set by the bindings' error rendering (never
   * sent): the router reports it as a refusal when no observing middleware saw the request.
   */
  error?: A2AError | undefined;
}

/** The function every adapter wraps. */
export type HttpHandler = (req: HttpRequest) => Promise<HttpResponse>;

/**
 * The A2A router: a handler that also says which paths are its own, so a framework adapter can
 * pass every other request on (Express's `next()`) without reading its body.
 */
export interface RoutedHttpHandler extends HttpHandler {
  /** True when `path` (no query, after the base path) is one the handler answers. */
  owns(path: string): boolean;
}
