/**
 * Fetches and validates Agent Cards (spec §8.2): `/.well-known/agent-card.json` under a base URL
 * or a full card URL, cached per URL with HTTP semantics (see card-cache.ts), revalidated with
 * `If-None-Match` / `If-Modified-Since`, and concurrent requests for one card coalesced into one
 * fetch, so many clients in one process cost one request.
 */
import { AgentCard } from '../core/schemas/index.js';
import { describeViolations, fieldViolations } from '../core/validate.js';
import { CardCache, freshness, type CachedCard } from './card-cache.js';
import { TransportError } from '../transport/errors.js';
import {
  badStatus,
  buildHeaders,
  isJsonType,
  mediaType,
  openExchange,
  snippet,
} from '../transport/http-exchange.js';
import { isLegacyCard, upgradeLegacyCard } from './legacy-card.js';
import type { ReplyHeaders } from '../transport/http-send.js';

/** The well-known card path (spec §8.2, RFC 8615). */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';

/** Options of an {@link AgentCardResolver}. */
export interface CardResolverOptions {
  fetch?: typeof fetch | undefined;
  /** Lifetime of a card whose reply has no caching headers (default 5 min; requirement (test/conformance/requirements.ts) [19]). */
  defaultTtlMs?: number | undefined;
  /** Timeout of one card request (default 10 s). */
  timeoutMs?: number | undefined;
  /** The clock, for tests. */
  now?: (() => number) | undefined;
  cache?: CardCache | undefined;
}

/** Options of one {@link AgentCardResolver.resolve} call. */
export interface ResolveCardOptions {
  /** Stops waiting (the shared fetch goes on for other callers). */
  signal?: AbortSignal | undefined;
  /** Extra request headers (e.g. credentials); cards fetched with different headers are cached apart. */
  headers?: Record<string, string> | undefined;
  /** Revalidate even when the cached card is fresh. */
  forceRefresh?: boolean | undefined;
  /**
   * Checks the card JSON exactly as received, before it is parsed (signature verification, spec
   * §8.4.3); a rejection fails the resolve. Such a resolve always fetches: it never trusts a
   * cached card another caller took without checking.
   */
  verify?: ((raw: unknown, url: string) => Promise<void>) | undefined;
}

/**
 * The card URL for `input`: unchanged when it already names a `.json` document or a
 * `/.well-known/` path, else the well-known path appended to the base URL's path.
 */
export function cardUrl(input: string | URL): string {
  const url = new URL(input);
  if (url.pathname.endsWith('.json') || url.pathname.includes('/.well-known/'))
    return url.toString();
  url.pathname = url.pathname.replace(/\/+$/, '') + WELL_KNOWN_CARD_PATH;
  return url.toString();
}

/**
 * Validates a card object: a 0.3 card is read into the 1.0 shape first; an object that is no
 * card at all is "not an A2A agent"; an invalid card lists what is wrong. Throws BAD_RESPONSE.
 */
export function parseAgentCard(value: unknown, source: string): AgentCard {
  const looksLikeCard =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    ['name', 'supportedInterfaces', 'url', 'skills'].some((k) => k in value);
  if (!looksLikeCard) {
    throw new TransportError(
      'BAD_RESPONSE',
      `not an A2A agent: ${source} returned JSON that is not an agent card`,
      {
        url: source,
      },
    );
  }
  const input = isLegacyCard(value) ? upgradeLegacyCard(value) : value;
  const parsed = AgentCard.safeParse(input);
  if (parsed.success) return parsed.data;
  const violations = fieldViolations(parsed.error);
  const more = violations.length > 5 ? ` (and ${violations.length - 5} more)` : '';
  throw new TransportError(
    'BAD_RESPONSE',
    `invalid agent card at ${source}: ${describeViolations(violations)}${more}`,
    {
      url: source,
      cause: parsed.error,
    },
  );
}

/** Fetches, validates, caches and shares Agent Cards. */
export class AgentCardResolver {
  private readonly cache: CardCache;
  private readonly inflight = new Map<string, Promise<AgentCard>>();
  private readonly now: () => number;

  constructor(private readonly options: CardResolverOptions = {}) {
    this.cache = options.cache ?? new CardCache();
    this.now = options.now ?? Date.now;
  }

  /** The card at `input` (a base URL or a card URL), from the cache while it is fresh. */
  async resolve(input: string | URL, options: ResolveCardOptions = {}): Promise<AgentCard> {
    const url = cardUrl(input);
    const key = cacheKey(url, options.headers);
    if (options.verify !== undefined) {
      const load = this.load(key, url, options.headers, undefined, options.verify);
      return untilAborted(load, options.signal, url);
    }
    const entry = this.cache.get(key);
    if (entry && !options.forceRefresh && entry.expiresAt > this.now()) return entry.card;
    let shared = this.inflight.get(key);
    if (!shared) {
      shared = this.load(key, url, options.headers, entry).finally(() => this.inflight.delete(key));
      this.inflight.set(key, shared);
    }
    return untilAborted(shared, options.signal, url);
  }

  /** Drops every cached card. */
  clear(): void {
    this.cache.clear();
  }

  private async load(
    key: string,
    url: string,
    headers: Record<string, string> | undefined,
    entry: CachedCard | undefined,
    verify?: (raw: unknown, url: string) => Promise<void>,
  ): Promise<AgentCard> {
    const conditional: Record<string, string> = {};
    if (entry?.etag) conditional['If-None-Match'] = entry.etag;
    if (entry?.lastModified) conditional['If-Modified-Since'] = entry.lastModified;
    const exchange = await openExchange({
      url,
      method: 'GET',
      headers: buildHeaders({ layers: [conditional, headers], accept: 'application/json' }),
      timeoutMs: this.options.timeoutMs ?? 10_000,
      fetch: this.options.fetch,
    });
    const { response } = exchange;
    const text = await exchange.text();
    if (response.status === 304 && entry) {
      this.store(key, entry.card, response.headers, entry);
      return entry.card;
    }
    if (!response.ok) {
      if (response.status === 404 || response.status === 410) {
        throw new TransportError(
          'BAD_STATUS',
          `not an A2A agent: no agent card at ${url} (HTTP ${response.status})`,
          {
            url,
            status: response.status,
          },
        );
      }
      throw badStatus(response, url, text);
    }
    const type = mediaType(response);
    if (type === 'text/html' || (!isJsonType(type) && /^\s*</.test(text))) {
      throw new TransportError(
        'BAD_RESPONSE',
        `not an A2A agent: ${url} returned an HTML page, not an agent card`,
        {
          url,
          status: response.status,
        },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch (error) {
      throw new TransportError(
        'BAD_RESPONSE',
        `not an A2A agent: ${url} did not return JSON: ${snippet(text)}`,
        {
          url,
          cause: error,
        },
      );
    }
    await verify?.(json, url);
    const card = parseAgentCard(json, url);
    this.store(key, card, response.headers);
    return card;
  }

  private store(key: string, card: AgentCard, headers: ReplyHeaders, previous?: CachedCard): void {
    const { store, ttlMs } = freshness(headers, this.options.defaultTtlMs ?? 300_000, this.now());
    if (!store) {
      this.cache.delete(key);
      return;
    }
    // A 304 may omit validators: the stored ones stay valid (RFC 9111 §4.3.4).
    const etag = headers.get('etag') ?? previous?.etag;
    const lastModified = headers.get('last-modified') ?? previous?.lastModified;
    this.cache.set(key, { card, expiresAt: this.now() + ttlMs, etag, lastModified });
  }
}

/** The resolver shared by every client of the process (one cache, one request per card). */
export const sharedCardResolver = new AgentCardResolver();

function cacheKey(url: string, headers: Record<string, string> | undefined): string {
  if (!headers || Object.keys(headers).length === 0) return url;
  const sorted = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1));
  return `${url}\n${JSON.stringify(sorted)}`;
}

/** `promise`, or an ABORTED rejection as soon as `signal` fires. */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  url: string,
): Promise<T> {
  if (!signal) return promise;
  const abortError = () =>
    new TransportError('ABORTED', `fetching the agent card at ${url} aborted`, {
      url,
      cause: signal.reason,
    });
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
