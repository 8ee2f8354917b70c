/**
 * A did:wba identity: the DID, the DID URL of its key (the `keyid` of every signature), and the
 * private key. Made from a saved private JWK (`a2a did init` writes one) or generated. For an
 * `e1_` DID the key must be the Ed25519 key the DID's fingerprint binds, and its document is
 * written with a `Multikey` and signed (an `eddsa-jcs-2022` proof, src/did/e1.ts).
 */
import { createPrivateKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import {
  algorithmOf,
  createDidDocument,
  type DidDocument,
  type DidPublicJwk,
  type DidSignatureAlgorithm,
} from './document.js';
import { signE1Document } from './e1.js';
import { parseDidWba } from './identifier.js';
import { ed25519Thumbprint } from './multikey.js';

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
  const { e1Fingerprint } = parseDidWba(options.did);
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
  if (e1Fingerprint !== undefined) {
    if (alg !== 'ed25519') throw new TypeError('the key of an e1_ DID is an Ed25519 key');
    if (ed25519Thumbprint(publicJwk) !== e1Fingerprint) {
      throw new TypeError(
        `this key is not the one ${options.did} binds: its thumbprint is ${ed25519Thumbprint(publicJwk)}`,
      );
    }
  }
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

/**
 * The DID document publishing `identity`'s key (serve it at `didDocumentPath(identity.did)`).
 * For an `e1_` DID: the key as an Ed25519 `Multikey`, and the document's `eddsa-jcs-2022` proof
 * by it (made now).
 */
export function didDocumentOf(
  identity: DidIdentity,
  service?: readonly Record<string, unknown>[],
): DidDocument {
  const keyFragment = identity.keyId.slice(identity.keyId.indexOf('#') + 1);
  const e1 = parseDidWba(identity.did).e1Fingerprint !== undefined;
  const document = createDidDocument({
    did: identity.did,
    publicJwk: identity.publicJwk,
    keyFragment,
    service,
    keyFormat: e1 ? 'Multikey' : 'JsonWebKey2020',
  });
  return e1 ? signE1Document(document, identity.keyId, identity.privateKey) : document;
}
