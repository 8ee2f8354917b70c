/**
 * did:wba as a security scheme of the card: declare {@link didWbaSecurityScheme} in
 * `securitySchemes`, require it in `securityRequirements`, and verify it with
 * `auth: { schemes: { did: { verifier: didWbaVerifier({...}) } } }`. The caller's principal is
 * its DID, so tasks belong to the DID (owner isolation). HTTP message signatures are HTTP: on
 * gRPC a signed call is refused saying so (see docs/trust.md).
 */
import type { SecurityScheme } from '../core/schemas/index.js';
import type { SchemeCheck, SchemeVerifier } from '../security/auth/verifiers.js';
import type { Principal } from '../security/auth/types.js';
import { DidAuthError } from './errors.js';
import { DidRequestVerifier, type DidVerifierOptions, type VerifiedDid } from './verify.js';

/** The HTTP authentication scheme name did:wba callers are asked for (`WWW-Authenticate: DIDWba`). */
export const DID_WBA_AUTH_SCHEME = 'DIDWba';

/** The card's declaration of did:wba request signatures. */
export function didWbaSecurityScheme(description?: string): SecurityScheme {
  return {
    httpAuthSecurityScheme: {
      scheme: DID_WBA_AUTH_SCHEME,
      description:
        description ??
        'did:wba: sign each request with RFC 9421 HTTP Message Signatures (keyid = the DID URL of an authentication key) and an RFC 9530 Content-Digest',
    },
  };
}

/** The principal of a did:wba caller: `id` is the DID. */
export interface DidPrincipal extends Principal {
  readonly did: string;
  readonly keyId: string;
}

/** Options of {@link didWbaVerifier}. */
export interface DidWbaVerifierOptions extends DidVerifierOptions {
  /** The request verifier (default one made from these options). */
  readonly verifier?: DidRequestVerifier | undefined;
  /**
   * The origin clients call (`https://agent.example.com`) when a proxy in front changes the
   * scheme or host the server sees: the `@target-uri` is checked with it. Default: the request's.
   */
  readonly origin?: string | undefined;
  /** Maps a verified signer to the principal (default `{ id: did, did, keyId }`). */
  readonly principal?: ((signer: VerifiedDid) => Principal | undefined) | undefined;
}

/** The {@link SchemeVerifier} of did:wba signed requests. */
export function didWbaVerifier(options: DidWbaVerifierOptions = {}): SchemeVerifier {
  const verifier = options.verifier ?? new DidRequestVerifier(options);
  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  const toPrincipal =
    options.principal ??
    ((s: VerifiedDid): DidPrincipal => ({ id: s.did, did: s.did, keyId: s.keyId }));
  return {
    async check(request): Promise<SchemeCheck> {
      if (!DidRequestVerifier.isSigned(request)) return { status: 'missing' };
      const message = request.message;
      if (message === undefined) {
        return {
          status: 'invalid',
          reason: `did:wba request signatures are HTTP message signatures, which ${request.binding} calls do not carry: use JSON-RPC or HTTP+JSON`,
        };
      }
      try {
        const url = origin === undefined ? message.url : origin + pathOf(message.url);
        const signer = await verifier.verify({ ...message, url, headers: request.headers });
        const principal = toPrincipal(signer);
        if (principal === undefined)
          return { status: 'invalid', reason: `the DID ${signer.did} is not allowed` };
        return { status: 'ok', principal };
      } catch (error) {
        if (!(error instanceof DidAuthError)) throw error;
        const reason = `${error.reason}: ${error.message}`;
        return error.unavailable
          ? { status: 'unavailable', reason, retryAfterSeconds: 30 }
          : { status: 'invalid', reason };
      }
    },
  };
}

/** Path and query of an absolute URL. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
