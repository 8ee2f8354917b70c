/**
 * Scheme verifiers: each reads one kind of credential from a request and checks it with a
 * function the application gives (API key, HTTP Bearer, Basic, any other HTTP scheme, mutual
 * TLS). JWT bearer tokens (OAuth 2, OpenID Connect) are in jwt.ts.
 */
import {
  apiKeyOf,
  authorizationCredentials,
  constantTimeEqual,
  decodeBasic,
  type ApiKeyLocation,
} from './credentials.js';
import type { AuthRequest, ClientCertificate, MaybePromise, Principal, Verified } from './types.js';
import { withFields } from '../../core/with-fields.js';

/** The result of checking one scheme's credential on one request. */
export type SchemeCheck =
  | { readonly status: 'ok'; readonly principal: Principal }
  /** The request carries no credential for this scheme. */
  | { readonly status: 'missing' }
  /** It carries one, and it is wrong (`reason` is safe to show the caller). */
  | { readonly status: 'invalid'; readonly reason: string }
  /**
   * It carries one that cannot be checked now (the token issuer is unreachable): answered 503
   * with `Retry-After`, since the caller's credential may well be right.
   */
  | { readonly status: 'unavailable'; readonly reason: string; readonly retryAfterSeconds: number };

/** Checks one security scheme's credential. */
export interface SchemeVerifier {
  check(request: AuthRequest): Promise<SchemeCheck>;
  /** Fetches what checking needs (an issuer's keys) ahead of the first request; throws if it cannot. */
  warmUp?(): Promise<void>;
}

/** Checks an API key; `undefined` means the key is not valid. */
export type ApiKeyVerify = (key: string, request: AuthRequest) => MaybePromise<Verified>;
/** Checks a bearer token (opaque tokens: introspection, a lookup, …). */
export type BearerVerify = (token: string, request: AuthRequest) => MaybePromise<Verified>;
/** Checks a user name and password. */
export type BasicVerify = (
  username: string,
  password: string,
  request: AuthRequest,
) => MaybePromise<Verified>;
/** Checks the credentials of another HTTP authentication scheme (the text after the scheme). */
export type HttpVerify = (credentials: string, request: AuthRequest) => MaybePromise<Verified>;
/** Maps a verified client certificate to a principal; `undefined` refuses it. */
export type CertificateVerify = (
  certificate: ClientCertificate,
  request: AuthRequest,
) => MaybePromise<Verified>;

const MISSING: SchemeCheck = { status: 'missing' };

function outcome(principal: Verified, reason: string): SchemeCheck {
  if (principal === undefined) return { status: 'invalid', reason };
  if (typeof principal.id !== 'string' || principal.id === '') {
    throw new TypeError('a credential verifier returned a principal without a non-empty id');
  }
  return { status: 'ok', principal };
}

/** An API key in the header, query parameter or cookie `name`. */
export function apiKeyVerifier(
  location: ApiKeyLocation,
  name: string,
  verify: ApiKeyVerify,
): SchemeVerifier {
  return {
    async check(request) {
      const key = apiKeyOf(request, location, name);
      if (key === undefined || key === '') return MISSING;
      return outcome(
        await verify(key, request),
        `the API key in ${location} "${name}" is not valid`,
      );
    },
  };
}

/** `Authorization: <scheme> <credentials>` for any HTTP scheme other than Basic. */
export function httpVerifier(scheme: string, verify: HttpVerify): SchemeVerifier {
  return {
    async check(request) {
      const credentials = authorizationCredentials(request, scheme);
      if (credentials === undefined) return MISSING;
      if (credentials === '') {
        return {
          status: 'invalid',
          reason: `the Authorization header has no ${scheme} credentials`,
        };
      }
      return outcome(await verify(credentials, request), `the ${scheme} credentials were rejected`);
    },
  };
}

/** `Authorization: Bearer <token>` checked by `verify`. */
export function bearerVerifier(verify: BearerVerify): SchemeVerifier {
  return httpVerifier('Bearer', verify);
}

/** `Authorization: Basic <base64(user:password)>` (RFC 7617) checked by `verify`. */
export function basicVerifier(verify: BasicVerify): SchemeVerifier {
  return {
    async check(request) {
      const credentials = authorizationCredentials(request, 'Basic');
      if (credentials === undefined) return MISSING;
      const decoded = decodeBasic(credentials);
      if (decoded === undefined) {
        return {
          status: 'invalid',
          reason: 'the Basic credentials are not base64 of user:password',
        };
      }
      const principal = await verify(decoded.username, decoded.password, request);
      return outcome(principal, 'wrong user name or password');
    },
  };
}

/**
 * A TLS client certificate that chained to the server's trusted CAs. The principal is `verify`'s,
 * or by default `{ id: subjectName, certificate }`.
 */
export function mtlsVerifier(verify?: CertificateVerify): SchemeVerifier {
  return {
    async check(request) {
      const certificate = request.clientCertificate;
      if (certificate === undefined) return MISSING;
      if (!certificate.authorized) {
        const why = certificate.authorizationError ?? 'not issued by a trusted CA';
        return { status: 'invalid', reason: `the client certificate is not trusted (${why})` };
      }
      const principal =
        verify === undefined
          ? { id: certificate.subjectName, certificate }
          : await verify(certificate, request);
      return outcome(principal, 'the client certificate is not allowed');
    },
  };
}

/**
 * A verify function over a fixed table of secrets (API keys or bearer tokens) → principals,
 * compared in constant time. For tests, demos and small deployments; rotate by replacing it.
 */
export function staticSecrets(
  table: Readonly<Record<string, Principal>>,
): (secret: string) => Principal | undefined {
  const entries = Object.entries(table);
  return (secret) => {
    let found: Principal | undefined;
    // Every entry is compared, so the time does not depend on which one matched.
    for (const [candidate, principal] of entries) {
      if (constantTimeEqual(secret, candidate)) found = principal;
    }
    return found;
  };
}

/** A Basic verify function over a fixed table of user name → { password, principal fields }. */
export function staticUsers(
  table: Readonly<Record<string, { readonly password: string } & Partial<Principal>>>,
): BasicVerify {
  return (username, password) => {
    const user = Object.hasOwn(table, username) ? table[username] : undefined;
    // Compare against something even for an unknown user, so both cost the same.
    const ok = constantTimeEqual(password, user?.password ?? '\u0000unknown');
    if (user === undefined || !ok) return undefined;
    const { password: _secret, ...claims } = user;
    return withFields(claims, { id: claims.id ?? username });
  };
}
