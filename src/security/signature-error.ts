/** Local errors of Agent Card signing and verification (never sent over the wire). */

/** Why one signature of a card was not accepted. */
export type SignatureFailureCode =
  | 'MALFORMED_SIGNATURE'
  | 'UNSUPPORTED_ALGORITHM'
  | 'UNKNOWN_KEY'
  | 'KEY_REJECTED'
  | 'KEY_REVOKED'
  | 'UNTRUSTED_JKU'
  | 'JWKS_UNAVAILABLE'
  | 'BAD_SIGNATURE';

/** Why a card as a whole did not verify. */
export type CardSignatureErrorCode = 'NO_SIGNATURES' | 'NOT_CANONICALIZABLE' | 'NO_VALID_SIGNATURE';

/** One rejected entry of `signatures`, by position. */
export interface SignatureFailure {
  readonly index: number;
  readonly kid?: string;
  readonly code: SignatureFailureCode;
  readonly message: string;
}

/** A card failed verification; `failures` says what was wrong with each signature. */
export class CardSignatureError extends Error {
  override readonly name = 'CardSignatureError';
  readonly code: CardSignatureErrorCode;
  readonly failures: readonly SignatureFailure[];

  constructor(
    code: CardSignatureErrorCode,
    message: string,
    options: { failures?: readonly SignatureFailure[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.failures = options.failures ?? [];
  }
}

/** One signature's failure, carried inside the verifier until every signature has been tried. */
export class SignatureRejected extends Error {
  override readonly name = 'SignatureRejected';
  constructor(
    readonly code: SignatureFailureCode,
    message: string,
  ) {
    super(message);
  }
}
