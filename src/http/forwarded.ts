/**
 * Where a request really came from, for the card's interface URLs: the adapter's own origin and
 * mount path, or — only when the operator says a proxy in front can be trusted — the proxy's
 * `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix`. Each header is client input
 * without a trusted proxy, and even with one only a plain value is taken.
 */
import type { HttpHeaders } from '../core/call-context.js';

/** The public origin and base path of one request. */
export interface ForwardedLocation {
  /** `scheme://host[:port]`, or undefined when neither the adapter nor a proxy says. */
  readonly origin: string | undefined;
  /** The proxy's prefix plus the mount path (`/edge/agents/x`), `''` at the root. */
  readonly basePath: string;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
const PREFIX = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/;

/** First value of a possibly comma-joined header (the proxy nearest the client wrote it). */
function first(headers: HttpHeaders, name: string): string | undefined {
  const value = headers.get(name)?.split(',')[0]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** Joins path pieces without doubled or trailing slashes: `('/a/', '/b')` → `/a/b`. */
export function joinPaths(...parts: readonly string[]): string {
  const joined = parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
  return joined === '' ? '' : `/${joined}`;
}

/** What an adapter knows of a request's location. */
export interface LocationInput {
  /** `http` or `https`: how the request reached this process. */
  readonly scheme: string;
  /** The origin to use when the request has no usable Host header (a fetch Request's URL). */
  readonly fallbackOrigin?: string | undefined;
  /** Where the framework mounted the handler (`/agents/x`), `''` at the root. */
  readonly mountPath: string;
  /** Believe the `X-Forwarded-*` headers (only behind a proxy that sets them). */
  readonly trustProxy: boolean;
}

/**
 * The public location of a request: `scheme://` + its Host header (when it is a plain
 * host[:port], else `fallbackOrigin`) and the mount path, overridden by the `X-Forwarded-*`
 * headers when `trustProxy` is true.
 */
export function forwardedLocation(headers: HttpHeaders, input: LocationInput): ForwardedLocation {
  const host = headers.get('host');
  const scheme = input.scheme === 'https' ? 'https' : 'http';
  const origin = host !== null && HOST.test(host) ? `${scheme}://${host}` : input.fallbackOrigin;
  if (!input.trustProxy) return { origin, basePath: joinPaths(input.mountPath) };
  const proto = first(headers, 'x-forwarded-proto')?.toLowerCase();
  const forwardedHost = first(headers, 'x-forwarded-host');
  const prefix = first(headers, 'x-forwarded-prefix');
  const publicScheme = proto === 'https' || proto === 'http' ? proto : undefined;
  let publicOrigin = origin;
  if (forwardedHost !== undefined && HOST.test(forwardedHost)) {
    publicOrigin = `${publicScheme ?? scheme}://${forwardedHost}`;
  } else if (origin !== undefined && publicScheme !== undefined) {
    publicOrigin = origin.replace(/^https?:/, `${publicScheme}:`);
  }
  const safePrefix = prefix !== undefined && PREFIX.test(prefix) ? prefix : '';
  return { origin: publicOrigin, basePath: joinPaths(safePrefix, input.mountPath) };
}
