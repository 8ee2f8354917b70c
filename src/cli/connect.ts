/**
 * From the global flags to a connected {@link A2AClient}: the agent URL checked, the card
 * fetched, credentials chosen from the card's security schemes, the binding forced if asked.
 */
import { A2AClient, type TransportFactory } from '../client/client.js';
import { DEFAULT_BINDINGS, DEFAULT_TRANSPORTS } from '../client/default-transports.js';
import { AgentCardResolver } from '../client/card-resolver.js';
import { apiKey, bearerToken, credentialsForCard } from '../client/credentials.js';
import type { Interceptor } from '../client/interceptors.js';
import { majorMinor, PROTOCOL_VERSION } from '../core/interfaces.js';
import type { AgentCard } from '../core/schemas/index.js';
import type { ErrorContext } from './describe-error.js';
import { CliError, EXIT, UsageError } from './exit-codes.js';
import type { Output } from './io.js';
import type { GlobalOptions } from './options.js';

/** The agent URL a user typed, as an absolute http(s) URL (`host:port` gets `http://`). */
export function agentUrl(raw: string | undefined, what = 'the agent URL'): string {
  if (raw === undefined || raw === '') {
    throw new UsageError(
      `missing ${what}`,
      'e.g. http://127.0.0.1:8765 (start one with `a2a serve`)',
    );
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`"${raw}" is not a URL`, 'give the agent URL, e.g. http://127.0.0.1:8765');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`"${raw}" is not an http(s) URL`);
  }
  return url.toString().replace(/\/$/, '');
}

/** Options of {@link fetchCard}. */
export interface FetchCardOptions {
  /** Replaces global fetch (discover uses it to see the response headers). */
  fetch?: typeof fetch | undefined;
  signal?: AbortSignal | undefined;
}

/** Fetches and validates the agent's card; `context.discovering` is set while it runs. */
export async function fetchCard(
  url: string,
  global: GlobalOptions,
  context: ErrorContext,
  options: FetchCardOptions = {},
): Promise<AgentCard> {
  context.url = url;
  context.discovering = true;
  const signing = options.fetch ?? (await signedFetch(global));
  const resolver = new AgentCardResolver({ timeoutMs: global.timeoutMs, fetch: signing });
  const headers = { ...global.headers };
  // The card endpoint may itself be protected (spec §8.2): a bearer token goes along.
  if (global.token !== undefined && !hasHeader(headers, 'authorization')) {
    headers.Authorization = `Bearer ${global.token}`;
  }
  const card = await resolver.resolve(url, { headers, signal: options.signal });
  context.discovering = false;
  context.card = card;
  return card;
}

/** Fetches the card and builds a client for it with the global flags. */
export async function connect(
  url: string,
  global: GlobalOptions,
  context: ErrorContext,
  signal?: AbortSignal,
  out?: Pick<Output, 'error'>,
): Promise<A2AClient> {
  const signing = await signedFetch(global);
  const card = await fetchCard(url, global, context, { signal, fetch: signing });
  const client = new A2AClient(card, {
    preferredBinding: global.binding,
    bindings: DEFAULT_BINDINGS, // gRPC only when asked for (--binding GRPC)
    transports: await transportsFor(global.binding),
    headers: global.headers,
    tenant: global.tenant,
    timeoutMs: global.timeoutMs,
    interceptors: credentialInterceptors(card, global),
    fetch: signing,
    signal,
  });
  // Say which protocol version is spoken when it is not the current one (an A2A 0.3 agent).
  const iface = client.selectedInterface;
  if (majorMinor(iface.protocolVersion) !== PROTOCOL_VERSION) {
    out?.error(
      `note: speaking A2A ${iface.protocolVersion} (${iface.protocolBinding} at ${iface.url}); results are shown in 1.0 form`,
    );
  }
  return client;
}

/** A fetch signing as the `--did-key` identity (did:wba), or undefined without one. */
async function signedFetch(global: GlobalOptions): Promise<typeof fetch | undefined> {
  if (global.didKey === undefined) {
    if (global.did === undefined) return undefined;
    throw new UsageError(
      '--did needs --did-key FILE, the private key to sign with',
      'make one with `a2a did init --did did:wba:example.com --out key.jwk`',
    );
  }
  const { loadDidIdentity } = await import('./did-identity.js');
  const { didSignedFetch } = await import('../did/sign.js');
  return didSignedFetch(await loadDidIdentity(global.didKey, global.did));
}

/** The transports to use: the defaults, plus gRPC when asked for (loaded only then). */
async function transportsFor(
  binding: string | undefined,
): Promise<Readonly<Record<string, TransportFactory>>> {
  if (binding !== 'GRPC') return DEFAULT_TRANSPORTS;
  try {
    const { GrpcTransport } = await import('../bindings/grpc/client.js');
    return { ...DEFAULT_TRANSPORTS, GRPC: (options) => new GrpcTransport(options) };
  } catch (error) {
    throw new CliError(
      EXIT.USAGE,
      `the gRPC binding is not available: ${error instanceof Error ? error.message : String(error)}`,
      'install it with `npm install @grpc/grpc-js @grpc/proto-loader`',
    );
  }
}

/**
 * Interceptors for `--token` and `--api-key`, placed the way the card's security schemes say
 * (spec §7.3); without a matching scheme a token is a bearer token and a named key a header.
 */
export function credentialInterceptors(card: AgentCard, global: GlobalOptions): Interceptor[] {
  const out: Interceptor[] = [];
  const { token, apiKey: key } = global;
  if (token !== undefined) out.push(credentialsForCard(card, { token }) ?? bearerToken(token));
  if (key !== undefined) {
    const declared = Object.values(card.securitySchemes ?? {}).flatMap((s) =>
      s.apiKeySecurityScheme ? [s.apiKeySecurityScheme] : [],
    );
    const named = key.name?.toLowerCase();
    const match = declared.find((s) => s.name.toLowerCase() === named);
    if (match) out.push(apiKey(match.name, key.value, match.location));
    else if (key.name !== undefined) out.push(apiKey(key.name, key.value, 'header'));
    else {
      const chosen = credentialsForCard(card, { apiKey: key.value });
      if (!chosen) {
        throw new UsageError(
          'the agent card declares no API key scheme, so the key has no known place',
          'name it: --api-key X-API-Key=VALUE (sent as that header)',
        );
      }
      out.push(chosen);
    }
  }
  return out;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}
