/**
 * Credential interceptors (spec §7.3: credentials travel in headers on every request) and their
 * choice from the card's `securitySchemes`, e.g. for a CLI given `--token` or `--api-key`.
 */
import type { AgentCard, SecurityScheme } from '../core/schemas/index.js';
import type { Interceptor } from './interceptors.js';

/** Where an API key goes (APIKeySecurityScheme.location). */
export type ApiKeyLocation = 'header' | 'query' | 'cookie';

/** A secret, or a function returning the current one (called on every attempt). */
export type Secret = string | (() => string | Promise<string>);

const read = async (secret: Secret): Promise<string> =>
  typeof secret === 'string' ? secret : secret();

/** `Authorization: <scheme> <credentials>` on every call (HTTP auth schemes). */
export function httpAuth(scheme: string, credentials: Secret): Interceptor {
  return {
    async before(call) {
      call.headers.Authorization = `${scheme} ${await read(credentials)}`;
    },
  };
}

/** `Authorization: Bearer <token>` on every call (HTTP Bearer, OAuth 2, OpenID Connect). */
export function bearerToken(token: Secret): Interceptor {
  return httpAuth('Bearer', token);
}

/** An API key in a header, query parameter or cookie named `name` on every call. */
export function apiKey(
  name: string,
  value: Secret,
  location: ApiKeyLocation = 'header',
): Interceptor {
  return {
    async before(call) {
      const key = await read(value);
      if (location === 'header') call.headers[name] = key;
      else if (location === 'query') call.query[name] = key;
      else {
        const cookie = `${name}=${encodeURIComponent(key)}`;
        const existing = call.headers.Cookie ?? call.headers.cookie;
        call.headers.Cookie = existing ? `${existing}; ${cookie}` : cookie;
      }
    },
  };
}

/** Secrets a user holds, to be matched against what the card asks for. */
export interface AvailableCredentials {
  /** A bearer token (HTTP Bearer, OAuth 2 or OpenID Connect schemes). */
  token?: Secret | undefined;
  /** An API key (APIKeySecurityScheme). */
  apiKey?: Secret | undefined;
}

/**
 * The interceptor for the first of the card's security schemes the given secrets satisfy:
 * schemes named in `securityRequirements` first, in order, then the others. Undefined when the
 * card declares no scheme these secrets fit.
 */
export function credentialsForCard(
  card: Pick<AgentCard, 'securitySchemes' | 'securityRequirements'>,
  secrets: AvailableCredentials,
): Interceptor | undefined {
  const schemes = card.securitySchemes ?? {};
  const required = (card.securityRequirements ?? []).flatMap((r) => Object.keys(r.schemes ?? {}));
  const order = [...new Set([...required, ...Object.keys(schemes)])];
  for (const name of order) {
    const scheme = schemes[name];
    if (!scheme) continue;
    const interceptor = interceptorFor(scheme, secrets);
    if (interceptor) return interceptor;
  }
  return undefined;
}

function interceptorFor(
  scheme: SecurityScheme,
  secrets: AvailableCredentials,
): Interceptor | undefined {
  const { token, apiKey: key } = secrets;
  if (scheme.apiKeySecurityScheme && key !== undefined) {
    return apiKey(scheme.apiKeySecurityScheme.name, key, scheme.apiKeySecurityScheme.location);
  }
  if (scheme.httpAuthSecurityScheme && token !== undefined) {
    const name = scheme.httpAuthSecurityScheme.scheme;
    // RFC 9110: scheme names are case-insensitive; send the canonical spelling for Bearer.
    return name.toLowerCase() === 'bearer' ? bearerToken(token) : httpAuth(name, token);
  }
  if ((scheme.oauth2SecurityScheme || scheme.openIdConnectSecurityScheme) && token !== undefined) {
    return bearerToken(token);
  }
  return undefined;
}

/** Human descriptions of what the card's schemes need, for "authentication required" messages. */
export function describeSecuritySchemes(card: Pick<AgentCard, 'securitySchemes'>): string[] {
  return Object.entries(card.securitySchemes ?? {}).map(([name, s]) => {
    if (s.apiKeySecurityScheme) {
      return `${name}: API key in ${s.apiKeySecurityScheme.location} "${s.apiKeySecurityScheme.name}"`;
    }
    if (s.httpAuthSecurityScheme) return `${name}: HTTP ${s.httpAuthSecurityScheme.scheme} token`;
    if (s.oauth2SecurityScheme) return `${name}: OAuth 2 bearer token`;
    if (s.openIdConnectSecurityScheme) {
      return `${name}: OpenID Connect bearer token (${s.openIdConnectSecurityScheme.openIdConnectUrl})`;
    }
    return `${name}: mutual TLS client certificate`;
  });
}
