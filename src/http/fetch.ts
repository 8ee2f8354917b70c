/**
 * The web-standard adapter: `(Request) => Promise<Response>` for Bun, Deno, Cloudflare Workers,
 * Hono and anything else that speaks fetch. Bodies are read with the size limit enforced while
 * reading; SSE replies stream through a ReadableStream that stops the source when cancelled.
 */
import { A2AError, ERROR_CATALOG, logInternalError, toA2AError } from '../core/errors.js';
import { concatBytes } from './body.js';
import { DEFAULT_MAX_BODY_BYTES } from './handler.js';
import { statusJson } from './errors.js';
import { forwardedLocation, joinPaths } from './forwarded.js';
import type { HttpHandler, HttpRequest, HttpResponse } from './types.js';

/** Options of {@link toFetchHandler}. */
export interface FetchHandlerOptions {
  /** Stop reading bodies past this many bytes (default 10 MiB); use the handler's value. */
  maxBodyBytes?: number | undefined;
  /**
   * The path the handler is mounted under (`/api/a2a`): removed from request paths and put in
   * front of the card's interface URLs. Default none.
   */
  basePath?: string | undefined;
  /** Believe `X-Forwarded-Proto/Host/Prefix` for the card's URLs (default false). */
  trustProxy?: boolean | undefined;
}

/** A fetch-style request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

const TOO_LARGE = Symbol('too large');
const encoder = new TextEncoder();

/** Wraps an A2A handler as a fetch handler. */
export function toFetchHandler(
  handler: HttpHandler,
  options: FetchHandlerOptions = {},
): FetchHandler {
  return (request) => serveFetchRequest(handler, request, options);
}

/** Answers one fetch request with `handler` (what {@link toFetchHandler} does per request). */
export async function serveFetchRequest(
  handler: HttpHandler,
  request: Request,
  options: FetchHandlerOptions = {},
): Promise<Response> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let response: HttpResponse;
  try {
    const url = new URL(request.url);
    const mountPath = joinPaths(options.basePath ?? '');
    const path = url.pathname;
    const inside =
      mountPath !== '' && (path === mountPath || path.startsWith(`${mountPath}/`))
        ? path.slice(mountPath.length) || '/'
        : path;
    // The URL's own origin, or what a trusted proxy says it is.
    const location = options.trustProxy
      ? forwardedLocation(
          { get: (name) => (name === 'host' ? url.host : request.headers.get(name)) },
          { scheme: url.protocol.slice(0, -1), mountPath, trustProxy: true },
        )
      : { origin: url.origin, basePath: mountPath };
    const body = await readBody(request, maxBodyBytes);
    const req: HttpRequest = {
      method: request.method,
      url: inside + url.search,
      headers: request.headers,
      body: body === TOO_LARGE ? undefined : body,
      bodyTooLarge: body === TOO_LARGE,
      origin: location.origin,
      basePath: location.basePath,
      signal: request.signal,
    };
    response = await handler(req);
  } catch (error) {
    const a2a =
      error instanceof BodyReadError
        ? new A2AError('INVALID_REQUEST', 'The request body could not be read')
        : toA2AError(error, logInternalError);
    return new Response(statusJson(a2a), {
      status: ERROR_CATALOG[a2a.code].http,
      headers: { 'content-type': 'application/json' },
    });
  }
  return toResponse(response);
}

class BodyReadError extends Error {}

/** The body bytes, `undefined` when there is none, or TOO_LARGE once the limit is passed. */
async function readBody(
  request: Request,
  maxBodyBytes: number,
): Promise<Uint8Array | undefined | typeof TOO_LARGE> {
  if (request.body === null) return undefined;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBodyBytes) {
    await request.body.cancel().catch(() => undefined);
    return TOO_LARGE;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBodyBytes) {
        await reader.cancel().catch(() => undefined);
        return TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch (error) {
    throw new BodyReadError('body read failed', { cause: error });
  }
  return concatBytes(chunks, total);
}

/** Builds the web Response; hop-by-hop headers (`connection`) are left to the runtime. */
function toResponse(response: HttpResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== 'connection') headers.set(name, value);
  }
  const { body } = response;
  if (body === undefined || typeof body === 'string') {
    return new Response(body ?? null, { status: response.status, headers });
  }
  const iterator = body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      // The client went away: release the source (never cancels the task, spec §3.5.2).
      await iterator.return?.();
    },
  });
  return new Response(stream, { status: response.status, headers });
}
