/**
 * Finding verification methods in a DID document (W3C DID Core §5.3): by DID URL, in
 * `verificationMethod` or embedded in a verification relationship (`authentication`,
 * `assertionMethod`), ids relative to the DID (`#key-1`) expanded (ANP did:wba v1.1 §2.4 item 5);
 * and the public key of a method as a JWK, from `publicKeyJwk` or from the `publicKeyMultibase`
 * of an Ed25519 `Multikey`.
 */
import type { DidDocument, DidPublicJwk, DidVerificationMethod } from './document.js';
import { ed25519JwkOfMultikey } from './multikey.js';

/** The relationships a method can be listed under. */
export type VerificationRelationship = 'authentication' | 'assertionMethod';

/** Full DID URL of a method id that may be relative (`#key-1`). */
export function absoluteId(id: string, did: string): string {
  return id.startsWith('#') ? did + id : id;
}

/** True when `relationship` lists the method `keyId`, by reference or embedded. */
export function isListedUnder(
  document: DidDocument,
  relationship: VerificationRelationship,
  keyId: string,
): boolean {
  return (document[relationship] ?? []).some(
    (entry) => absoluteId(typeof entry === 'string' ? entry : entry.id, document.id) === keyId,
  );
}

/** The method `keyId`: in `verificationMethod`, else embedded under a relationship. */
export function findMethod(
  document: DidDocument,
  keyId: string,
): DidVerificationMethod | undefined {
  const matches = (m: DidVerificationMethod) => absoluteId(m.id, document.id) === keyId;
  const listed = (document.verificationMethod ?? []).find(matches);
  if (listed !== undefined) return listed;
  for (const relationship of ['authentication', 'assertionMethod'] as const) {
    for (const entry of document[relationship] ?? []) {
      if (typeof entry !== 'string' && matches(entry)) return entry;
    }
  }
  return undefined;
}

/** Method types whose `publicKeyMultibase` is a multicodec key (`z6Mk…` for Ed25519). */
const MULTIKEY_TYPES = new Set(['Multikey', 'Ed25519VerificationKey2020']);
const multikeyJwks = new WeakMap<DidVerificationMethod, DidPublicJwk>();

/**
 * The public key of `method` as a JWK: its `publicKeyJwk`, or the Ed25519 key of its
 * `publicKeyMultibase` (one JWK object per method object, so verifiers can cache by it).
 */
export function methodJwk(method: DidVerificationMethod): DidPublicJwk | undefined {
  if (method.publicKeyJwk !== undefined) return method.publicKeyJwk;
  const multibase = method.publicKeyMultibase;
  if (typeof multibase !== 'string' || !MULTIKEY_TYPES.has(method.type)) return undefined;
  let jwk = multikeyJwks.get(method);
  if (jwk === undefined) {
    jwk = ed25519JwkOfMultikey(multibase);
    if (jwk !== undefined) multikeyJwks.set(method, jwk);
  }
  return jwk;
}
