/**
 * Why a did:wba signed request is refused. Each reason has its own code and a message that says
 * what to fix; `unavailable` reasons (the DID host cannot be reached now) are answered 503 with
 * `Retry-After`, every other one 401. Nothing is ever accepted when a check cannot be made.
 */

/** The reasons a did:wba request signature is refused. */
export type DidAuthReason =
  /** No `Signature`/`Signature-Input` headers (or no signature by a `did:wba` key). */
  | 'MISSING_SIGNATURE'
  /** The signature headers cannot be parsed, or leave out a required component or parameter. */
  | 'MALFORMED_SIGNATURE'
  /** The `keyid` is not a did:wba DID URL this verifier accepts. */
  | 'UNSUPPORTED_DID'
  /** The DID's host is refused by the SSRF guard (a local or private address). */
  | 'DID_REFUSED'
  /** The DID host did not answer (refused, timed out, TLS failed): retry later. */
  | 'DID_UNREACHABLE'
  /** The DID host answered, but not with a document (404, other status). */
  | 'DID_NOT_FOUND'
  /** The document is not a valid DID document for this DID. */
  | 'INVALID_DOCUMENT'
  /** An `e1_` DID's document has no `proof` (ANP did:wba v1.1 §2.5.5: no relaxed mode). */
  | 'MISSING_PROOF'
  /** The proof is not a `DataIntegrityProof` with cryptosuite `eddsa-jcs-2022`. */
  | 'UNSUPPORTED_CRYPTOSUITE'
  /** The proof's `proofPurpose` is not `assertionMethod`, or its key is not an assertion method. */
  | 'WRONG_PROOF_PURPOSE'
  /** The proof lacks a member or has a bad one (`created`, `verificationMethod`, `proofValue`). */
  | 'MALFORMED_PROOF'
  /** The proof's key is not the key whose RFC 7638 thumbprint the `e1_` DID carries. */
  | 'FINGERPRINT_MISMATCH'
  /** The proof does not verify: the document was changed after it was signed. */
  | 'BAD_PROOF'
  /** The document has no `authentication` key with the signature's `keyid`. */
  | 'KEY_NOT_FOUND'
  /** The signature does not verify with the document's key. */
  | 'BAD_SIGNATURE'
  /** `created` is older than the accepted window (or in the future). */
  | 'STALE_SIGNATURE'
  /** `expires` is in the past. */
  | 'EXPIRED_SIGNATURE'
  /** The `nonce` of this key was seen before. */
  | 'REPLAYED'
  /** A body without `Content-Digest`, or one whose digest does not match. */
  | 'DIGEST_MISMATCH';

/** A refused did:wba request. */
export class DidAuthError extends Error {
  override readonly name = 'DidAuthError';
  constructor(
    readonly reason: DidAuthReason,
    message: string,
  ) {
    super(message);
  }

  /** True when the refusal is temporary (the DID host could not be reached). */
  get unavailable(): boolean {
    return this.reason === 'DID_UNREACHABLE';
  }

  /** The HTTP status a receiver answers with: 503 when unavailable, 409 for a replay, else 401. */
  get status(): number {
    if (this.unavailable) return 503;
    return this.reason === 'REPLAYED' ? 409 : 401;
  }
}
