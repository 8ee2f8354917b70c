/** node:crypto KeyObjects of the public JWKs DID documents carry (for verifiers). */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { DidPublicJwk } from './document.js';

/** The public KeyObject of a JWK (Ed25519 `OKP` or `EC`). */
export function publicKeyOf(jwk: DidPublicJwk): KeyObject {
  const { kty, crv, x, y } = jwk;
  return createPublicKey({ key: { kty, crv, x, y } as never, format: 'jwk' });
}
