/**
 * OAuth 2 and OpenID Connect bearer tokens as JWTs (RFC 9068 / OIDC Core): the signature against
 * the issuer's JWKS, then issuer, audience, expiry (and `typ` when asked). The JWKS URL comes from
 * the options, or from the issuer's metadata (OIDC discovery, or RFC 8414 `oauth2MetadataUrl`).
 * A token that cannot be valid (not a JWT, a refused algorithm, expired, another issuer) is refused
 * before any key is fetched; fetching is rate-bounded by issuer-keys.ts, and an issuer that cannot
 * be reached makes the check `unavailable` (503), never a crash.
 */
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { authorizationCredentials } from './credentials.js';
import { IssuerKeys, IssuerUnavailableError } from './issuer-keys.js';
import type { Principal } from './types.js';
import type { SchemeCheck, SchemeVerifier } from './verifiers.js';

/** How to verify the JWT bearer tokens of one scheme. */
export interface JwtOptions {
  /** The `aud` this agent expects (required: a token minted for another service must fail). */
  readonly audience: string | readonly string[];
  /** The expected `iss`; default the `issuer` of the metadata document. */
  readonly issuer?: string | readonly string[] | undefined;
  /** The issuer's JWKS URL; default the metadata document's `jwks_uri`. */
  readonly jwksUrl?: string | undefined;
  /**
   * OIDC discovery or RFC 8414 metadata URL; default the card's `openIdConnectUrl` or
   * `oauth2MetadataUrl` of the scheme.
   */
  readonly metadataUrl?: string | undefined;
  /** Trusted public keys instead of fetching a JWKS (tests, pinned keys). */
  readonly keys?: JSONWebKeySet | undefined;
  /** Accepted `alg` values (default: the asymmetric JWS algorithms; never `none` or HMAC). */
  readonly algorithms?: readonly string[] | undefined;
  /** Required `typ` header, e.g. `at+jwt` (RFC 9068); default not checked. */
  readonly typ?: string | undefined;
  /** Allowed clock skew for `exp`/`nbf`/`iat` (default 30 s). */
  readonly clockToleranceSeconds?: number | undefined;
  /** The principal of verified claims; default `{ id: sub, issuer, scopes, claims }`. */
  readonly principal?: ((claims: JWTPayload) => Principal | undefined) | undefined;
  /** Permit `http:` metadata and JWKS URLs (tests on 127.0.0.1). Default false: HTTPS only. */
  readonly allowInsecure?: boolean | undefined;
  /** Fetch implementation for the metadata and the JWKS (default global fetch). */
  readonly fetch?: typeof fetch | undefined;
  /** Timeout of each metadata or JWKS request (default 5000 ms). */
  readonly timeoutMs?: number | undefined;
  /**
   * No new metadata or JWKS fetch for this long after a failed one, nor a JWKS refetch for an
   * unknown key id more often (default 30 000 ms).
   */
  readonly cooldownMs?: number | undefined;
  /** Fetched keys are refreshed once they are this old (default 600 000 ms). */
  readonly cacheMaxAgeMs?: number | undefined;
}

/** The JWS algorithms accepted by default: asymmetric only (a shared secret is no JWKS key). */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** The verifier of JWT bearer tokens; `metadataUrl` is the card's default for the scheme. */
export function jwtVerifier(options: JwtOptions, metadataUrl?: string): SchemeVerifier {
  const discovery = options.metadataUrl ?? metadataUrl;
  if (options.keys === undefined && options.jwksUrl === undefined && discovery === undefined) {
    throw new TypeError('a JWT scheme needs keys, a jwksUrl or a metadata (discovery) URL');
  }
  if (options.issuer === undefined && discovery === undefined) {
    throw new TypeError('a JWT scheme needs the expected issuer (or a metadata URL naming it)');
  }
  const configuredIssuer = options.issuer === undefined ? undefined : toArray(options.issuer);
  const algorithms = [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)];
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const local =
    options.keys === undefined
      ? undefined
      : { getKey: createLocalJWKSet(options.keys), issuer: configuredIssuer };
  const remote =
    local === undefined
      ? new IssuerKeys({
          jwksUrl: options.jwksUrl,
          metadataUrl: discovery,
          issuer: configuredIssuer,
          allowInsecure: options.allowInsecure,
          fetch: options.fetch,
          timeoutMs: options.timeoutMs,
          cooldownMs: options.cooldownMs,
          cacheMaxAgeMs: options.cacheMaxAgeMs,
        })
      : undefined;
  const keys = async (): Promise<{ getKey: JWTVerifyGetKey; issuer: string[] | undefined }> =>
    local ?? (await (remote as IssuerKeys).keys());
  return {
    async check(request): Promise<SchemeCheck> {
      const token = authorizationCredentials(request, 'Bearer');
      if (token === undefined) return { status: 'missing' };
      if (token === '')
        return { status: 'invalid', reason: 'the Authorization header has no token' };
      const refused = precheck(token, { algorithms, clockTolerance, issuer: configuredIssuer });
      if (refused !== undefined) return { status: 'invalid', reason: refused };
      let claims: JWTPayload;
      try {
        const { getKey, issuer } = await keys();
        const verified = await jwtVerify(token, getKey, {
          audience: toArray(options.audience),
          ...(issuer === undefined ? {} : { issuer }),
          algorithms,
          clockTolerance,
          requiredClaims: ['exp'],
          ...(options.typ === undefined ? {} : { typ: options.typ }),
        });
        claims = verified.payload;
      } catch (error) {
        if (error instanceof IssuerUnavailableError) {
          return {
            status: 'unavailable',
            reason: `the token issuer cannot be reached to verify the token (${error.message})`,
            retryAfterSeconds: error.retryAfterSeconds,
          };
        }
        return { status: 'invalid', reason: rejection(error) };
      }
      const principal = (options.principal ?? defaultPrincipal)(claims);
      if (principal === undefined || typeof principal.id !== 'string' || principal.id === '') {
        return { status: 'invalid', reason: 'the token names no subject (sub)' };
      }
      return { status: 'ok', principal };
    },
    ...(remote === undefined ? {} : { warmUp: () => remote.warmUp() }),
  };
}

/**
 * Why `token` cannot be valid, judged from its own bytes without any I/O, or undefined: it must
 * be a compact JWS (RFC 7515 §7.1) with an accepted `alg`, carry `exp` not in the past, and name
 * a trusted issuer when the issuer is configured. The signature is checked later, with the keys.
 */
function precheck(
  token: string,
  accept: { algorithms: string[]; clockTolerance: number; issuer: string[] | undefined },
): string | undefined {
  let alg: unknown;
  let claims: JWTPayload;
  try {
    alg = decodeProtectedHeader(token).alg;
    claims = decodeJwt(token);
  } catch {
    return 'the token is not a valid JWT';
  }
  if (typeof alg !== 'string' || !accept.algorithms.includes(alg)) {
    return 'the token uses a signature algorithm this agent does not accept';
  }
  if (typeof claims.exp !== 'number') return 'the token\'s "exp" claim is missing';
  if (claims.exp + accept.clockTolerance <= Date.now() / 1000) return 'the token has expired';
  if (accept.issuer !== undefined && !accept.issuer.includes(claims.iss ?? '')) {
    return 'the token comes from an issuer this agent does not trust';
  }
  return undefined;
}

/** `{ id: sub (or client_id), issuer, scopes, claims }`; scopes from `scope` or `scp`. */
export function defaultPrincipal(claims: JWTPayload): Principal | undefined {
  const id = [claims.sub, claims.client_id, claims.azp].find(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  if (id === undefined) return undefined;
  return { id, issuer: claims.iss, scopes: scopesOf(claims), claims };
}

/** The scopes of an access token: `scope` (space-separated, RFC 9068) or `scp` (list or string). */
export function scopesOf(claims: JWTPayload): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter((s) => s !== '');
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string');
  return [];
}

/** A reason for the caller; JOSE errors about the token only, anything else is rethrown. */
function rejection(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim;
    if (claim === 'aud') return 'the token was issued for another audience';
    if (claim === 'iss') return 'the token comes from an issuer this agent does not trust';
    if (claim === 'nbf') return 'the token is not valid yet';
    return `the token's "${claim}" claim is ${error.reason === 'missing' ? 'missing' : 'not valid'}`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'the token signature does not verify';
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return 'the token is signed with a key the issuer does not publish';
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return 'the token uses a signature algorithm this agent does not accept';
  }
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) {
    return 'the token is not a valid JWT';
  }
  throw error; // not about the token (fetch failures are IssuerUnavailableError): a bug
}

function toArray(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}
