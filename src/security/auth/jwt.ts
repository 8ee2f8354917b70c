/**
 * OAuth 2 and OpenID Connect bearer tokens as JWTs (RFC 9068 / OIDC Core): the signature against
 * the issuer's JWKS, then issuer, audience, expiry (and `typ` when asked). The JWKS URL comes from
 * the options, or from the issuer's metadata (OIDC discovery, or RFC 8414 `oauth2MetadataUrl`).
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { authorizationCredentials } from './credentials.js';
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

interface Resolved {
  readonly keys: JWTVerifyGetKey;
  readonly issuer: string | string[] | undefined;
}

/** The verifier of JWT bearer tokens; `metadataUrl` is the card's default for the scheme. */
export function jwtVerifier(options: JwtOptions, metadataUrl?: string): SchemeVerifier {
  const discovery = options.metadataUrl ?? metadataUrl;
  if (options.keys === undefined && options.jwksUrl === undefined && discovery === undefined) {
    throw new TypeError('a JWT scheme needs keys, a jwksUrl or a metadata (discovery) URL');
  }
  if (options.issuer === undefined && discovery === undefined) {
    throw new TypeError('a JWT scheme needs the expected issuer (or a metadata URL naming it)');
  }
  let resolving: Promise<Resolved> | undefined;
  const resolve = (): Promise<Resolved> => {
    resolving ??= resolveKeys(options, discovery).catch((error: unknown) => {
      resolving = undefined; // try again on the next request
      throw error;
    });
    return resolving;
  };
  return {
    async check(request): Promise<SchemeCheck> {
      const token = authorizationCredentials(request, 'Bearer');
      if (token === undefined) return { status: 'missing' };
      if (token === '')
        return { status: 'invalid', reason: 'the Authorization header has no token' };
      const { keys, issuer } = await resolve();
      let claims: JWTPayload;
      try {
        const verified = await jwtVerify(token, keys, {
          audience: toArray(options.audience),
          ...(issuer === undefined ? {} : { issuer }),
          algorithms: [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)],
          clockTolerance: options.clockToleranceSeconds ?? 30,
          requiredClaims: ['exp'],
          ...(options.typ === undefined ? {} : { typ: options.typ }),
        });
        claims = verified.payload;
      } catch (error) {
        return { status: 'invalid', reason: rejection(error) };
      }
      const principal = (options.principal ?? defaultPrincipal)(claims);
      if (principal === undefined || typeof principal.id !== 'string' || principal.id === '') {
        return { status: 'invalid', reason: 'the token names no subject (sub)' };
      }
      return { status: 'ok', principal };
    },
  };
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

async function resolveKeys(options: JwtOptions, discovery: string | undefined): Promise<Resolved> {
  const configuredIssuer = options.issuer === undefined ? undefined : toArray(options.issuer);
  if (options.keys !== undefined) {
    return { keys: createLocalJWKSet(options.keys), issuer: configuredIssuer };
  }
  let jwksUrl = options.jwksUrl;
  let issuer = configuredIssuer;
  if (discovery !== undefined && (jwksUrl === undefined || issuer === undefined)) {
    const metadata = await fetchMetadata(discovery, options);
    if (issuer !== undefined && !issuer.includes(metadata.issuer)) {
      throw new Error(
        `the metadata at ${discovery} names issuer ${metadata.issuer}, not the configured one`,
      );
    }
    issuer ??= [metadata.issuer];
    jwksUrl ??= metadata.jwksUri;
  }
  if (jwksUrl === undefined) throw new Error('no JWKS URL configured or discovered');
  const url = checkedUrl(jwksUrl, options, 'JWKS');
  const keys = createRemoteJWKSet(url, {
    timeoutDuration: options.timeoutMs ?? 5000,
    ...(options.fetch === undefined ? {} : { [customFetch]: options.fetch }),
  });
  return { keys, issuer };
}

/** The `issuer` and `jwks_uri` of an OIDC discovery / RFC 8414 metadata document. */
async function fetchMetadata(
  location: string,
  options: JwtOptions,
): Promise<{ issuer: string; jwksUri: string }> {
  const url = checkedUrl(location, options, 'metadata');
  const response = await (options.fetch ?? fetch)(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  if (!response.ok) throw new Error(`the metadata at ${location} answered HTTP ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  const { issuer, jwks_uri: jwksUri } = body;
  if (typeof issuer !== 'string' || typeof jwksUri !== 'string') {
    throw new Error(`the metadata at ${location} lacks "issuer" or "jwks_uri"`);
  }
  return { issuer, jwksUri };
}

function checkedUrl(location: string, options: JwtOptions, what: string): URL {
  const url = new URL(location);
  if (url.protocol !== 'https:' && !(options.allowInsecure === true && url.protocol === 'http:')) {
    throw new Error(`the ${what} URL ${location} must use https (or set allowInsecure for tests)`);
  }
  return url;
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
  throw error; // JWKS unreachable or malformed: a server-side failure, not the caller's fault
}

function toArray(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}
