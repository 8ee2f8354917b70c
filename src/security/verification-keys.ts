/**
 * Where the verifier finds public keys (spec §8.4.3: "from a trusted key store", or by `kid` and
 * `jku`): caller-supplied keys or resolver, a trusted JWKS URL, and, only when the caller says
 * so, the `jku` named inside the signature. Every JWK passes `usableVerificationJwk`.
 */
import { importJWK, type JWK } from 'jose';
import { fetchJwks, type FetchJwksOptions } from './jwks.js';
import { SignatureRejected } from './signature-error.js';
import {
  usableVerificationJwk,
  type CardSigningAlgorithm,
  type KeyMaterial,
} from './signing-keys.js';

/** Looks a verification key up by `kid` and `alg`; `undefined` means "not a key I trust". */
export type KeyResolver = (
  kid: string,
  alg: CardSigningAlgorithm,
) => KeyMaterial | undefined | Promise<KeyMaterial | undefined>;

/** Key sources and policy shared by every signature of one card. */
export interface KeySourceOptions {
  /** Trusted keys: a JWK list (matched by `kid`) or a resolver. */
  readonly keys?: readonly JWK[] | KeyResolver;
  /** A trusted JWKS URL, fetched (once per verification) when `keys` has no match. */
  readonly jwksUrl?: string | URL;
  /**
   * Use the `jku` of a signature's protected header. `true` trusts any https `jku`, which only
   * proves the card matches keys published at that URL, not who published them: prefer a
   * predicate (e.g. same origin as the card URL).
   */
  readonly trustJku?: boolean | ((jku: URL) => boolean);
  /** Refuse keys the caller knows to be revoked or expired (spec §8.4.3). */
  readonly isRevoked?: (kid: string, jwk?: JWK) => boolean | Promise<boolean>;
  /** Permit http `jwksUrl`/`jku` (tests, loopback). Default false: HTTPS only (spec §8.4.3). */
  readonly allowInsecure?: boolean;
  /** Options for fetching `jwksUrl` and `jku` (fetch implementation, timeout, size limit). */
  readonly fetchOptions?: FetchJwksOptions;
  /** Clock for JWK `exp`/`nbf`; default now. */
  readonly now?: Date | number;
}

/** A verification key ready for jose, with the JWK it came from when there was one. */
export interface CandidateKey {
  readonly key: KeyMaterial;
  readonly jwk?: JWK;
}

/** Resolves candidate keys per signature; JWKS documents are fetched at most once. */
export class KeySources {
  private readonly fetched = new Map<string, Promise<JWK[]>>();

  constructor(private readonly options: KeySourceOptions) {
    if (options.keys === undefined && options.jwksUrl === undefined && !options.trustJku) {
      throw new TypeError('verifyAgentCard needs trusted keys: pass keys, jwksUrl or trustJku');
    }
  }

  /** Every usable key for `kid`/`alg`, trusted sources first; throws when there is none. */
  async candidates(
    kid: string,
    alg: CardSigningAlgorithm,
    jku: string | undefined,
  ): Promise<CandidateKey[]> {
    const { keys, jwksUrl } = this.options;
    let found: KeyMaterial[] = [];
    if (typeof keys === 'function') {
      let key: KeyMaterial | undefined;
      try {
        key = await keys(kid, alg);
      } catch (e) {
        throw new SignatureRejected('UNKNOWN_KEY', `key lookup for "${kid}" failed: ${message(e)}`);
      }
      if (key !== undefined) found = [key];
    } else if (keys !== undefined) {
      found = keys.filter((k) => k.kid === kid);
    }
    if (found.length === 0 && jwksUrl !== undefined) {
      found = (await this.load(String(jwksUrl))).filter((k) => k.kid === kid);
    }
    if (found.length === 0 && jku !== undefined) found = await this.fromJku(kid, jku);
    if (found.length === 0) throw new SignatureRejected('UNKNOWN_KEY', `no trusted key "${kid}"`);
    const problems: SignatureRejected[] = [];
    const out: CandidateKey[] = [];
    for (const key of found) {
      const candidate = await this.accept(kid, alg, key, problems);
      if (candidate !== undefined) out.push(candidate);
    }
    if (out.length === 0) throw problems[0]!;
    return out;
  }

  private async accept(
    kid: string,
    alg: CardSigningAlgorithm,
    key: KeyMaterial,
    problems: SignatureRejected[],
  ): Promise<CandidateKey | undefined> {
    try {
      if (!isJwk(key) && key.type === 'secret') {
        throw new SignatureRejected('KEY_REJECTED', 'symmetric keys cannot verify card signatures');
      }
      const jwk = isJwk(key) ? usableVerificationJwk(key, alg, this.now()) : undefined;
      if (await this.options.isRevoked?.(kid, jwk)) {
        throw new SignatureRejected('KEY_REVOKED', `key "${kid}" is revoked`);
      }
      if (jwk === undefined) return { key };
      const imported = await importJWK(jwk, alg);
      if (imported instanceof Uint8Array) throw new TypeError('not an asymmetric key');
      return { key: imported, jwk };
    } catch (e) {
      problems.push(
        e instanceof SignatureRejected
          ? e
          : new SignatureRejected('KEY_REJECTED', `key "${kid}": ${message(e)}`),
      );
      return undefined;
    }
  }

  private async fromJku(kid: string, jku: string): Promise<JWK[]> {
    const trust = this.options.trustJku;
    let url: URL;
    try {
      url = new URL(jku);
    } catch {
      throw new SignatureRejected('MALFORMED_SIGNATURE', `"jku" is not a URL: ${jku}`);
    }
    if (!trust || (typeof trust === 'function' && !trust(url))) {
      throw new SignatureRejected(
        'UNTRUSTED_JKU',
        `no trusted key "${kid}" (jku ${jku} not trusted)`,
      );
    }
    return (await this.load(url.href)).filter((k) => k.kid === kid);
  }

  private load(url: string): Promise<JWK[]> {
    let p = this.fetched.get(url);
    if (p === undefined) {
      const { allowInsecure, fetchOptions } = this.options;
      const options =
        allowInsecure === undefined ? fetchOptions : { ...fetchOptions, allowInsecure };
      p = fetchJwks(url, options).catch((e: unknown) => {
        throw new SignatureRejected('JWKS_UNAVAILABLE', message(e));
      });
      this.fetched.set(url, p);
    }
    return p;
  }

  private now(): number {
    const { now } = this.options;
    return now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime();
  }
}

function isJwk(k: KeyMaterial): k is JWK {
  // CryptoKey and KeyObject both carry `type`; a JWK never does (it has `kty`).
  return !('type' in k);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
