/**
 * Resolves did:wba DIDs to checked DID documents (ANP did:wba v1.1 §2.5): the document URL of the
 * DID, fetched over HTTPS through the SSRF guard, parsed and checked (`id` equals the DID), and
 * cached for a bounded time in a bounded map. Failures are never cached, so a host that comes
 * back is used at once; a document that changes (a rotated key) is seen after at most the TTL.
 */
import { checkDidDocument, type DidDocument } from './document.js';
import { DidAuthError } from './errors.js';
import {
  guardedDocumentFetch,
  type DocumentFetch,
  type DocumentFetchOptions,
} from './https-get.js';
import { parseDidWba } from './identifier.js';

/** Options of {@link DidResolver}. */
export interface DidResolverOptions extends DocumentFetchOptions {
  /** How long a fetched document is used; default 300 s, at most 3600 s. */
  readonly cacheTtlMs?: number | undefined;
  /** Documents kept at once (the oldest go first); default 1000. */
  readonly maxCacheEntries?: number | undefined;
  /** Fetches one document (default the guarded HTTPS GET; replace for another transport). */
  readonly fetchDocument?: DocumentFetch | undefined;
  /** The clock (tests). */
  readonly now?: (() => number) | undefined;
}

const MAX_TTL_MS = 3_600_000;

/** Turns a did:wba DID into its checked document; see the module comment. */
export class DidResolver {
  private readonly cache = new Map<string, { document: DidDocument; until: number }>();
  private readonly pending = new Map<string, Promise<DidDocument>>();
  private readonly fetchDocument: DocumentFetch;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Documents fetched over the network (not from the cache), for tests and metrics. */
  fetches = 0;

  constructor(options: DidResolverOptions = {}) {
    this.fetchDocument = options.fetchDocument ?? guardedDocumentFetch(options);
    this.ttlMs = Math.min(Math.max(options.cacheTtlMs ?? 300_000, 0), MAX_TTL_MS);
    this.maxEntries = Math.max(options.maxCacheEntries ?? 1000, 1);
    this.now = options.now ?? Date.now;
  }

  /** The checked document of `did`; throws {@link DidAuthError} saying why it cannot be had. */
  async resolve(did: string): Promise<DidDocument> {
    const cached = this.cache.get(did);
    if (cached !== undefined && cached.until > this.now()) return cached.document;
    this.cache.delete(did);
    const running = this.pending.get(did);
    if (running) return running;
    const fetching = this.fetch(did).finally(() => this.pending.delete(did));
    this.pending.set(did, fetching);
    return fetching;
  }

  /** Forgets every cached document (after a key rotation you were told about). */
  clear(): void {
    this.cache.clear();
  }

  private async fetch(did: string): Promise<DidDocument> {
    const url = new URL(parseDidWba(did).documentUrl);
    this.fetches++;
    const { status, body } = await this.fetchDocument(url);
    if (status !== 200) {
      throw new DidAuthError(
        'DID_NOT_FOUND',
        `the DID ${did} has no document: GET ${url.href} answered ${status}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new DidAuthError('INVALID_DOCUMENT', `the DID document at ${url.href} is not JSON`);
    }
    const document = checkDidDocument(parsed, did);
    if (this.ttlMs > 0) {
      while (this.cache.size >= this.maxEntries) {
        const oldest = this.cache.keys().next().value;
        if (oldest === undefined) break;
        this.cache.delete(oldest);
      }
      this.cache.set(did, { document, until: this.now() + this.ttlMs });
    }
    return document;
  }
}
