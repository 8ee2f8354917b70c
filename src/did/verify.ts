/**
 * Verifies did:wba signed requests (ANP did:wba v1.1 §3.3): the one RFC 9421 signature whose
 * `keyid` is a did:wba DID URL must be fresh (`created` within the window, `expires` not past),
 * cover `@method`, `@target-uri` and (with a body) a matching RFC 9530 `Content-Digest`, verify
 * with an `authentication` key of the DID's resolved document, and carry a `nonce` not seen
 * before for that key. Everything else is refused with its own {@link DidAuthError}.
 */
import { httpbis, createVerifier, type Verifier } from 'http-message-signatures';
import { MemoryReplayCache, type ReplayCache } from '../push/replay-cache.js';
import { contentDigestMatches } from './digest.js';
import { authenticationKey, type DidPublicJwk, type DidSignatureAlgorithm } from './document.js';
import { DidAuthError } from './errors.js';
import { splitDidUrl } from './identifier.js';
import { publicKeyOf } from './keys.js';
import { DidResolver, type DidResolverOptions } from './resolver.js';

/** A request as received: method, the full URL the client called, headers and exact body. */
export interface ReceivedRequest {
  readonly method: string;
  /** The target URI (`https://agent.example/a2a/jsonrpc?x=1`). */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body?: Uint8Array | string | undefined;
}

/** Who signed a verified request. */
export interface VerifiedDid {
  readonly did: string;
  /** The DID URL of the key that signed. */
  readonly keyId: string;
  readonly created: number;
  readonly nonce: string;
}

/** Options of {@link DidRequestVerifier}. */
export interface DidVerifierOptions extends DidResolverOptions {
  /** The resolver (default one made from these options). */
  readonly resolver?: DidResolver | undefined;
  /** Oldest accepted `created`, in seconds; default 300 (ANP: 1 to 5 minutes). */
  readonly maxAgeSeconds?: number | undefined;
  /** Clock skew tolerated on `created` and `expires`; default 5 s. */
  readonly clockSkewSeconds?: number | undefined;
  /** Seen `(keyid, nonce)` pairs; default in memory, 100,000 at most (share one across instances). */
  readonly replayCache?: ReplayCache | undefined;
  /** Accept only these DIDs (a function or list); default any resolvable did:wba DID. */
  readonly allow?: readonly string[] | ((did: string) => boolean) | undefined;
}

/** Verifies did:wba request signatures (see the module comment). */
export class DidRequestVerifier {
  readonly resolver: DidResolver;
  private readonly maxAge: number;
  private readonly skew: number;
  private readonly replays: ReplayCache;
  private readonly now: () => number;
  private readonly allow: ((did: string) => boolean) | undefined;
  private readonly checkers = new WeakMap<DidPublicJwk, Verifier>();

  constructor(options: DidVerifierOptions = {}) {
    this.resolver = options.resolver ?? new DidResolver(options);
    this.maxAge = options.maxAgeSeconds ?? 300;
    this.skew = options.clockSkewSeconds ?? 5;
    this.replays = options.replayCache ?? new MemoryReplayCache(100_000);
    this.now = options.now ?? Date.now;
    const allow = options.allow;
    this.allow = Array.isArray(allow)
      ? (did) => allow.includes(did)
      : (allow as ((did: string) => boolean) | undefined);
  }

  /** True when the request carries an HTTP message signature at all. */
  static isSigned(request: Pick<ReceivedRequest, 'headers'>): boolean {
    return (
      request.headers.get('signature-input') !== null || request.headers.get('signature') !== null
    );
  }

  /** The signer of a valid request; throws {@link DidAuthError} saying why otherwise. */
  async verify(request: ReceivedRequest): Promise<VerifiedDid> {
    const input = request.headers.get('signature-input');
    const signature = request.headers.get('signature');
    if (input === null || signature === null) {
      throw new DidAuthError(
        'MISSING_SIGNATURE',
        'the request has no Signature and Signature-Input headers: sign it with a did:wba key (RFC 9421)',
      );
    }
    const body = request.body ?? '';
    const hasBody = body.length > 0;
    if (hasBody) {
      const digest = request.headers.get('content-digest');
      if (digest === null) {
        throw new DidAuthError(
          'DIGEST_MISMATCH',
          'the request has a body but no Content-Digest header (RFC 9530, sha-256)',
        );
      }
      if (!contentDigestMatches(digest, body)) {
        throw new DidAuthError(
          'DIGEST_MISMATCH',
          'the Content-Digest does not match the body: it was changed after signing',
        );
      }
    }
    const headers: Record<string, string> = { 'signature-input': input, signature };
    for (const [, name] of input.matchAll(/"([a-z0-9-]+)"/g)) {
      const value = name === undefined ? null : request.headers.get(name);
      if (name !== undefined && value !== null) headers[name] = value;
    }
    let signer: { did: string; keyId: string; created: number; nonce: string } | undefined;
    let lookups = 0;
    const nowSeconds = Math.floor(this.now() / 1000);
    let verified: boolean | null;
    try {
      verified = await httpbis.verifyMessage(
        {
          tolerance: this.skew,
          notAfter: nowSeconds,
          requiredParams: ['keyid', 'created', 'nonce'],
          requiredFields: ['@method', '@target-uri', ...(hasBody ? ['content-digest'] : [])],
          keyLookup: async (params) => {
            const keyId = params.keyid;
            if (typeof keyId !== 'string' || !keyId.startsWith('did:wba:')) return null;
            if (++lookups > 1) {
              throw new DidAuthError(
                'MALFORMED_SIGNATURE',
                'the request carries more than one did:wba signature',
              );
            }
            const created = params.created instanceof Date ? params.created.getTime() / 1000 : NaN;
            this.checkFreshness(created, params.expires, nowSeconds);
            const nonce = params.nonce;
            if (typeof nonce !== 'string' || nonce === '') {
              throw new DidAuthError('MALFORMED_SIGNATURE', 'the signature has no nonce parameter');
            }
            const { did } = splitDidUrl(keyId);
            if (this.allow !== undefined && !this.allow(did)) {
              throw new DidAuthError('KEY_NOT_FOUND', `the DID ${did} is not allowed here`);
            }
            const document = await this.resolver.resolve(did);
            const key = authenticationKey(document, keyId);
            signer = { did, keyId, created, nonce };
            const check = this.checkerOf(key.jwk, key.alg);
            return {
              id: keyId,
              algs: [key.alg],
              verify: async (data, sig) => {
                try {
                  return await check(data, sig);
                } catch {
                  return false;
                }
              },
            };
          },
        },
        { method: request.method.toUpperCase(), url: new URL(request.url).href, headers },
      );
    } catch (error) {
      throw asDidError(error);
    }
    if (signer === undefined || verified === null) {
      throw new DidAuthError(
        'MISSING_SIGNATURE',
        'the request carries no signature by a did:wba key (keyid did:wba:…#key)',
      );
    }
    if (!verified) {
      throw new DidAuthError(
        'BAD_SIGNATURE',
        `the signature does not verify with ${signer.keyId} of the DID document`,
      );
    }
    const fresh = await this.replays.add(
      `${signer.keyId}\n${signer.nonce}`,
      (signer.created + this.maxAge + this.skew) * 1000,
    );
    if (!fresh) {
      throw new DidAuthError(
        'REPLAYED',
        `nonce ${signer.nonce} of ${signer.keyId} was already used: sign every request afresh`,
      );
    }
    return signer;
  }

  /** The signature check of a document key, made once per key object of a cached document. */
  private checkerOf(jwk: DidPublicJwk, alg: DidSignatureAlgorithm): Verifier {
    let check = this.checkers.get(jwk);
    if (check === undefined) {
      check = createVerifier(publicKeyOf(jwk), alg);
      this.checkers.set(jwk, check);
    }
    return check;
  }

  private checkFreshness(created: number, expires: unknown, now: number): void {
    if (!Number.isFinite(created)) {
      throw new DidAuthError('MALFORMED_SIGNATURE', 'the signature has no created parameter');
    }
    if (created > now + this.skew) {
      throw new DidAuthError(
        'STALE_SIGNATURE',
        `the signature was created ${created - now} s in the future: check the signer's clock`,
      );
    }
    if (now - created > this.maxAge + this.skew) {
      throw new DidAuthError(
        'STALE_SIGNATURE',
        `the signature was created ${now - created} s ago, more than the ${this.maxAge} s accepted: sign every request afresh`,
      );
    }
    if (typeof expires === 'number' && now > expires + this.skew) {
      throw new DidAuthError('EXPIRED_SIGNATURE', `the signature expired ${now - expires} s ago`);
    }
  }
}

function asDidError(error: unknown): DidAuthError {
  if (error instanceof DidAuthError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'ExpiredError') {
    return new DidAuthError('EXPIRED_SIGNATURE', `the signature is not valid now: ${message}`);
  }
  return new DidAuthError('MALFORMED_SIGNATURE', `the signature cannot be checked: ${message}`);
}
