/**
 * The HttpRequest an adapter hands the A2A router: its path relative to the mount point, the
 * public origin and base path (see http/forwarded.ts), the body and the disconnect signal.
 */
import type { HttpHeaders } from '../../core/call-context.js';
import { forwardedLocation } from '../../http/forwarded.js';
import type { HttpRequest } from '../../http/types.js';

/** Header lookup over Node's lower-cased header object. */
export function nodeHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): HttpHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return typeof value === 'string' ? value : value.join(', ');
    },
  };
}

/** What {@link mountedRequest} needs. */
export interface MountedRequestInput {
  readonly method: string;
  /** Path and query after the mount path. */
  readonly url: string;
  readonly headers: HttpHeaders;
  readonly scheme: string;
  readonly fallbackOrigin?: string | undefined;
  readonly mountPath: string;
  readonly trustProxy: boolean;
  readonly body: Uint8Array | string | undefined;
  readonly bodyTooLarge: boolean;
  readonly signal: AbortSignal;
  readonly remoteAddress?: string | undefined;
}

/** The router's request of one framework request. */
export function mountedRequest(input: MountedRequestInput): HttpRequest {
  const location = forwardedLocation(input.headers, input);
  return {
    method: input.method,
    url: input.url === '' ? '/' : input.url,
    headers: input.headers,
    basePath: location.basePath,
    origin: location.origin,
    body: input.body,
    bodyTooLarge: input.bodyTooLarge,
    signal: input.signal,
    remoteAddress: input.remoteAddress,
  };
}

/** The path of a path-and-query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
