/** Fetching a JWKS document for card verification: HTTPS only, bounded in time and size. */
import type { JWK } from 'jose';

/** How to fetch a JWKS. */
export interface FetchJwksOptions {
  /** Permit `http:` URLs (tests, loopback development). Default false: HTTPS only (spec §8.4.3). */
  readonly allowInsecure?: boolean;
  readonly fetch?: typeof fetch;
  /** Default 10 s. */
  readonly timeoutMs?: number;
  /** Largest accepted document; default 256 KiB. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

/** Fetches and parses a JWKS (`{"keys": [...]}`); throws an Error saying what went wrong. */
export async function fetchJwks(url: string | URL, options: FetchJwksOptions = {}): Promise<JWK[]> {
  const target = new URL(url);
  assertSecure(target, options.allowInsecure ?? false);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const doFetch = options.fetch ?? fetch;
  const res = await doFetch(target, {
    headers: { accept: 'application/jwk-set+json, application/json' },
    redirect: 'follow',
    signal,
  });
  // A redirect must not downgrade the transport the caller insisted on.
  if (res.url) assertSecure(new URL(res.url), options.allowInsecure ?? false);
  if (!res.ok) throw new Error(`JWKS ${target.href} answered HTTP ${res.status}`);
  const maxBytes = options.maxBytes ?? 256 * 1024;
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new Error(`JWKS ${target.href} is larger than ${maxBytes} bytes`);
  const text = await res.text();
  if (text.length > maxBytes)
    throw new Error(`JWKS ${target.href} is larger than ${maxBytes} bytes`);
  return parseJwks(text, target.href);
}

/** The keys of a JWKS document given as JSON text; entries that are not objects are refused. */
export function parseJwks(text: string, source = 'JWKS'): JWK[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON`);
  }
  const keys = typeof doc === 'object' && doc !== null ? (doc as { keys?: unknown }).keys : null;
  if (!Array.isArray(keys)) throw new Error(`${source} has no "keys" array`);
  for (const k of keys) {
    if (typeof k !== 'object' || k === null || Array.isArray(k)) {
      throw new Error(`${source} has a key that is not a JSON object`);
    }
  }
  return keys as JWK[];
}

function assertSecure(url: URL, allowInsecure: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && allowInsecure) return;
  throw new Error(`refusing to fetch keys from ${url.href}: only https URLs are trusted`);
}
