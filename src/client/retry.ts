/**
 * Retry policy: exponential backoff with full jitter, honouring `Retry-After`, only for failures
 * that may succeed on a second try (network, timeout, 5xx, 429). A spec error the peer chose to
 * send (task not found, invalid params, …) is never retried. Random source and sleep are
 * injectable so the policy is tested deterministically.
 */
import { A2AError } from '../core/errors.js';
import { TransportError } from '../transport/errors.js';

/** How often and how patiently to retry. */
export interface RetryOptions {
  /** Attempts in total, the first included (default 3; 1 disables retries). */
  maxAttempts?: number | undefined;
  /** Backoff base: the cap of the first delay (default 250 ms). */
  baseDelayMs?: number | undefined;
  /** Cap of any backoff delay (default 5 s). */
  maxDelayMs?: number | undefined;
  /** A `Retry-After` longer than this ends the retries instead of waiting (default 30 s). */
  maxRetryAfterMs?: number | undefined;
}

/** Injected randomness and clock, for tests. */
export interface RetryEnvironment {
  /** Uniform in [0, 1) (default Math.random). */
  random?: (() => number) | undefined;
  /** Waits `ms`, rejecting with `ABORTED` when `signal` fires (default {@link sleep}). */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** One retry about to happen, for logging. */
export interface RetryNotice {
  attempt: number;
  delayMs: number;
  error: unknown;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Readonly<Required<{ [K in keyof RetryOptions]: number }>> = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

/** Full jitter (AWS architecture blog): uniform in [0, min(maxDelay, base·2^(attempt−1))]. */
export function backoffDelay(
  attempt: number,
  options: RetryOptions = {},
  random: () => number = Math.random,
): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const cap = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * cap);
}

/** True for failures worth another try: NETWORK, TIMEOUT, HTTP 5xx or 429, A2A INTERNAL (5xx). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof TransportError) {
    if (error.code === 'NETWORK' || error.code === 'TIMEOUT') return true;
    const status = error.status ?? 0;
    return error.code === 'BAD_STATUS' && (status >= 500 || status === 429);
  }
  // The only spec error of the 5xx family; every other A2AError is the peer's considered answer.
  return error instanceof A2AError && error.code === 'INTERNAL';
}

/** The wait before the next attempt after `error` on attempt `attempt`, or undefined to give up. */
export function retryDelay(
  error: unknown,
  attempt: number,
  options: RetryOptions = {},
  random: () => number = Math.random,
): number | undefined {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  if (attempt >= maxAttempts || !isRetryable(error)) return undefined;
  const jitter = backoffDelay(attempt, options, random);
  const retryAfter = error instanceof TransportError ? error.retryAfterMs : undefined;
  if (retryAfter === undefined) return jitter;
  if (retryAfter > (options.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs)) return undefined;
  return Math.max(retryAfter, jitter);
}

/** Waits `ms`; rejects with TransportError `ABORTED` as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = () =>
      new TransportError('ABORTED', 'aborted while waiting to retry', { cause: signal?.reason });
    if (signal?.aborted) return reject(fail());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(fail());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Options of {@link withRetry}. */
export interface WithRetryOptions extends RetryEnvironment {
  policy?: RetryOptions | undefined;
  signal?: AbortSignal | undefined;
  /** `Date.now()` after which no attempt starts: a retry that would begin later is not made. */
  deadline?: number | undefined;
  onRetry?: ((notice: RetryNotice) => void) | undefined;
}

/**
 * Runs `attempt(n)` until it succeeds, fails for good, the attempts run out, or the next attempt
 * would start after the deadline.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  options: WithRetryOptions = {},
): Promise<T> {
  const wait = options.sleep ?? sleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      const delayMs = retryDelay(error, n, options.policy, options.random);
      if (delayMs === undefined || options.signal?.aborted) throw error;
      if (options.deadline !== undefined && Date.now() + delayMs >= options.deadline) throw error;
      options.onRetry?.({ attempt: n, delayMs, error });
      await wait(delayMs, options.signal);
    }
  }
}
