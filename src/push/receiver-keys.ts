/**
 * Where a push receiver finds the agent's public keys: a fixed JWK list, or the agent's JWKS URL,
 * cached and fetched again (at most once per cooldown) when a signature names an unknown `kid`,
 * which is how a key rotation reaches the receiver. Runtime-neutral.
 */
import { importJWK, type JWK } from 'jose';
import { fetchJwks } from '../security/jwks.js';
import {
  isCardSigningAlgorithm,
  usableVerificationJwk,
  type KeyMaterial,
} from '../security/signing-keys.js';

/** The agent's push keys: its JWKS URL, or the keys themselves. */
export type PushKeySource = string | URL | readonly JWK[] | { readonly keys: readonly JWK[] };

/** Options of {@link PushKeys}. */
export interface PushKeysOptions {
  /** Allow an http JWKS URL (loopback development, tests). Default false: https only. */
  readonly allowInsecure?: boolean | undefined;
  readonly fetch?: typeof fetch | undefined;
  /** How long a fetched JWKS is used; default 300 s. */
  readonly cacheSeconds?: number | undefined;
  /** Least time between two fetches caused by unknown kids; default 30 s. */
  readonly cooldownSeconds?: number | undefined;
}

/** The JWKS could not be fetched: a transient problem of the receiver, not a bad signature. */
export class KeysUnavailable extends Error {
  override readonly name = 'KeysUnavailable';
}

/** A verification key lookup by `kid` and `alg`. */
export class PushKeys {
  private keys: readonly JWK[] = [];
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | undefined;
  private readonly url: URL | undefined;

  constructor(
    source: PushKeySource,
    private readonly options: PushKeysOptions = {},
  ) {
    if (typeof source === 'string' || source instanceof URL) this.url = new URL(source);
    else this.keys = 'keys' in source ? [...(source as { keys: readonly JWK[] }).keys] : source;
  }

  /** The key for a signature's `kid` and `alg`; throws an Error saying why there is none. */
  async key(kid: string | undefined, alg: string | undefined): Promise<KeyMaterial> {
    if (!kid) throw new Error('the signature names no key (kid)');
    if (!isCardSigningAlgorithm(alg)) throw new Error(`algorithm ${String(alg)} is not accepted`);
    let jwk = await this.find(kid);
    if (!jwk && this.url && Date.now() - this.fetchedAt >= this.cooldownMs()) {
      await this.refresh();
      jwk = this.keys.find((k) => k.kid === kid);
    }
    if (!jwk) throw new Error(`no published key has kid "${kid}"`);
    const key = await importJWK(usableVerificationJwk(jwk, alg, Date.now()), alg);
    if (key instanceof Uint8Array) throw new Error(`key "${kid}" is not an asymmetric key`);
    return key;
  }

  private async find(kid: string): Promise<JWK | undefined> {
    const cacheMs = (this.options.cacheSeconds ?? 300) * 1000;
    if (this.url && Date.now() - this.fetchedAt > cacheMs) await this.refresh();
    return this.keys.find((k) => k.kid === kid);
  }

  private cooldownMs(): number {
    return (this.options.cooldownSeconds ?? 30) * 1000;
  }

  /** One fetch at a time; a failed fetch keeps the previous keys and throws KeysUnavailable. */
  private refresh(): Promise<void> {
    const url = this.url;
    if (!url) return Promise.resolve();
    this.pending ??= fetchJwks(url, {
      allowInsecure: this.options.allowInsecure ?? false,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    })
      .then(
        (keys) => {
          this.keys = keys;
        },
        (error: unknown) => {
          const why = error instanceof Error ? error.message : String(error);
          throw new KeysUnavailable(`cannot fetch the agent's JWKS: ${why}`);
        },
      )
      .finally(() => {
        this.fetchedAt = Date.now();
        this.pending = undefined;
      });
    return this.pending;
  }
}
