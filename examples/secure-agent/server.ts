/**
 * A secured agent: the configuration examples of docs/security.md, compiled and tested.
 *
 * - Users come with OpenID Connect access tokens (JWT, verified against the issuer's JWKS found
 *   through the discovery document the card names); services with an API key.
 * - The `admin` skill additionally needs the `agent.admin` scope; a message names its skill in
 *   `metadata.skillId` (skillFromMetadata), the same rule the agent routes by.
 * - Limits, a rate limit per caller, CORS for one web app, HTTPS when a certificate is given,
 *   and the card signed at start-up with its key published at /.well-known/jwks.json.
 *
 * Run: A2A_OIDC_ISSUER=https://login.example.com node dist/examples/secure-agent/server.js
 * (A2A_TLS_CERT / A2A_TLS_KEY: PEM files for HTTPS; A2A_API_KEYS: "key=service,key2=other").
 */
import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serve, type ServeOptions, type ServeResult, type TlsOptions } from 'a2a-kit/node';
import {
  generateSigningKey,
  scopesOf,
  skillFromMetadata,
  staticSecrets,
  type SigningKey,
} from 'a2a-kit/security';
import { createAgent, textOf, type Agent, type Principal } from 'a2a-kit/server';

/** What the deployment provides. */
export interface SecureAgentSettings {
  /** The OpenID Connect issuer (its discovery document is `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  /** The `aud` of access tokens meant for this agent. */
  audience: string;
  /** API key → the service it identifies. */
  apiKeys: Readonly<Record<string, string>>;
  /** Origin of the browser app allowed to call the agent. */
  webApp?: string | undefined;
  /** PEM certificate and key: serve HTTPS. */
  tls?: TlsOptions | undefined;
  /** The card signing key (default: a fresh one; keep one across restarts in production). */
  signingKey?: SigningKey | undefined;
  /** Permit http issuer URLs (local tests only). */
  allowInsecure?: boolean | undefined;
  port?: number | undefined;
  /** Where start-up warnings go (an unreachable issuer); default the console. */
  logger?: ServeOptions['logger'];
}

/** The agent: echoes, and `admin` reports who asked. */
export function secureAgent(issuer: string): Agent {
  return createAgent({
    card: {
      name: 'Secure agent',
      description: 'Echoes for signed-in users and known services',
      version: '1.0.0',
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: {
        oidc: {
          openIdConnectSecurityScheme: {
            openIdConnectUrl: `${issuer}/.well-known/openid-configuration`,
          },
        },
        service: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
      },
      // OR: a user token with the agent.use scope, or a service key.
      securityRequirements: [
        { schemes: { oidc: { list: ['agent.use'] } } },
        { schemes: { service: { list: [] } } },
      ],
      skills: [
        { id: 'echo', name: 'Echo', description: 'Echoes your text', tags: ['demo'] },
        {
          id: 'admin',
          name: 'Admin',
          description: 'Says who you are; needs agent.admin',
          tags: ['admin'],
          securityRequirements: [{ schemes: { oidc: { list: ['agent.admin'] } } }],
        },
      ],
    },
    async *execute({ message, task, call }) {
      yield task.working();
      const admin = message.metadata?.skillId === 'admin';
      const text = admin ? `you are ${call.principal?.id ?? 'nobody'}` : textOf(message);
      yield task.artifact(text);
      yield task.completed();
    },
    // spec §3.1.11: for authenticated callers only; may depend on who asks. `card` is the public
    // card as served (its interfaces included): the extended one adds to it.
    extendedCard: (call, card) => ({
      ...card,
      description: `Extended card for ${call.principal?.id ?? 'nobody'}`,
    }),
  });
}

/** serve()'s options for `settings`: the heart of the example. */
export async function secureServeOptions(settings: SecureAgentSettings): Promise<ServeOptions> {
  const services = Object.fromEntries(
    Object.entries(settings.apiKeys).map(([key, id]): [string, Principal] => [
      key,
      { id: `service:${id}` },
    ]),
  );
  return {
    port: settings.port ?? 8443,
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
    auth: {
      schemes: {
        oidc: {
          jwt: {
            audience: settings.audience,
            allowInsecure: settings.allowInsecure,
            // Namespace user ids so they never collide with service ids.
            principal: (claims) =>
              typeof claims.sub === 'string'
                ? { id: `user:${claims.sub}`, scopes: scopesOf(claims) }
                : undefined,
          },
        },
        service: { apiKey: staticSecrets(services) },
      },
      skillOf: skillFromMetadata('skillId'),
    },
    limits: {
      maxPartsPerMessage: 64,
      maxMessageBytes: 1024 * 1024,
      maxHistoryLength: 200,
      rateLimit: { requests: 120, windowSeconds: 60, burst: 20 },
      maxConcurrentStreams: 8,
    },
    ...(settings.webApp === undefined ? {} : { cors: { origins: [settings.webApp] } }),
    ...(settings.tls === undefined ? {} : { tls: settings.tls }),
    signCard: { key: settings.signingKey ?? (await generateSigningKey('ES256')), jku: true },
  };
}

/** Starts the secure agent. */
export async function startSecureAgent(settings: SecureAgentSettings): Promise<ServeResult> {
  return serve(secureAgent(settings.issuer), await secureServeOptions(settings));
}

function settingsFromEnv(env: NodeJS.ProcessEnv): SecureAgentSettings {
  const issuer = env.A2A_OIDC_ISSUER;
  if (issuer === undefined) throw new Error('set A2A_OIDC_ISSUER to your OpenID Connect issuer');
  const apiKeys = Object.fromEntries(
    (env.A2A_API_KEYS ?? '').split(',').flatMap((pair) => {
      const [key, id] = pair.split('=');
      return key && id ? [[key, id]] : [];
    }),
  );
  const tls =
    env.A2A_TLS_CERT && env.A2A_TLS_KEY
      ? { cert: readFileSync(env.A2A_TLS_CERT, 'utf8'), key: readFileSync(env.A2A_TLS_KEY, 'utf8') }
      : undefined;
  return {
    issuer,
    audience: env.A2A_AUDIENCE ?? 'secure-agent',
    apiKeys,
    tls,
    webApp: env.A2A_WEB_APP,
  };
}

const isMain =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (isMain) {
  const running = await startSecureAgent(settingsFromEnv(process.env));
  console.log(`Secure agent: ${running.url}/.well-known/agent-card.json`);
}
