/**
 * Signed push notifications: each delivery carries a short-lived JWT in the header
 * `X-A2A-Notification-Signature` (the config's own credentials keep `Authorization`). Protected
 * header `alg` (ES256 by default), `kid`, `typ: a2a-push+jwt` (explicit typing, RFC 8725 §3.11);
 * claims `iat`, `exp` (5 minutes), `jti` (unique per attempt), `taskId`, `sha256` (base64url
 * SHA-256 of the exact body bytes), `aud` (the webhook URL) and `iss` when configured. The
 * public keys are published as a JWKS (see jwks.ts); several keys may be published while the
 * newest signs, so keys rotate without breaking receivers. Runtime-neutral (jose, Web Crypto).
 */
import { toBase64Url } from '../core/base64.js';
import { SignJWT, type JWK } from 'jose';
import {
  exportPrivateJwk,
  exportPublicJwks,
  generateSigningKey,
  importSigningKey,
  type CardSigningAlgorithm,
  type SigningKey,
} from '../security/signing-keys.js';

/** The request header carrying the signature JWT. */
export const PUSH_SIGNATURE_HEADER = 'X-A2A-Notification-Signature';
/** The request header carrying the config's `token` (the header both official SDKs use). */
export const PUSH_TOKEN_HEADER = 'X-A2A-Notification-Token';
/** The request header carrying the delivery id, stable across retries (for idempotency). */
export const PUSH_ID_HEADER = 'X-A2A-Notification-Id';
/** The JWT `typ` of push signatures. */
export const PUSH_JWT_TYPE = 'a2a-push+jwt';

/** The claims of a push signature. */
export interface PushClaims {
  readonly iss?: string | undefined;
  readonly aud?: string | string[] | undefined;
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
  readonly taskId: string;
  readonly sha256: string;
}

/** Options of {@link PushSigner}. */
export interface PushSignerOptions {
  /** Signing keys, newest first: the first signs, all are published. */
  readonly keys: readonly SigningKey[];
  /** `iss` of every signature: the agent's public URL. */
  readonly issuer?: string | undefined;
  /** Lifetime of a signature; default 300 s. */
  readonly ttlSeconds?: number | undefined;
}

/** Signs push bodies and publishes the public keys; supports rotation. */
export class PushSigner {
  private keys: SigningKey[];
  readonly issuer: string | undefined;
  readonly ttlSeconds: number;

  constructor(options: PushSignerOptions) {
    if (options.keys.length === 0) throw new TypeError('PushSigner needs at least one key');
    this.keys = [...options.keys];
    this.issuer = options.issuer;
    this.ttlSeconds = options.ttlSeconds ?? 300;
  }

  /** A signer with a fresh key pair (`alg` default ES256); the key lives as long as the process. */
  static async generate(
    options: Omit<PushSignerOptions, 'keys'> & { alg?: CardSigningAlgorithm } = {},
  ): Promise<PushSigner> {
    return new PushSigner({ ...options, keys: [await generateSigningKey(options.alg)] });
  }

  /** A signer from saved private JWKs, newest first (see {@link PushSigner.exportPrivateJwks}). */
  static async fromPrivateJwks(
    jwks: { keys: readonly JWK[] },
    options: Omit<PushSignerOptions, 'keys'> = {},
  ): Promise<PushSigner> {
    const keys = await Promise.all(jwks.keys.map((k) => importSigningKey(k)));
    return new PushSigner({ ...options, keys });
  }

  /** The key that signs now. */
  get current(): SigningKey {
    return this.keys[0] as SigningKey;
  }

  /** The kids published, newest first. */
  get kids(): string[] {
    return this.keys.map((k) => k.kid);
  }

  /**
   * Rotation: `key` signs from now on; the previous keys stay published until retired, so
   * receivers holding a signature made a moment ago can still check it.
   */
  rotate(key: SigningKey): void {
    this.keys = [key, ...this.keys.filter((k) => k.kid !== key.kid)];
  }

  /** Stops publishing an old key (never the current one). */
  retire(kid: string): void {
    if (kid === this.current.kid) throw new Error(`key ${kid} signs now: rotate before retiring`);
    this.keys = this.keys.filter((k) => k.kid !== kid);
  }

  /** The public JWKS document (`{"keys": [...]}`) of every published key. */
  jwks(): Promise<{ keys: JWK[] }> {
    return exportPublicJwks(this.keys);
  }

  /** The private JWKS of every key, newest first, for saving (keep it secret). */
  async exportPrivateJwks(): Promise<{ keys: JWK[] }> {
    return { keys: await Promise.all(this.keys.map((k) => exportPrivateJwk(k))) };
  }

  /** The signature JWT of one delivery body for `taskId`, addressed to the webhook `audience`. */
  async sign(input: { body: Uint8Array; taskId: string; audience?: string }): Promise<string> {
    const key = this.current;
    const now = Math.floor(Date.now() / 1000);
    let jwt = new SignJWT({ taskId: input.taskId, sha256: await sha256Base64url(input.body) })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: PUSH_JWT_TYPE })
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .setJti(globalThis.crypto.randomUUID());
    if (this.issuer !== undefined) jwt = jwt.setIssuer(this.issuer);
    if (input.audience !== undefined) jwt = jwt.setAudience(input.audience);
    return jwt.sign(key.key);
  }
}

/** Base64url (no padding) SHA-256 of `bytes`. */
export async function sha256Base64url(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(bytes)),
  );
  return toBase64Url(digest);
}
