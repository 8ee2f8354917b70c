/**
 * HTTP caching of Agent Cards (spec §8.6.2, RFC 9111 for a private cache): freshness from
 * `Cache-Control` (`no-store`, `no-cache`, `max-age`) minus `Age`, else `Expires`, else a default
 * lifetime (requirement [19] of test/conformance/requirements.ts); validators (`ETag`, `Last-Modified`) kept for revalidation.
 */
import type { AgentCard } from '../core/schemas/index.js';
import type { ReplyHeaders } from '../transport/http-send.js';

/** One cached card and what is needed to revalidate it. */
export interface CachedCard {
  card: AgentCard;
  /** Epoch ms after which the card must be revalidated before use. */
  expiresAt: number;
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** How long a response may be reused, per its headers. */
export interface Freshness {
  /** False for `no-store`: do not keep the response at all. */
  store: boolean;
  /** Lifetime in ms (0 = revalidate before every use). */
  ttlMs: number;
}

/** The freshness of a response per RFC 9111 §4.2, with `defaultTtlMs` when headers say nothing. */
export function freshness(
  headers: ReplyHeaders,
  defaultTtlMs: number,
  now: number = Date.now(),
): Freshness {
  const directives = parseCacheControl(headers.get('cache-control'));
  if (directives.has('no-store')) return { store: false, ttlMs: 0 };
  if (directives.has('no-cache')) return { store: true, ttlMs: 0 };
  const maxAge = directives.get('max-age');
  if (maxAge !== undefined && /^\d+$/.test(maxAge)) {
    const age = Number(headers.get('age') ?? '0');
    return {
      store: true,
      ttlMs: Math.max(0, (Number(maxAge) - (Number.isFinite(age) ? age : 0)) * 1000),
    };
  }
  const expires = headers.get('expires');
  if (expires !== null) {
    const at = Date.parse(expires);
    const date = Date.parse(headers.get('date') ?? '');
    const base = Number.isNaN(date) ? now : date;
    // An invalid Expires means "already expired" (RFC 9111 §5.3).
    return { store: true, ttlMs: Number.isNaN(at) ? 0 : Math.max(0, at - base) };
  }
  return { store: true, ttlMs: defaultTtlMs };
}

/** Directive name (lower-case) → value (`''` when it has none). */
export function parseCacheControl(value: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (value ?? '').split(',')) {
    const [name, ...rest] = part.split('=');
    const key = name?.trim().toLowerCase();
    if (key)
      out.set(
        key,
        rest
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
  }
  return out;
}

/** A bounded in-memory card cache (oldest entries go first). */
export class CardCache {
  private readonly entries = new Map<string, CachedCard>();

  constructor(private readonly maxEntries = 256) {}

  /** The entry for `key`, fresh or not. */
  get(key: string): CachedCard | undefined {
    return this.entries.get(key);
  }

  /** Stores or replaces the entry for `key`. */
  set(key: string, entry: CachedCard): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }
}
