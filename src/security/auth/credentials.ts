/**
 * Reading credentials out of a request: the `Authorization` header (RFC 9110 §11.6.2), Basic
 * user and password (RFC 7617), API keys in a header, query parameter or cookie, and a
 * constant-time comparison for secrets.
 */
import type { AuthRequest } from './types.js';

/** Where an API key travels (APIKeySecurityScheme.location). */
export type ApiKeyLocation = 'header' | 'query' | 'cookie';

/**
 * The credentials after `<scheme> ` in the Authorization header, when the header uses `scheme`
 * (compared case-insensitively, RFC 9110 §11.1); `undefined` when absent or another scheme.
 */
export function authorizationCredentials(request: AuthRequest, scheme: string): string | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const value = header.trim();
  const space = value.indexOf(' ');
  const name = space < 0 ? value : value.slice(0, space);
  if (name.toLowerCase() !== scheme.toLowerCase()) return undefined;
  return space < 0 ? '' : value.slice(space + 1).trim();
}

/** User name and password of Basic credentials, or undefined when they are malformed. */
export function decodeBasic(
  credentials: string,
): { username: string; password: string } | undefined {
  let text: string;
  try {
    const binary = atob(credentials);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The cookies of a request: the adapter's, else parsed from the `cookie` header (RFC 6265 §5.4). */
export function requestCookies(request: AuthRequest): Readonly<Record<string, string>> {
  if (request.cookies !== undefined) return request.cookies;
  const header = request.headers.get('cookie');
  const cookies: Record<string, string> = {};
  if (header === null) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === '' || name in cookies) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
      value = value.slice(1, -1);
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

/** The API key at `location` under `name`, or undefined when the request has none. */
export function apiKeyOf(
  request: AuthRequest,
  location: ApiKeyLocation,
  name: string,
): string | undefined {
  switch (location) {
    case 'header':
      return request.headers.get(name.toLowerCase()) ?? undefined;
    case 'query':
      return request.query.get(name) ?? undefined;
    case 'cookie':
      return requestCookies(request)[name];
  }
}

const encoder = new TextEncoder();

/**
 * True when `a` equals `b`, in time that depends only on their lengths: comparing a presented
 * secret with a stored one must not reveal how many leading characters matched.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
