/**
 * Auth from the card (spec §5.5 securitySchemes/securityRequirements, §7): what each declared
 * scheme needs from the user, the credentials given for it (kept here, in the inspector's server
 * process, never sent back to the browser), and the interceptors that put them on every call.
 * OAuth 2 client credentials: the token is fetched from the scheme's tokenUrl (RFC 6749 §4.4).
 * Mutual TLS: the paths of the PEM files, which the server side's TLS client reads.
 */
import { apiKey, bearerToken, httpAuth } from '../client/credentials.js';
import type { Interceptor } from '../client/interceptors.js';
import type { AgentCard } from '../core/schemas/index.js';

/** PEM file paths of a TLS client (the shape of src/node/tls-fetch.ts's ClientTlsFiles). */
export interface ClientTlsFiles {
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
  readonly ca?: string | undefined;
}

/** One input a scheme asks for. */
export interface AuthField {
  readonly name: string;
  readonly label: string;
  readonly secret: boolean;
  /** A value the card already provides (a token URL), editable. */
  readonly value?: string | undefined;
}

/** What one declared scheme needs, and whether credentials are set for it. */
export interface AuthNeed {
  readonly scheme: string;
  readonly kind: 'bearer' | 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mtls';
  readonly description: string;
  /** True when a securityRequirements entry of the card names this scheme. */
  readonly required: boolean;
  readonly fields: readonly AuthField[];
  /** True once credentials are held for it (their values are never returned). */
  readonly configured: boolean;
  /** What cannot be done for this scheme in the inspector, if anything. */
  readonly unsupported?: string | undefined;
}

/** The needs of every scheme the card declares, required ones first. */
export function authNeeds(card: AgentCard, held: CredentialStore): AuthNeed[] {
  const required = new Set(
    (card.securityRequirements ?? []).flatMap((r) => Object.keys(r.schemes ?? {})),
  );
  const needs = Object.entries(card.securitySchemes ?? {}).map(([name, s]): AuthNeed => {
    const base = { scheme: name, required: required.has(name), configured: held.has(name) };
    if (s.apiKeySecurityScheme) {
      const { location, name: key } = s.apiKeySecurityScheme;
      return {
        ...base,
        kind: 'apiKey',
        description: `API key in ${location} "${key}"`,
        fields: [{ name: 'value', label: `API key (${location} ${key})`, secret: true }],
      };
    }
    if (s.httpAuthSecurityScheme) {
      const scheme = s.httpAuthSecurityScheme.scheme;
      const bearer = scheme.toLowerCase() === 'bearer';
      return {
        ...base,
        kind: bearer ? 'bearer' : 'http',
        description: `HTTP ${scheme}${s.httpAuthSecurityScheme.description ? `: ${s.httpAuthSecurityScheme.description}` : ''}`,
        fields: [
          { name: 'value', label: bearer ? 'Bearer token' : `${scheme} credentials`, secret: true },
        ],
      };
    }
    if (s.oauth2SecurityScheme) {
      const flow = s.oauth2SecurityScheme.flows.clientCredentials;
      const scopes = Object.keys(flow?.scopes ?? {}).join(' ');
      return {
        ...base,
        kind: 'oauth2',
        description: flow
          ? `OAuth 2 client credentials at ${flow.tokenUrl}`
          : 'OAuth 2 (no client-credentials flow: paste a token)',
        fields: flow
          ? [
              { name: 'tokenUrl', label: 'Token URL', secret: false, value: flow.tokenUrl },
              { name: 'clientId', label: 'Client id', secret: false },
              { name: 'clientSecret', label: 'Client secret', secret: true },
              { name: 'scope', label: 'Scopes', secret: false, value: scopes },
              { name: 'value', label: 'or a token you already have', secret: true },
            ]
          : [{ name: 'value', label: 'Access token', secret: true }],
      };
    }
    if (s.openIdConnectSecurityScheme) {
      return {
        ...base,
        kind: 'openIdConnect',
        description: `OpenID Connect (${s.openIdConnectSecurityScheme.openIdConnectUrl})`,
        fields: [{ name: 'value', label: 'ID/access token', secret: true }],
      };
    }
    return {
      ...base,
      kind: 'mtls',
      configured: held.clientTls?.cert !== undefined,
      description: `Mutual TLS client certificate${s.mtlsSecurityScheme?.description ? `: ${s.mtlsSecurityScheme.description}` : ''}`,
      // Paths, not secrets: shown as they are; the files never leave the server side.
      fields: [
        {
          name: 'cert',
          label: 'Client certificate file (PEM path, read by the inspector)',
          secret: false,
          value: held.clientTls?.cert,
        },
        {
          name: 'key',
          label: 'Private key file (PEM path)',
          secret: false,
          value: held.clientTls?.key,
        },
        {
          name: 'ca',
          label: 'CA file for the agent’s server certificate (PEM path, optional)',
          secret: false,
          value: held.clientTls?.ca,
        },
      ],
      ...(held.tlsSupported
        ? {}
        : {
            unsupported:
              'this inspector has no TLS client (a2a inspect and serve({ inspector }) have one)',
          }),
    };
  });
  return needs.sort((a, b) => Number(b.required) - Number(a.required));
}

/** Credentials by scheme name, held in this process only. */
export class CredentialStore {
  private readonly values = new Map<string, Record<string, string>>();
  private readonly tokens = new Map<string, { token: string; expires: number }>();
  /**
   * The client certificate files in use (mutual TLS), paths only: the files are read by the
   * server side's TLS client, and never sent to the browser.
   */
  clientTls: ClientTlsFiles | undefined;

  constructor(
    private readonly fetchImpl: typeof fetch = globalThis.fetch,
    /** True when the server side can present client certificates. */
    readonly tlsSupported = false,
  ) {}

  has(scheme: string): boolean {
    return this.values.has(scheme);
  }

  /** Sets (or with no non-empty value, forgets) the credentials of `scheme`. */
  set(scheme: string, fields: Record<string, unknown>): void {
    const kept = Object.fromEntries(
      Object.entries(fields).filter(
        (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
      ),
    );
    this.tokens.delete(scheme);
    if (Object.keys(kept).length === 0) this.values.delete(scheme);
    else this.values.set(scheme, kept);
  }

  clear(): void {
    this.values.clear();
    this.tokens.clear();
    this.clientTls = undefined;
  }

  /** Header names and query names carrying secrets, for masking in the wire view. */
  secretNames(card: AgentCard): { headers: string[]; query: string[] } {
    const headers: string[] = [];
    const query: string[] = [];
    for (const s of Object.values(card.securitySchemes ?? {})) {
      const key = s.apiKeySecurityScheme;
      if (key?.location === 'header') headers.push(key.name.toLowerCase());
      if (key?.location === 'query') query.push(key.name);
    }
    return { headers, query };
  }

  /** Interceptors for every scheme with credentials (the agent picks what it accepts). */
  interceptors(card: AgentCard): Interceptor[] {
    const out: Interceptor[] = [];
    for (const [name, s] of Object.entries(card.securitySchemes ?? {})) {
      const held = this.values.get(name);
      if (!held) continue;
      const value = held.value;
      if (s.apiKeySecurityScheme && value) {
        out.push(apiKey(s.apiKeySecurityScheme.name, value, s.apiKeySecurityScheme.location));
      } else if (s.httpAuthSecurityScheme && value) {
        const scheme = s.httpAuthSecurityScheme.scheme;
        out.push(scheme.toLowerCase() === 'bearer' ? bearerToken(value) : httpAuth(scheme, value));
      } else if (s.oauth2SecurityScheme) {
        out.push(bearerToken(value ?? (() => this.clientCredentialsToken(name, held))));
      } else if (s.openIdConnectSecurityScheme && value) {
        out.push(bearerToken(value));
      }
    }
    return out;
  }

  /** RFC 6749 §4.4: a token for the client credentials, cached until shortly before it expires. */
  private async clientCredentialsToken(
    scheme: string,
    held: Record<string, string>,
  ): Promise<string> {
    const cached = this.tokens.get(scheme);
    if (cached && cached.expires > Date.now()) return cached.token;
    const { tokenUrl, clientId, clientSecret, scope } = held;
    if (!tokenUrl || !clientId || !clientSecret) {
      throw new Error(`scheme "${scheme}": give the token URL, client id and client secret`);
    }
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) body.set('scope', scope);
    const basic = btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
    const response = await this.fetchImpl(tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
      body: body.toString(),
    });
    const json = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof json.access_token !== 'string') {
      const why = typeof json.error === 'string' ? json.error : `HTTP ${response.status}`;
      throw new Error(`the token endpoint ${tokenUrl} refused the client credentials (${why})`);
    }
    const lifetime = typeof json.expires_in === 'number' ? json.expires_in : 300;
    this.tokens.set(scheme, {
      token: json.access_token,
      expires: Date.now() + Math.max(0, lifetime - 30) * 1000,
    });
    return json.access_token;
  }
}
