/**
 * Per-caller rate limiting (spec §13.4, requirement 206 of test/conformance/requirements.ts): one token bucket per key (a principal
 * id, or the IP address of an anonymous caller). Refill is computed lazily on each request, so an
 * idle key costs nothing; the number of keys held is bounded (least recently used go first).
 */

/** Options of a {@link RateLimiter}. */
export interface RateLimitOptions {
  /** Requests allowed per window (the sustained rate). */
  readonly requests: number;
  /** Window length in seconds (default 60): `requests` per `windowSeconds`. */
  readonly windowSeconds?: number | undefined;
  /** Bucket size: requests allowed at once after idling (default `requests`). */
  readonly burst?: number | undefined;
  /** Most keys remembered (default 10 000); beyond, the least recently seen is forgotten. */
  readonly maxKeys?: number | undefined;
  /** Clock in milliseconds, for tests (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** The verdict for one request. */
export type RateDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

const ALLOWED: RateDecision = { allowed: true };

/** Token buckets by key. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly perMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(readonly options: RateLimitOptions) {
    const windowSeconds = options.windowSeconds ?? 60;
    if (!(options.requests > 0) || !(windowSeconds > 0)) {
      throw new RangeError('rateLimit needs requests > 0 and windowSeconds > 0');
    }
    this.capacity = Math.max(1, options.burst ?? options.requests);
    this.perMs = options.requests / (windowSeconds * 1000);
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Takes one token from `key`'s bucket, or says how long until one is available. */
  take(key: string): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    // Re-inserting keeps the map in least-recently-used order for eviction.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    const waitMs = (1 - bucket.tokens) / this.perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** A sentence for the refusal: "rate limit of 60 requests per 60 s exceeded". */
  describe(): string {
    const { requests, windowSeconds = 60 } = this.options;
    return `rate limit of ${requests} request${requests === 1 ? '' : 's'} per ${windowSeconds} s exceeded`;
  }
}

/** Counts open streams per key and refuses more than `max` at once. */
export class ConcurrencyLimiter {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new RangeError('maxConcurrentStreams must be at least 1');
  }

  /** A release function when a slot was free, else undefined. Releasing twice is harmless. */
  acquire(key: string): (() => void) | undefined {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return undefined;
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }

  /** Streams open for `key` now. */
  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}
