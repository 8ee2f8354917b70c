/**
 * Keys for Agent Card signatures: the algorithms we accept, key generation and import for the
 * server and CLI, public JWKS export, and the checks a verification key must pass.
 */
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
  type KeyObject,
} from 'jose';
import { SignatureRejected } from './signature-error.js';

/**
 * Asymmetric JWS algorithms accepted for card signatures. `none` and the HMAC family are never
 * accepted: a card signature must be checkable with a public key (spec §8.4.3).
 */
export const CARD_SIGNING_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
  'Ed25519',
] as const;

/** One of {@link CARD_SIGNING_ALGORITHMS}. */
export type CardSigningAlgorithm = (typeof CARD_SIGNING_ALGORITHMS)[number];

/** A key usable to sign or verify: a Web Crypto key, a Node KeyObject or a JWK. */
export type KeyMaterial = CryptoKey | KeyObject | JWK;

/** A private signing key with the `kid` and `alg` it signs under; pass it to `signAgentCard`. */
export interface SigningKey {
  readonly alg: CardSigningAlgorithm;
  readonly kid: string;
  /** The private key. */
  readonly key: CryptoKey;
  readonly publicKey: CryptoKey;
}

/** True when `alg` names an algorithm we accept for card signatures. */
export function isCardSigningAlgorithm(alg: unknown): alg is CardSigningAlgorithm {
  return typeof alg === 'string' && (CARD_SIGNING_ALGORITHMS as readonly string[]).includes(alg);
}

/**
 * A new key pair for `alg` (default ES256). `kid` defaults to the RFC 7638 thumbprint of the
 * public key; the private key is extractable so the CLI can save it.
 */
export async function generateSigningKey(
  alg: CardSigningAlgorithm = 'ES256',
  options: { kid?: string } = {},
): Promise<SigningKey> {
  assertAlgorithm(alg);
  const pair = await generateKeyPair(alg, { extractable: true });
  const kid = options.kid ?? (await calculateJwkThumbprint(await exportJWK(pair.publicKey)));
  return { alg, kid, key: pair.privateKey, publicKey: pair.publicKey };
}

/**
 * A signing key from a private JWK (as saved by the CLI). `alg` and `kid` come from the options,
 * else from the JWK, else ES256 and the RFC 7638 thumbprint.
 */
export async function importSigningKey(
  jwk: JWK,
  options: { alg?: CardSigningAlgorithm; kid?: string } = {},
): Promise<SigningKey> {
  const alg = options.alg ?? jwk.alg ?? 'ES256';
  assertAlgorithm(alg);
  if (jwk.d === undefined) throw new TypeError('importSigningKey needs a private JWK (no "d")');
  const publicJwk = publicPart(jwk);
  const key = await importJWK({ ...jwk, ext: true }, alg);
  const publicKey = await importJWK(publicJwk, alg);
  if (!isCryptoKey(key) || !isCryptoKey(publicKey)) throw new TypeError('not an asymmetric JWK');
  const kid = options.kid ?? jwk.kid ?? (await calculateJwkThumbprint(publicJwk));
  return { alg, kid, key, publicKey };
}

/** The private JWK of a signing key, with `kid` and `alg` (for the CLI to save). */
export async function exportPrivateJwk(key: SigningKey): Promise<JWK> {
  return { ...(await exportJWK(key.key)), kid: key.kid, alg: key.alg, use: 'sig' };
}

/**
 * A JWKS document (`{"keys": [...]}`) of the public halves of `keys`, each with `kid`, `alg`
 * and `use: "sig"`, for a `jku` URL or a trusted key store. Private members are never copied.
 */
export async function exportPublicJwks(
  keys: readonly (SigningKey | JWK)[],
): Promise<{ keys: JWK[] }> {
  const out: JWK[] = [];
  for (const k of keys) {
    if ('publicKey' in k) {
      out.push({ ...(await exportJWK(k.publicKey)), kid: k.kid, alg: k.alg, use: 'sig' });
    } else {
      if (k.kid === undefined) throw new TypeError('a JWK in a JWKS needs a "kid"');
      out.push({ ...publicPart(k), use: 'sig' });
    }
  }
  return { keys: out };
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'] as const;

/** The JWK without private (or symmetric) key material and without Web Crypto's `ext`. */
export function publicPart(jwk: JWK): JWK {
  const out: Record<string, unknown> = { ...jwk };
  for (const m of PRIVATE_MEMBERS) delete out[m];
  delete out['ext'];
  delete out['key_ops'];
  return out;
}

/**
 * Checks a JWK offered to verify a signature made with `alg` and returns its public part:
 * symmetric keys, `use` other than "sig", `key_ops` without "verify", a different `alg`, and
 * keys outside their (non-standard but common) `nbf`/`exp` validity window are refused.
 */
export function usableVerificationJwk(jwk: JWK, alg: CardSigningAlgorithm, now: number): JWK {
  if (jwk.kty === 'oct' || jwk.k !== undefined) {
    throw new SignatureRejected('KEY_REJECTED', 'symmetric keys cannot verify card signatures');
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') {
    throw new SignatureRejected('KEY_REJECTED', `key has "use": "${jwk.use}", not "sig"`);
  }
  if (jwk.key_ops !== undefined && !jwk.key_ops.includes('verify')) {
    throw new SignatureRejected('KEY_REJECTED', 'key "key_ops" does not include "verify"');
  }
  if (jwk.alg !== undefined && jwk.alg !== alg) {
    throw new SignatureRejected('KEY_REJECTED', `key is for ${jwk.alg}, signature uses ${alg}`);
  }
  const { exp, nbf } = jwk as Record<string, unknown>;
  if (typeof exp === 'number' && now >= exp * 1000) {
    throw new SignatureRejected('KEY_REVOKED', 'key has expired ("exp")'); // spec §8.4.3
  }
  if (typeof nbf === 'number' && now < nbf * 1000) {
    throw new SignatureRejected('KEY_REVOKED', 'key is not valid yet ("nbf")');
  }
  return publicPart(jwk);
}

function assertAlgorithm(alg: unknown): asserts alg is CardSigningAlgorithm {
  if (!isCardSigningAlgorithm(alg)) {
    throw new TypeError(
      `unsupported card signing algorithm ${String(alg)}; use one of ${CARD_SIGNING_ALGORITHMS.join(', ')}`,
    );
  }
}

function isCryptoKey(k: unknown): k is CryptoKey {
  return typeof k === 'object' && k !== null && 'algorithm' in k && 'type' in k;
}
