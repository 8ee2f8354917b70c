/**
 * Ed25519 keys as `Multikey` (W3C Controlled Identifiers §2.2.2): `publicKeyMultibase` is `z` (the
 * multibase prefix of base58btc) followed by the base58btc of the multicodec prefix `0xed 0x01`
 * and the 32 raw key bytes. And the RFC 7638 JWK thumbprint of an Ed25519 key (SHA-256 of the
 * canonical `{crv,kty,x}`), which the did:wba `e1_` profile puts in the DID (ANP did:wba v1.1
 * §2.2.2). Multibase proof values (`z…`, eddsa-jcs-2022) use the same base58btc.
 */
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { canonicalize } from '../security/jcs.js';
import type { DidPublicJwk } from './document.js';

/** The multicodec prefix of an Ed25519 public key (`ed25519-pub`, 0xed as a varint). */
const ED25519_PUB = [0xed, 0x01] as const;

/** `z` + base58btc of `bytes` (a multibase string). */
export function multibaseBase58btc(bytes: Uint8Array): string {
  return `z${base58.encode(bytes)}`;
}

/** The bytes of a base58btc multibase string; undefined when it is not one. */
export function decodeMultibaseBase58btc(value: string): Uint8Array | undefined {
  if (!value.startsWith('z') || value.length < 2) return undefined;
  try {
    return base58.decode(value.slice(1));
  } catch {
    return undefined;
  }
}

/** The `publicKeyMultibase` of an Ed25519 public JWK (`z6Mk…`). */
export function ed25519Multikey(jwk: DidPublicJwk): string {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new TypeError('a Multikey here is an Ed25519 key (OKP, crv Ed25519)');
  }
  const raw = Buffer.from(jwk.x, 'base64url');
  if (raw.length !== 32) throw new TypeError('an Ed25519 public key is 32 bytes');
  return multibaseBase58btc(Uint8Array.from([...ED25519_PUB, ...raw]));
}

/**
 * The Ed25519 public JWK of a `publicKeyMultibase`; undefined when it is not a base58btc
 * multibase of an `ed25519-pub` multicodec key of 32 bytes.
 */
export function ed25519JwkOfMultikey(publicKeyMultibase: string): DidPublicJwk | undefined {
  const bytes = decodeMultibaseBase58btc(publicKeyMultibase);
  if (bytes?.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1]) {
    return undefined;
  }
  return { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') };
}

/**
 * The RFC 7638 thumbprint of an Ed25519 public JWK: base64url (no padding) of the SHA-256 of
 * `{"crv":"Ed25519","kty":"OKP","x":"…"}` (the required members, sorted, no whitespace): 43
 * characters. This is the `e1_` fingerprint of ANP did:wba v1.1 §2.2.2.
 */
export function ed25519Thumbprint(jwk: DidPublicJwk): string {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new TypeError('the e1_ fingerprint is the thumbprint of an Ed25519 key');
  }
  const input = canonicalize({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(input, 'utf8').digest('base64url');
}
