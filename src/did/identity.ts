/**
 * A did:wba identity: the DID, the DID URL of its key (the `keyid` of every signature), and the
 * private key. Made from a saved private JWK (`a2a did init` writes one) or generated.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import {
  algorithmOf,
  createDidDocument,
  type DidDocument,
  type DidPublicJwk,
  type DidSignatureAlgorithm,
} from './document.js';
import { parseDidWba } from './identifier.js';

/** A private JWK (Ed25519 `OKP` or `EC` P-256/P-384, with `d`). */
export interface DidPrivateJwk extends DidPublicJwk {
  readonly d: string;
}

/** Who signs: the DID, its key's DID URL, the private key and its algorithm. */
export interface DidIdentity {
  readonly did: string;
  /** The DID URL of the verification method (`did:wba:example.com#key-1`): the `keyid`. */
  readonly keyId: string;
  readonly alg: DidSignatureAlgorithm;
  readonly privateKey: KeyObject;
  /** The public JWK, as the DID document lists it. */
  readonly publicJwk: DidPublicJwk;
}

/** Options of {@link didIdentity}. */
export interface DidIdentityOptions {
  readonly did: string;
  readonly privateJwk: DidPrivateJwk;
  /** Fragment of the key in the DID document (default `key-1`). */
  readonly keyFragment?: string | undefined;
}

/** The identity of `did` signing with `privateJwk`; throws when the DID or key is unusable. */
export function didIdentity(options: DidIdentityOptions): DidIdentity {
  parseDidWba(options.did);
  const { kty, crv, x, y, d } = options.privateJwk;
  if (typeof d !== 'string') throw new TypeError('the did:wba key JWK has no private part (d)');
  const publicJwk: DidPublicJwk = {
    kty,
    ...(crv === undefined ? {} : { crv }),
    ...(x === undefined ? {} : { x }),
    ...(y === undefined ? {} : { y }),
  };
  const alg = algorithmOf(publicJwk);
  if (alg === undefined)
    throw new TypeError(`a did:wba key must be Ed25519 or EC P-256/P-384, not ${kty}`);
  const privateKey = createPrivateKey({ key: { kty, crv, x, y, d } as never, format: 'jwk' });
  return {
    did: options.did,
    keyId: `${options.did}#${options.keyFragment ?? 'key-1'}`,
    alg,
    privateKey,
    publicJwk,
  };
}

/** A new private JWK: Ed25519 (default) or EC P-256. Keep it secret; publish the DID document. */
export function generateDidKey(type: 'Ed25519' | 'P-256' = 'Ed25519'): DidPrivateJwk {
  const pair =
    type === 'Ed25519'
      ? generateKeyPairSync('ed25519')
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.privateKey.export({ format: 'jwk' }) as DidPrivateJwk;
  return { ...jwk, kid: randomUUID() };
}

/** The DID document publishing `identity`'s key (serve it at `didDocumentPath(identity.did)`). */
export function didDocumentOf(
  identity: DidIdentity,
  service?: readonly Record<string, unknown>[],
): DidDocument {
  const keyFragment = identity.keyId.slice(identity.keyId.indexOf('#') + 1);
  return createDidDocument({
    did: identity.did,
    publicJwk: identity.publicJwk,
    keyFragment,
    service,
  });
}

/** The public KeyObject of a JWK (for verifiers). */
export function publicKeyOf(jwk: DidPublicJwk): KeyObject {
  const { kty, crv, x, y } = jwk;
  return createPublicKey({ key: { kty, crv, x, y } as never, format: 'jwk' });
}
