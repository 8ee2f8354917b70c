/**
 * CORS for browser clients (Fetch standard §3.2): preflight `OPTIONS` answered before routing and
 * authentication (browsers send no credentials on a preflight), and the allow/expose headers on
 * every answer to an allowed origin, the public card and error replies included.
 */
import type { HttpHandler, HttpRequest, HttpResponse } from './types.js';
import { withFields } from '../core/with-fields.js';

/** Options of {@link withCors}. */
export interface CorsOptions {
  /** Allowed origins (`https://app.example.com`), `'*'` for any, or a predicate. */
  readonly origins: readonly string[] | '*' | ((origin: string) => boolean);
  /** Send `Access-Control-Allow-Credentials: true` (cookies, TLS client certificates). */
  readonly allowCredentials?: boolean | undefined;
  /** Request headers allowed beyond the A2A set (e.g. an API key header). */
  readonly allowHeaders?: readonly string[] | undefined;
  /** Response headers exposed beyond the A2A set. */
  readonly exposeHeaders?: readonly string[] | undefined;
  /** How long a browser may cache a preflight (default 600 s). */
  readonly maxAgeSeconds?: number | undefined;
}

/** Request headers an A2A browser client sends (spec §3.2.6, §7.3, SSE resumption). */
export const CORS_ALLOW_HEADERS: readonly string[] = [
  'A2A-Version',
  'A2A-Extensions',
  'Authorization',
  'Content-Type',
  'Last-Event-ID',
];

/** Response headers a browser client needs to read. */
export const CORS_EXPOSE_HEADERS: readonly string[] = [
  'A2A-Extensions',
  'WWW-Authenticate',
  'Retry-After',
  'ETag',
];

const METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';

/** `handler` with CORS; requests without `Origin` (not from a browser) pass through untouched. */
export function withCors(handler: HttpHandler, options: CorsOptions): HttpHandler {
  const allowHeaders = [...CORS_ALLOW_HEADERS, ...(options.allowHeaders ?? [])].join(', ');
  const exposeHeaders = [...CORS_EXPOSE_HEADERS, ...(options.exposeHeaders ?? [])].join(', ');
  const allowed = originMatcher(options.origins);
  const wildcard = options.origins === '*' && options.allowCredentials !== true;

  function common(origin: string): Record<string, string> {
    const headers: Record<string, string> = {
      // With credentials a literal `*` is refused by browsers: echo the origin instead.
      'access-control-allow-origin': wildcard ? '*' : origin,
      vary: 'Origin',
    };
    if (options.allowCredentials === true) headers['access-control-allow-credentials'] = 'true';
    return headers;
  }

  return async (req: HttpRequest): Promise<HttpResponse> => {
    const origin = req.headers.get('origin');
    const preflight =
      req.method === 'OPTIONS' && req.headers.get('access-control-request-method') !== null;
    if (origin === null) return handler(req);
    if (!allowed(origin)) {
      if (!preflight) return handler(req); // no CORS headers: the browser withholds the reply
      return {
        status: 403,
        headers: { 'content-type': 'text/plain', vary: 'Origin' },
        body: `CORS: origin ${origin} is not allowed`,
      };
    }
    if (preflight) {
      return {
        status: 204,
        headers: withFields(common(origin), {
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': allowHeaders,
          'access-control-max-age': String(options.maxAgeSeconds ?? 600),
        }),
        body: undefined,
      };
    }
    const response = await handler(req);
    const vary = response.headers.vary;
    const added = common(origin);
    added['access-control-expose-headers'] = exposeHeaders;
    if (vary !== undefined && !/\borigin\b/i.test(vary)) added.vary = `${vary}, Origin`;
    response.headers = withFields(response.headers, added);
    return response;
  };
}

/** The predicate of `origins`: exact origins (case-insensitive, no trailing slash), `*`, or yours. */
export function originMatcher(origins: CorsOptions['origins']): (origin: string) => boolean {
  if (origins === '*') return () => true;
  if (typeof origins === 'function') return origins;
  const set = new Set(origins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return (origin) => set.has(origin.toLowerCase());
}
