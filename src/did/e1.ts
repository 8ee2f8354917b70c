/**
 * The did:wba `e1_` path profile (ANP did:wba v1.1 §2.2.1-§2.2.2, §2.5.2, §2.5.5): the last path
 * segment of the DID is `e1_` + the RFC 7638 thumbprint of an Ed25519 binding key, and the DID
 * document MUST carry a `DataIntegrityProof` with cryptosuite `eddsa-jcs-2022` and proofPurpose
 * `assertionMethod`, made by that very key (listed under `assertionMethod` and
 * `authentication`). A document that does not is refused, each failure with its own reason;
 * there is no relaxed mode.
 */
import { publicKeyOf } from './keys.js';
import {
  DATA_INTEGRITY_PROOF,
  EDDSA_JCS_2022,
  eddsaJcs2022Problem,
  isXmlDateTime,
  signEddsaJcs2022,
} from './data-integrity.js';
import type { DidDocument } from './document.js';
import { DidAuthError, type DidAuthReason } from './errors.js';
import { E1_PREFIX, parseDidWba } from './identifier.js';
import { absoluteId, findMethod, isListedUnder, methodJwk } from './methods.js';
import { decodeMultibaseBase58btc, ed25519Thumbprint } from './multikey.js';
import type { DidPublicJwk } from './document.js';
import type { KeyObject } from 'node:crypto';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `e1_` DID of an Ed25519 key under a path DID: `did:wba:example.com:user:alice` →
 * `did:wba:example.com:user:alice:e1_<thumbprint>` (served at `/user/alice/e1_…/did.json`).
 */
export function e1DidOf(pathDid: string, publicJwk: DidPublicJwk): string {
  const parsed = parseDidWba(pathDid);
  if (parsed.path.length === 0) {
    throw new TypeError(
      `an e1_ DID is a path DID (did:wba:host:namespace…:e1_…): ${pathDid} has no path, give one such as ${pathDid}:agents:name`,
    );
  }
  if (parsed.e1Fingerprint !== undefined) {
    throw new TypeError(`${pathDid} already ends with an e1_ fingerprint`);
  }
  return `${pathDid}:${E1_PREFIX}${ed25519Thumbprint(publicJwk)}`;
}

/** True when `did` uses the `e1_` profile (its last path segment is `e1_<fingerprint>`). */
export function isE1Did(did: string): boolean {
  return parseDidWba(did).e1Fingerprint !== undefined;
}

/** `document` with the `eddsa-jcs-2022` proof of the binding key `keyId` (§2.5.5). */
export function signE1Document(
  document: DidDocument,
  keyId: string,
  privateKey: KeyObject,
): DidDocument {
  const { proof: _old, ...unsigned } = document;
  return signEddsaJcs2022(unsigned, { verificationMethod: keyId }, privateKey);
}

/**
 * Checks the proof of an `e1_` DID's document (ANP did:wba v1.1 §2.5.2): present, a
 * `DataIntegrityProof` / `eddsa-jcs-2022` for `assertionMethod`, made by an Ed25519 key of the
 * document listed under `assertionMethod` and `authentication` whose RFC 7638 thumbprint is the
 * DID's `fingerprint`, and valid. Throws {@link DidAuthError} naming what failed.
 */
export function checkE1Proof(document: DidDocument, fingerprint: string, now = Date.now()): void {
  const did = document.id;
  const fail = (reason: DidAuthReason, why: string) =>
    new DidAuthError(reason, `the DID document of ${did} is refused: ${why}`);
  const proof = document.proof;
  if (proof === undefined) {
    throw fail(
      'MISSING_PROOF',
      'an e1_ DID document must carry a proof (DataIntegrityProof, eddsa-jcs-2022) by its binding key',
    );
  }
  if (!isObject(proof)) throw fail('MALFORMED_PROOF', 'its proof is not one JSON object');
  if (proof.type !== DATA_INTEGRITY_PROOF || proof.cryptosuite !== EDDSA_JCS_2022) {
    throw fail(
      'UNSUPPORTED_CRYPTOSUITE',
      `its proof is ${JSON.stringify(proof.type)} / ${JSON.stringify(proof.cryptosuite)}, not ${DATA_INTEGRITY_PROOF} / ${EDDSA_JCS_2022}`,
    );
  }
  if (proof.proofPurpose !== 'assertionMethod') {
    throw fail(
      'WRONG_PROOF_PURPOSE',
      `its proofPurpose is ${JSON.stringify(proof.proofPurpose)}, not assertionMethod`,
    );
  }
  if (!isXmlDateTime(proof.created)) {
    throw fail('MALFORMED_PROOF', 'its proof has no created time (XML Schema dateTime)');
  }
  const expires = proof.expires;
  if (expires !== undefined) {
    if (typeof expires !== 'string' || !isXmlDateTime(expires)) {
      throw fail('MALFORMED_PROOF', 'its proof expires is not an XML Schema dateTime');
    }
    if (Date.parse(expires) < now) throw fail('BAD_PROOF', `its proof expired at ${expires}`);
  }
  if (typeof proof.verificationMethod !== 'string') {
    throw fail('MALFORMED_PROOF', 'its proof has no verificationMethod (the DID URL of its key)');
  }
  const value = proof.proofValue;
  if (typeof value !== 'string' || decodeMultibaseBase58btc(value)?.length !== 64) {
    throw fail(
      'MALFORMED_PROOF',
      'its proofValue is not a base58btc multibase (z…) Ed25519 signature of 64 bytes',
    );
  }
  const keyId = absoluteId(proof.verificationMethod, did);
  if (!keyId.startsWith(`${did}#`)) {
    throw fail(
      'FINGERPRINT_MISMATCH',
      `its proof is made by ${keyId}, a key of another DID, not the e1_ binding key`,
    );
  }
  const method = findMethod(document, keyId);
  if (method === undefined) {
    throw fail('MALFORMED_PROOF', `its proof names ${keyId}, which no verification method has`);
  }
  if (!isListedUnder(document, 'assertionMethod', keyId)) {
    throw fail('WRONG_PROOF_PURPOSE', `its proof key ${keyId} is not listed under assertionMethod`);
  }
  const jwk = methodJwk(method);
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
    throw fail(
      'FINGERPRINT_MISMATCH',
      `its proof key ${keyId} is not an Ed25519 key, so it is not the e1_ binding key`,
    );
  }
  const thumbprint = ed25519Thumbprint(jwk);
  if (thumbprint !== fingerprint) {
    throw fail(
      'FINGERPRINT_MISMATCH',
      `its proof key ${keyId} has the thumbprint ${thumbprint}, but the DID binds e1_${fingerprint}`,
    );
  }
  if (!isListedUnder(document, 'authentication', keyId)) {
    throw fail(
      'INVALID_DOCUMENT',
      `its e1_ binding key ${keyId} is not listed under authentication`,
    );
  }
  const problem = eddsaJcs2022Problem(document, publicKeyOf(jwk));
  if (problem !== undefined) throw fail('BAD_PROOF', problem);
}
