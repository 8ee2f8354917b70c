/**
 * The authentication model: what an authenticator sees of a request (the same for every binding),
 * and what it answers: a principal, nobody (anonymous), or a refusal that says what is missing.
 */
import type { ClientCertificate, HttpHeaders, Principal } from '../../core/call-context.js';
import type { ProtocolBinding } from '../../core/interfaces.js';

export type { ClientCertificate, Principal };

/** The binding a request came in on: the card's `protocolBinding` (a custom binding's own name). */
export type AuthBinding = ProtocolBinding | (string & {});

/** Everything an authenticator may look at; identity lives in the transport (spec §7.3). */
export interface AuthRequest {
  readonly binding: AuthBinding;
  /** HTTP headers, or gRPC metadata (keys are lower-case in both). */
  readonly headers: HttpHeaders;
  /** Query parameters (empty for gRPC). */
  readonly query: URLSearchParams;
  /** Cookies; when absent they are read from the `cookie` header. */
  readonly cookies?: Readonly<Record<string, string>> | undefined;
  /** The TLS client certificate, on a TLS server that asked for one. */
  readonly clientCertificate?: ClientCertificate | undefined;
  /** The peer's IP address, when known (rate limits of anonymous callers). */
  readonly remoteAddress?: string | undefined;
  /**
   * The HTTP message, for schemes that verify a signature over it (did:wba, RFC 9421): absent
   * on gRPC and other non-HTTP bindings.
   */
  readonly message?: AuthHttpMessage | undefined;
}

/** The parts of an HTTP request a message signature covers. */
export interface AuthHttpMessage {
  readonly method: string;
  /** The target URI as the client called it (`https://agent.example/a2a/jsonrpc`). */
  readonly url: string;
  /** The exact body bytes, or undefined when there is none. */
  readonly body: Uint8Array | string | undefined;
}

/**
 * Why a request is refused: 401 (who are you?), 403 (you may not), or 503 (the credential cannot
 * be checked now, e.g. the token issuer is unreachable; try again after `retryAfterSeconds`).
 */
export type AuthFailureCode = 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'UNAVAILABLE';

/** A refusal, with a message that says what is missing and the `WWW-Authenticate` challenges. */
export interface AuthFailure {
  readonly failure: AuthFailureCode;
  readonly message: string;
  /** One challenge per scheme the caller could use (RFC 9110 §11.6.1), e.g. `Bearer realm="a2a"`. */
  readonly challenges: readonly string[];
  /** UNAVAILABLE: seconds until checking is worth trying again (`Retry-After`). */
  readonly retryAfterSeconds?: number | undefined;
}

/** What an authentication yields: a principal, `undefined` for an anonymous caller, or a refusal. */
export type AuthOutcome = Principal | AuthFailure | undefined;

/** The plug-in point: turns a request into a principal (or a refusal). */
export interface Authenticator {
  authenticate(request: AuthRequest): Promise<AuthOutcome>;
}

/** A principal authenticated against the card's schemes, with the scopes each scheme granted. */
export interface AuthenticatedPrincipal extends Principal {
  /** The scheme (card `securitySchemes` name) that established `id`. */
  readonly scheme: string;
  /** Every scheme of the card the request satisfied, with the scopes (roles) it granted. */
  readonly schemes: Readonly<Record<string, readonly string[]>>;
}

/** True when `outcome` is a refusal. */
export function isAuthFailure(outcome: AuthOutcome): outcome is AuthFailure {
  return outcome !== undefined && typeof outcome.failure === 'string' && !('id' in outcome);
}

/** The scopes (or roles) a verifier granted: a string array `scopes` claim, else none. */
export function grantedScopes(principal: Principal): readonly string[] {
  const scopes = principal.scopes;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
}

/** What a credential verifier returns: the principal, or `undefined` when the credential is wrong. */
export type Verified = Principal | undefined;

/** A verifier may answer synchronously or not. */
export type MaybePromise<T> = T | Promise<T>;
