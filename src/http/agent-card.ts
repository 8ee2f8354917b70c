/**
 * The public Agent Card endpoint, `GET /.well-known/agent-card.json` (spec §8.2), with HTTP
 * caching (spec §8.6.1, requirements 15–17 of test/conformance/requirements.ts): `Cache-Control: max-age`, a strong content-hash
 * `ETag`, `Last-Modified`, and 304 answers to `If-None-Match` / `If-Modified-Since`.
 */
import type { AgentCard } from '../core/schemas/index.js';
import type { HttpRequest, HttpResponse } from './types.js';

/** The well-known path of the public card (spec §8.2). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** Options of {@link createAgentCardEndpoint}. */
export interface AgentCardEndpointOptions {
  /** Builds the card for a base URL (the interfaces' URLs depend on it). */
  card(baseUrl: string): AgentCard | Record<string, unknown>;
  /** Extra response headers (`Vary: A2A-Version` when the body depends on the request version). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** `Cache-Control: public, max-age=N`. */
  maxAgeSeconds: number;
  /** `Last-Modified`: when the card was last changed (the server start time). */
  lastModified: Date;
}

interface CachedCard {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A 304 carries the validators and caching headers, not the content type. */
  readonly notModifiedHeaders: Readonly<Record<string, string>>;
  readonly etag: string;
}

/** Distinct base URLs remembered; a Host-derived base URL must not grow memory without bound. */
const MAX_CACHED_BASE_URLS = 16;

/** Builds the card responder; each card is serialized and hashed once per base URL. */
export function createAgentCardEndpoint(
  options: AgentCardEndpointOptions,
): (req: HttpRequest, baseUrl: string) => HttpResponse {
  // HTTP dates have one-second resolution: compare If-Modified-Since against the truncated time.
  const modifiedSeconds = Math.floor(options.lastModified.getTime() / 1000);
  const lastModified = new Date(modifiedSeconds * 1000).toUTCString();
  const cacheControl = `public, max-age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`;
  const cache = new Map<string, CachedCard>();

  function cached(baseUrl: string): CachedCard {
    let entry = cache.get(baseUrl);
    if (entry === undefined) {
      const body = JSON.stringify(options.card(baseUrl));
      const etag = `"${contentHash(body)}"`;
      const notModifiedHeaders = {
        ...options.headers,
        'cache-control': cacheControl,
        etag,
        'last-modified': lastModified,
      };
      const headers = { 'content-type': 'application/json', ...notModifiedHeaders };
      entry = { body, headers, notModifiedHeaders, etag };
      if (cache.size >= MAX_CACHED_BASE_URLS) cache.clear();
      cache.set(baseUrl, entry);
    }
    return entry;
  }

  return (req, baseUrl) => {
    const entry = cached(baseUrl);
    if (notModified(req, entry.etag, modifiedSeconds)) {
      return { status: 304, headers: { ...entry.notModifiedHeaders }, body: undefined };
    }
    return { status: 200, headers: { ...entry.headers }, body: entry.body };
  };
}

/**
 * RFC 9110 §13.1.2-3: If-None-Match (weak comparison, `*` matches) takes precedence; otherwise
 * If-Modified-Since matches when the card is not newer than the given date.
 */
function notModified(req: HttpRequest, etag: string, modifiedSeconds: number): boolean {
  const ifNoneMatch = req.headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    for (const candidate of ifNoneMatch.split(',')) {
      const tag = candidate.trim();
      if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag))
        return true;
    }
    return false;
  }
  const ifModifiedSince = req.headers.get('if-modified-since');
  if (ifModifiedSince === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(since / 1000) >= modifiedSeconds;
}

/**
 * A 64-bit FNV-1a hash of the UTF-16 units of `text`, as hex (two 32-bit lanes with different
 * offsets). Cheap and synchronous; the ETag only has to change when the card does.
 */
export function contentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
