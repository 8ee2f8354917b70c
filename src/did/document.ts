/**
 * DID documents for did:wba (W3C DID Core §5, ANP did:wba v1.1 §2.5): building ours and checking
 * a resolved one. A key is usable for request signatures when it is a verification method that
 * `authentication` lists, by reference or embedded, with a public JWK (`JsonWebKey2020` /
 * `JsonWebKey`: Ed25519 `OKP`, ECDSA P-256 / P-384 `EC`) or an Ed25519 `Multikey`
 * (`publicKeyMultibase`). The document of an `e1_` DID must also carry a valid proof by its
 * binding key (src/did/e1.ts).
 */
import { checkE1Proof } from './e1.js';
import { DidAuthError } from './errors.js';
import { parseDidWba } from './identifier.js';
import { findMethod, isListedUnder, methodJwk } from './methods.js';
import { ed25519Multikey } from './multikey.js';

/** A public JWK as a DID document carries it. */
export interface DidPublicJwk {
  readonly kty: string;
  readonly crv?: string | undefined;
  readonly x?: string | undefined;
  readonly y?: string | undefined;
  readonly [member: string]: unknown;
}

/** One verification method of a DID document. */
export interface DidVerificationMethod {
  readonly id: string;
  readonly type: string;
  readonly controller: string;
  readonly publicKeyJwk?: DidPublicJwk | undefined;
  /** A multibase key (`z6Mk…` for an Ed25519 `Multikey`). */
  readonly publicKeyMultibase?: string | undefined;
  readonly [member: string]: unknown;
}

/** The members of a DID document this toolkit reads and writes. */
export interface DidDocument {
  readonly '@context'?: string | readonly string[] | undefined;
  readonly id: string;
  readonly verificationMethod?: readonly DidVerificationMethod[] | undefined;
  readonly authentication?: readonly (string | DidVerificationMethod)[] | undefined;
  readonly assertionMethod?: readonly (string | DidVerificationMethod)[] | undefined;
  readonly service?: readonly Record<string, unknown>[] | undefined;
  readonly [member: string]: unknown;
}

/** The HTTP message signature algorithm (RFC 9421 §6.2) of each supported key type. */
export type DidSignatureAlgorithm = 'ed25519' | 'ecdsa-p256-sha256' | 'ecdsa-p384-sha384';

/** The signature algorithm of a public JWK, or undefined when the key type is not supported. */
export function algorithmOf(jwk: DidPublicJwk): DidSignatureAlgorithm | undefined {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.x === 'string') return 'ed25519';
  if (jwk.kty === 'EC' && typeof jwk.x === 'string' && typeof jwk.y === 'string') {
    if (jwk.crv === 'P-256') return 'ecdsa-p256-sha256';
    if (jwk.crv === 'P-384') return 'ecdsa-p384-sha384';
  }
  return undefined;
}

/** Options of {@link createDidDocument}. */
export interface DidDocumentOptions {
  readonly did: string;
  /** The public key (private members are dropped). */
  readonly publicJwk: DidPublicJwk;
  /** Fragment of the key's id (default `key-1`). */
  readonly keyFragment?: string | undefined;
  /** Services to list (e.g. `{ id: '#a2a', type: 'A2AAgentCard', serviceEndpoint: cardUrl }`). */
  readonly service?: readonly Record<string, unknown>[] | undefined;
  /**
   * How the key is written: `JsonWebKey2020` with `publicKeyJwk` (default), or `Multikey` with
   * `publicKeyMultibase` (Ed25519 only; what the `e1_` profile asks for).
   */
  readonly keyFormat?: 'JsonWebKey2020' | 'Multikey' | undefined;
}

const DID_CONTEXT = 'https://www.w3.org/ns/did/v1';

/** A DID document publishing one key for authentication (request signatures) and assertion. */
export function createDidDocument(options: DidDocumentOptions): DidDocument {
  const { did } = options;
  const id = `${did}#${options.keyFragment ?? 'key-1'}`;
  const { kty, crv, x, y } = options.publicJwk;
  const publicKeyJwk: DidPublicJwk = {
    kty,
    ...(crv === undefined ? {} : { crv }),
    ...(x === undefined ? {} : { x }),
    ...(y === undefined ? {} : { y }),
  };
  if (algorithmOf(publicKeyJwk) === undefined) {
    throw new TypeError(`a did:wba key must be Ed25519 or EC P-256/P-384, not ${kty} ${crv ?? ''}`);
  }
  const multikey = options.keyFormat === 'Multikey';
  return {
    '@context': multikey
      ? [
          DID_CONTEXT,
          'https://w3id.org/security/data-integrity/v2',
          'https://w3id.org/security/multikey/v1',
        ]
      : [DID_CONTEXT, 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [
      multikey
        ? {
            id,
            type: 'Multikey',
            controller: did,
            publicKeyMultibase: ed25519Multikey(publicKeyJwk),
          }
        : { id, type: 'JsonWebKey2020', controller: did, publicKeyJwk },
    ],
    authentication: [id],
    assertionMethod: [id],
    ...(options.service === undefined ? {} : { service: options.service }),
  };
}

/** A key of a checked document, ready to verify with. */
export interface DidAuthenticationKey {
  readonly id: string;
  readonly jwk: DidPublicJwk;
  readonly alg: DidSignatureAlgorithm;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks that `value` is the DID document of `did`; throws DidAuthError INVALID_DOCUMENT naming
 * the member at fault. For an `e1_` DID the proof is checked too (src/did/e1.ts: its own reasons).
 */
export function checkDidDocument(value: unknown, did: string): DidDocument {
  const invalid = (why: string) =>
    new DidAuthError('INVALID_DOCUMENT', `the DID document of ${did} is invalid: ${why}`);
  if (!isObject(value)) throw invalid('it is not a JSON object');
  if (value.id !== did) throw invalid(`its id is ${JSON.stringify(value.id)}, not the DID`);
  const methods = value.verificationMethod;
  if (methods !== undefined && !Array.isArray(methods))
    throw invalid('verificationMethod is not an array');
  for (const m of (methods ?? []) as unknown[]) checkMethod(m, invalid);
  const auth = value.authentication;
  if (auth !== undefined && !Array.isArray(auth)) throw invalid('authentication is not an array');
  for (const a of (auth ?? []) as unknown[]) {
    if (typeof a !== 'string') checkMethod(a, invalid);
  }
  const assertion = value.assertionMethod;
  if (assertion !== undefined && !Array.isArray(assertion))
    throw invalid('assertionMethod is not an array');
  for (const a of (assertion ?? []) as unknown[]) {
    if (typeof a !== 'string') checkMethod(a, invalid);
  }
  const document = value as DidDocument;
  const e1Fingerprint = did.startsWith('did:wba:') ? parseDidWba(did).e1Fingerprint : undefined;
  if (e1Fingerprint !== undefined) checkE1Proof(document, e1Fingerprint);
  return document;
}

function checkMethod(m: unknown, invalid: (why: string) => DidAuthError): void {
  if (!isObject(m) || typeof m.id !== 'string' || typeof m.type !== 'string') {
    throw invalid('a verification method lacks a string id or type');
  }
  if (m.controller !== undefined && typeof m.controller !== 'string') {
    throw invalid(`controller of ${m.id} is not a string`);
  }
  if (m.publicKeyMultibase !== undefined && typeof m.publicKeyMultibase !== 'string') {
    throw invalid(`publicKeyMultibase of ${m.id} is not a string`);
  }
  const jwk = m.publicKeyJwk;
  if (jwk === undefined) return; // other key formats are ignored (not usable here)
  if (!isObject(jwk) || typeof jwk.kty !== 'string') {
    throw invalid(`publicKeyJwk of ${m.id} is not a JWK`);
  }
  if ('d' in jwk) throw invalid(`publicKeyJwk of ${m.id} contains a private key`);
}

/**
 * The authentication key `keyId` (a DID URL) of a checked document; throws DidAuthError
 * KEY_NOT_FOUND when the document does not list it under `authentication` with a usable key.
 */
export function authenticationKey(document: DidDocument, keyId: string): DidAuthenticationKey {
  const did = document.id;
  const notFound = (why: string) =>
    new DidAuthError('KEY_NOT_FOUND', `key ${keyId} cannot sign for ${did}: ${why}`);
  if (!isListedUnder(document, 'authentication', keyId)) {
    throw notFound('the DID document does not list it under authentication');
  }
  const method = findMethod(document, keyId);
  if (method === undefined) throw notFound('no verificationMethod has this id');
  const jwk = methodJwk(method);
  if (jwk === undefined) {
    throw notFound(
      'it has no usable key (a publicKeyJwk, or the publicKeyMultibase of an Ed25519 Multikey)',
    );
  }
  const alg = algorithmOf(jwk);
  if (alg === undefined) {
    throw notFound(
      `its key type ${jwk.kty} ${String(jwk.crv ?? '')} is not Ed25519 or EC P-256/P-384`,
    );
  }
  return { id: keyId, jwk, alg };
}
