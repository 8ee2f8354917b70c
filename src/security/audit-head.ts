/**
 * The signed head of an audit chain (docs/trust.md): a compact JWS, with the server's card signing
 * key, over `{ taskId, seq, hash, iat }`, so a verifier holding the server's public key (its JWKS)
 * knows the exported chain ends where the server said, even if every line after it was rewritten.
 * The keys are looked up like card keys (verification-keys.ts). Runtime-neutral.
 */
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { SignatureRejected } from './signature-error.js';
import {
  CARD_SIGNING_ALGORITHMS,
  isCardSigningAlgorithm,
  type CardSigningAlgorithm,
  type KeyMaterial,
} from './signing-keys.js';
import { KeySources, type KeySourceOptions } from './verification-keys.js';

/** The JWS `typ` of a signed head. */
export const AUDIT_HEAD_TYPE = 'a2a-kit-audit-head+jwt';

/** How the server signs heads: its card signing key, key id and algorithm, and its JWKS URL. */
export interface AuditSigner {
  readonly key: KeyMaterial;
  readonly kid: string;
  /** Default ES256. */
  readonly alg?: CardSigningAlgorithm | undefined;
  /** Where verifiers find the public key (the server's JWKS URL); goes into the header. */
  readonly jku?: string | undefined;
}

/** What a signed head asserts. */
export interface HeadClaims {
  readonly taskId: string;
  readonly seq: number;
  readonly hash: string;
  /** Seconds since the epoch, when it was signed. */
  readonly iat: number;
}

/** Signs a head; returns the compact JWS. */
export async function signHead(
  head: { taskId: string; seq: number; hash: string },
  signer: AuditSigner,
): Promise<string> {
  const alg = signer.alg ?? 'ES256';
  const claims: HeadClaims = { ...head, iat: Math.floor(Date.now() / 1000) };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({
      alg,
      typ: AUDIT_HEAD_TYPE,
      kid: signer.kid,
      ...(signer.jku === undefined ? {} : { jku: signer.jku }),
    })
    .sign(signer.key);
}

/**
 * Verifies a signed head against trusted keys and returns what it asserts; throws
 * SignatureRejected (with a message saying what failed) for a bad signature or an unknown key.
 */
export async function verifyHead(jws: string, options: KeySourceOptions): Promise<HeadClaims> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw new SignatureRejected('MALFORMED_SIGNATURE', 'the head signature is not a compact JWS');
  }
  const { alg, kid, jku } = header;
  if (!isCardSigningAlgorithm(alg)) {
    throw new SignatureRejected(
      'UNSUPPORTED_ALGORITHM',
      `the head is signed with ${String(alg)}, not one of ${CARD_SIGNING_ALGORITHMS.join(', ')}`,
    );
  }
  if (typeof kid !== 'string' || header.typ !== AUDIT_HEAD_TYPE) {
    throw new SignatureRejected(
      'MALFORMED_SIGNATURE',
      `the head signature has no kid or is not of type ${AUDIT_HEAD_TYPE}`,
    );
  }
  const sources = new KeySources(options);
  const candidates = await sources.candidates(kid, alg, typeof jku === 'string' ? jku : undefined);
  for (const { key } of candidates) {
    try {
      const { payload } = await compactVerify(jws, key, { algorithms: [alg] });
      return JSON.parse(new TextDecoder().decode(payload)) as HeadClaims;
    } catch {
      // the next candidate key of this kid
    }
  }
  throw new SignatureRejected(
    'BAD_SIGNATURE',
    `the head signature does not verify with key "${kid}": it was forged or altered`,
  );
}
