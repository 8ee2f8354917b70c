/** The inspector's responses: its Content-Security-Policy and security headers, JSON replies. */
import type { HttpResponse } from '../http/types.js';

/** The one policy of every inspector response (no inline script or style, nothing off-origin). */
export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Security headers of every response. */
export function secure(headers: Record<string, string>): Record<string, string> {
  return {
    ...headers,
    'content-security-policy': INSPECTOR_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}

/** A JSON response with the security headers. */
export function json(status: number, body: unknown): HttpResponse {
  return {
    status,
    headers: secure({ 'content-type': 'application/json', 'cache-control': 'no-store' }),
    body: JSON.stringify(body),
  };
}
