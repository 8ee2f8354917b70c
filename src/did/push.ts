/**
 * did:wba signatures on push deliveries: the agent signs each webhook POST as an HTTP message
 * (next to the JWT of src/push/signing.ts), the webhook checks it with the same verifier as a
 * server checks requests. Plug into `createPushNotifier({ requestSigner })` and
 * `createPushReceiver({ requestVerifier })`.
 */
import { PushRejected, type PushRequestVerifier } from '../push/receiver.js';
import type { PushRequestSigner } from '../push/worker.js';
import { DidAuthError } from './errors.js';
import type { DidIdentity } from './identity.js';
import { signRequest, type SignRequestOptions } from './sign.js';
import { DidRequestVerifier, type DidVerifierOptions, type VerifiedDid } from './verify.js';

/** Signs every push delivery as `identity`. */
export function didPushSigner(
  identity: DidIdentity,
  options: SignRequestOptions = {},
): PushRequestSigner {
  return (request) => signRequest(identity, request, options);
}

/** Options of {@link didPushVerifier}. */
export interface DidPushVerifierOptions extends DidVerifierOptions {
  readonly verifier?: DidRequestVerifier | undefined;
  /** Each verified signer (e.g. to check it is the agent you subscribed to). */
  readonly onVerified?: ((signer: VerifiedDid) => void | Promise<void>) | undefined;
}

/** Checks the did:wba signature of each delivery; refusals are {@link PushRejected}. */
export function didPushVerifier(options: DidPushVerifierOptions = {}): PushRequestVerifier {
  const verifier = options.verifier ?? new DidRequestVerifier(options);
  return async (request) => {
    let signer: VerifiedDid;
    try {
      signer = await verifier.verify({ method: 'POST', ...request });
    } catch (error) {
      if (!(error instanceof DidAuthError)) throw error;
      throw new PushRejected(rejectReason(error), `did:wba ${error.reason}: ${error.message}`);
    }
    await options.onVerified?.(signer);
  };
}

function rejectReason(error: DidAuthError): PushRejected['reason'] {
  switch (error.reason) {
    case 'DID_UNREACHABLE':
      return 'KEYS_UNAVAILABLE';
    case 'REPLAYED':
      return 'REPLAYED';
    case 'DIGEST_MISMATCH':
      return 'BODY_MISMATCH';
    case 'MISSING_SIGNATURE':
      return 'MISSING_SIGNATURE';
    case 'STALE_SIGNATURE':
    case 'EXPIRED_SIGNATURE':
      return 'EXPIRED';
    case 'KEY_NOT_FOUND':
      return 'UNKNOWN_KEY';
    case 'BAD_SIGNATURE':
    case 'MALFORMED_SIGNATURE':
    case 'UNSUPPORTED_DID':
    case 'DID_REFUSED':
    case 'DID_NOT_FOUND':
    case 'INVALID_DOCUMENT':
    case 'MISSING_PROOF':
    case 'UNSUPPORTED_CRYPTOSUITE':
    case 'WRONG_PROOF_PURPOSE':
    case 'MALFORMED_PROOF':
    case 'FINGERPRINT_MISMATCH':
    case 'BAD_PROOF':
      return 'BAD_SIGNATURE';
  }
}
