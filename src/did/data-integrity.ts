/**
 * Data Integrity proofs with the `eddsa-jcs-2022` cryptosuite (W3C Data Integrity EdDSA
 * Cryptosuites v1.0 §3.3): the hash data is SHA-256 of the RFC 8785 form of the proof
 * configuration (the proof without `proofValue`) followed by SHA-256 of the RFC 8785 form of the
 * document without `proof` (§3.3.4); the proof value is the Ed25519 signature of it, multibase
 * base58btc (`z…`, §3.3.5). A new proof copies the document's `@context` (§3.3.1 step 2); a
 * verifier checks that the document's `@context` starts with the proof's (§3.3.2 step 4).
 */
import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalize } from '../security/jcs.js';
import { decodeMultibaseBase58btc, multibaseBase58btc } from './multikey.js';

/** The `type` of every Data Integrity proof. */
export const DATA_INTEGRITY_PROOF = 'DataIntegrityProof';
/** The cryptosuite of Ed25519 proofs over RFC 8785 canonical JSON. */
export const EDDSA_JCS_2022 = 'eddsa-jcs-2022';

/** A Data Integrity proof (VC Data Integrity 1.0 §2.1) as this toolkit writes and reads it. */
export interface DataIntegrityProof {
  readonly type: string;
  readonly cryptosuite: string;
  readonly verificationMethod: string;
  readonly proofPurpose: string;
  readonly proofValue: string;
  readonly created?: string | undefined;
  readonly '@context'?: unknown;
  readonly [member: string]: unknown;
}

/** The proof options of a new proof. */
export interface EddsaJcs2022Options {
  /** The DID URL of the Ed25519 key that signs. */
  readonly verificationMethod: string;
  /** Default `assertionMethod`. */
  readonly proofPurpose?: string | undefined;
  /** XML Schema dateTime; default now, whole seconds (`2026-12-01T19:00:00Z`). */
  readonly created?: string | undefined;
  /** Further proof options (`expires`, `domain`, `challenge`), signed with the rest. */
  readonly extra?: Readonly<Record<string, string>> | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `proofConfigHash || transformedDocumentHash` (§3.3.4), 64 bytes. */
export function eddsaJcs2022HashData(
  unsecuredDocument: Readonly<Record<string, unknown>>,
  proofConfig: Readonly<Record<string, unknown>>,
): Uint8Array {
  const proofHash = createHash('sha256').update(canonicalize(proofConfig), 'utf8').digest();
  const documentHash = createHash('sha256')
    .update(canonicalize(unsecuredDocument), 'utf8')
    .digest();
  return Buffer.concat([proofHash, documentHash]);
}

/** XML Schema dateTime of `ms`, whole seconds, UTC. */
export function xmlDateTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** True for an XML Schema 1.1 dateTime (`2026-12-01T19:00:00Z`, offsets and fractions allowed). */
export function isXmlDateTime(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}

/**
 * The `eddsa-jcs-2022` proof of `unsecuredDocument` (any `proof` it has is left out) signed with
 * the Ed25519 `privateKey` (§3.3.1).
 */
export function createEddsaJcs2022Proof(
  unsecuredDocument: Readonly<Record<string, unknown>>,
  options: EddsaJcs2022Options,
  privateKey: KeyObject,
): DataIntegrityProof {
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('an eddsa-jcs-2022 proof is signed with an Ed25519 key');
  }
  const { proof: _ignored, ...document } = unsecuredDocument;
  const proofConfig: Record<string, unknown> = {
    type: DATA_INTEGRITY_PROOF,
    cryptosuite: EDDSA_JCS_2022,
    created: options.created ?? xmlDateTime(Date.now()),
    verificationMethod: options.verificationMethod,
    proofPurpose: options.proofPurpose ?? 'assertionMethod',
    ...options.extra,
    ...(document['@context'] === undefined ? {} : { '@context': document['@context'] }),
  };
  if (!isXmlDateTime(proofConfig.created)) {
    throw new TypeError(`created ${String(proofConfig.created)} is not an XML Schema dateTime`);
  }
  const signature = sign(null, eddsaJcs2022HashData(document, proofConfig), privateKey);
  return { ...proofConfig, proofValue: multibaseBase58btc(signature) } as DataIntegrityProof;
}

/** `document` with its `eddsa-jcs-2022` proof as `proof`. */
export function signEddsaJcs2022<T extends Readonly<Record<string, unknown>>>(
  document: T,
  options: EddsaJcs2022Options,
  privateKey: KeyObject,
): T & { readonly proof: DataIntegrityProof } {
  return { ...document, proof: createEddsaJcs2022Proof(document, options, privateKey) };
}

/**
 * Checks the `eddsa-jcs-2022` proof of `securedDocument` with the Ed25519 `publicKey` (§3.3.2);
 * undefined when it verifies, else what is wrong. The caller has found the key the proof's
 * `verificationMethod` names and checked its purpose.
 */
export function eddsaJcs2022Problem(
  securedDocument: Readonly<Record<string, unknown>>,
  publicKey: KeyObject,
): string | undefined {
  const { proof, ...rest } = securedDocument;
  const unsecured: Record<string, unknown> = rest;
  if (!isObject(proof)) return 'the document has no proof object';
  const { proofValue, ...proofOptions } = proof;
  if (proofOptions.type !== DATA_INTEGRITY_PROOF || proofOptions.cryptosuite !== EDDSA_JCS_2022) {
    return `the proof is not a ${DATA_INTEGRITY_PROOF} with cryptosuite ${EDDSA_JCS_2022}`;
  }
  if (proofOptions.created !== undefined && !isXmlDateTime(proofOptions.created)) {
    return `the proof's created ${JSON.stringify(proofOptions.created)} is not an XML Schema dateTime`;
  }
  const signature =
    typeof proofValue === 'string' ? decodeMultibaseBase58btc(proofValue) : undefined;
  if (signature?.length !== 64) {
    return 'the proofValue is not a base58btc multibase (z…) Ed25519 signature of 64 bytes';
  }
  if (proofOptions['@context'] !== undefined) {
    const mine = [proofOptions['@context']].flat();
    const theirs = [unsecured['@context']].flat();
    if (!mine.every((entry, i) => JSON.stringify(entry) === JSON.stringify(theirs[i]))) {
      return "the document's @context does not start with the proof's @context";
    }
    unsecured['@context'] = proofOptions['@context'];
  }
  if (publicKey.asymmetricKeyType !== 'ed25519') return 'the proof key is not an Ed25519 key';
  let data: Uint8Array;
  try {
    data = eddsaJcs2022HashData(unsecured, proofOptions);
  } catch (error) {
    return `the document has no RFC 8785 form: ${error instanceof Error ? error.message : String(error)}`;
  }
  return verify(null, data, publicKey, signature)
    ? undefined
    : 'the proof signature does not verify: the document was changed after it was signed, or another key signed it';
}
