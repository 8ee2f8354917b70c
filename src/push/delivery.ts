/**
 * One delivery attempt, as pure decisions: the request headers of a config, what an answer (or
 * its absence) means, and when to try again. 2xx is delivered; 408, 429, 5xx, timeouts and
 * connection failures are retried with exponential backoff and full jitter (429/503 honour
 * Retry-After); 3xx (redirects are not followed) and other 4xx fail at once (spec §4.3.3, §13.2).
 */
import type { StoredPushConfig } from '../stores/types.js';
import { PUSH_ID_HEADER, PUSH_SIGNATURE_HEADER, PUSH_TOKEN_HEADER } from './signing.js';
import type { PushResponse } from './transport.js';

/** Retry policy of push deliveries. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 8); then the delivery is recorded failed. */
  readonly maxAttempts: number;
  /** Ceiling of the first retry's random delay (default 1 s); doubles per attempt. */
  readonly baseDelayMs: number;
  /** Longest delay between two attempts, Retry-After included (default 5 min). */
  readonly maxDelayMs: number;
}

/** The defaults of {@link RetryPolicy}. */
export const DEFAULT_PUSH_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 300_000,
};

/** What an answer means for the delivery. */
export type Verdict =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'retry'; readonly error: string; readonly retryAfterMs?: number | undefined }
  | { readonly kind: 'fail'; readonly error: string };

/** The headers of a delivery to `config` (credentials and token as configured). */
export function deliveryHeaders(
  config: StoredPushConfig,
  deliveryId: string,
  signature: string | undefined,
  contentType = 'application/a2a+json', // spec §4.3.3: an HTTP+JSON StreamResponse
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'user-agent': 'a2a-kit-push/1',
    [PUSH_ID_HEADER.toLowerCase()]: deliveryId,
  };
  const auth = config.authentication;
  // spec §4.3.3: the credentials described by `authentication`, as `Authorization`.
  if (auth?.scheme) {
    headers['authorization'] = auth.credentials
      ? `${auth.scheme} ${auth.credentials}`
      : auth.scheme;
  }
  if (config.token) headers[PUSH_TOKEN_HEADER.toLowerCase()] = config.token;
  if (signature) headers[PUSH_SIGNATURE_HEADER.toLowerCase()] = signature;
  return headers;
}

/** The verdict on an HTTP answer. */
export function judge(response: PushResponse, maxDelayMs: number): Verdict {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(response.retryAfter, Date.now());
    return {
      kind: 'retry',
      error: `HTTP ${status}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs: Math.min(retryAfterMs, maxDelayMs) } : {}),
    };
  }
  if (status >= 300 && status < 400) {
    return { kind: 'fail', error: `HTTP ${status}: redirects are not followed` };
  }
  return { kind: 'fail', error: `HTTP ${status}` };
}

/**
 * Delay before the retry that follows attempt number `attempt` (1 = the first): "full jitter",
 * uniformly random in [0, min(max, base * 2^(attempt-1))], so many webhooks failing at once do
 * not retry in lockstep.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` (delta-seconds or an HTTP date) in milliseconds from `now`, if valid. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; anything else (`-1`, `1.5`) is invalid.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A URL safe to log: origin and path, never the query, fragment or credentials. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
