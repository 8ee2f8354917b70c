/**
 * What a refused caller is told (spec §7.4, requirements 161, 195 of test/conformance/requirements.ts): a sentence naming the scheme
 * and how to send its credential, and the `WWW-Authenticate` challenge of the scheme: Bearer with
 * `error`/`scope` per RFC 6750 §3, Basic per RFC 7617, and an informative `ApiKey` challenge.
 */
import type { SecurityScheme } from '../../core/schemas/index.js';
import type { AuthBinding } from './types.js';

/** A card scheme by its name. */
export interface NamedScheme {
  readonly name: string;
  readonly scheme: SecurityScheme;
}

/** The HTTP authentication scheme a card scheme uses, or undefined for API keys and mTLS. */
export function httpSchemeOf(scheme: SecurityScheme): string | undefined {
  if (scheme.httpAuthSecurityScheme) {
    const name = scheme.httpAuthSecurityScheme.scheme;
    return name.toLowerCase() === 'bearer' ? 'Bearer' : name;
  }
  if (scheme.oauth2SecurityScheme || scheme.openIdConnectSecurityScheme) return 'Bearer';
  return undefined;
}

/**
 * What the caller must send, e.g. "a bearer token (scheme 'oauth') with scopes a2a.write: send
 * Authorization: Bearer <token>".
 */
export function describeRequirement(
  { name, scheme }: NamedScheme,
  scopes: readonly string[],
  binding: AuthBinding,
): string {
  const header = binding === 'GRPC' ? 'metadata' : 'header';
  const withScopes = scopes.length > 0 ? ` with scope${plural(scopes)} ${scopes.join(' ')}` : '';
  const tag = `(scheme '${name}')${withScopes}`;
  const key = scheme.apiKeySecurityScheme;
  if (key) {
    const how =
      key.location === 'header'
        ? `send ${header} ${binding === 'GRPC' ? key.name.toLowerCase() : key.name}: <key>`
        : key.location === 'query'
          ? `send the query parameter ${key.name}=<key>`
          : `send the cookie ${key.name}=<key>`;
    return `an API key ${tag}: ${how}`;
  }
  if (scheme.mtlsSecurityScheme) {
    return `a TLS client certificate ${tag}: connect with a certificate issued by a CA this agent trusts`;
  }
  const http = httpSchemeOf(scheme) ?? 'Bearer';
  const authorization = binding === 'GRPC' ? 'metadata authorization' : 'Authorization';
  if (http === 'Bearer') {
    const what = scheme.oauth2SecurityScheme
      ? 'an OAuth 2 bearer token'
      : scheme.openIdConnectSecurityScheme
        ? 'an OpenID Connect bearer token'
        : 'a bearer token';
    return `${what} ${tag}: send ${authorization}: Bearer <token>`;
  }
  if (http.toLowerCase() === 'basic') {
    return `a user name and password ${tag}: send ${authorization}: Basic <base64 of user:password>`;
  }
  return `${http} credentials ${tag}: send ${authorization}: ${http} <credentials>`;
}

/** How a challenge reports the credential it answers. */
export interface ChallengeError {
  /** RFC 6750 error code: `invalid_token` (401) or `insufficient_scope` (403). */
  readonly code: 'invalid_token' | 'insufficient_scope';
  readonly description: string;
}

/**
 * The `WWW-Authenticate` challenge of a scheme (undefined for mTLS, which has none). Without
 * `error` it is the bare challenge RFC 6750 §3.1 asks for when no credential was sent.
 */
export function challengeFor(
  { scheme }: NamedScheme,
  realm: string,
  scopes: readonly string[],
  error?: ChallengeError,
): string | undefined {
  const params = [`realm=${quote(realm)}`];
  const key = scheme.apiKeySecurityScheme;
  if (key) {
    params.push(`in=${quote(key.location)}`, `name=${quote(key.name)}`);
    return `ApiKey ${params.join(', ')}`;
  }
  const http = httpSchemeOf(scheme);
  if (http === undefined) return undefined;
  if (http === 'Bearer') {
    if (scopes.length > 0) params.push(`scope=${quote(scopes.join(' '))}`);
    if (error)
      params.push(`error=${quote(error.code)}`, `error_description=${quote(error.description)}`);
    return `Bearer ${params.join(', ')}`;
  }
  if (http.toLowerCase() === 'basic') return `Basic ${params.join(', ')}, charset="UTF-8"`;
  return `${http} ${params.join(', ')}`;
}

/** An RFC 9110 quoted-string; characters outside visible ASCII are dropped (headers are ASCII). */
function quote(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '');
  return `"${clean.replace(/["\\]/g, '\\$&')}"`;
}

function plural(items: readonly string[]): string {
  return items.length === 1 ? '' : 's';
}
