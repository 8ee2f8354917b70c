/**
 * Helpers of the inspector's browser tests: Debian's chromium driven by playwright-core (no
 * browser download), the page bundled into a scratch directory, and the odd agents the tests
 * inspect besides the demo (a tampered signed card, an agent requiring a token, a long task, an
 * HTTPS agent wanting a client certificate, an OAuth 2 agent with its token server, a 0.3 hybrid).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK } from 'jose';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { serve, type ServeOptions, type ServeResult } from '../../src/node/index.js';
import type { AgentCardConfig } from '../../src/server/agent.js';
import type { TestPki } from '../security/fixtures/certs.js';
import { signAgentCard } from '../../src/security/card-signing.js';
import { staticSecrets } from '../../src/security/auth/index.js';
import { generateSigningKey } from '../../src/security/signing-keys.js';
import { createAgent } from '../../src/server/agent.js';
import { textOf } from '../../src/core/parts.js';
// @ts-expect-error: a plain .mjs build script (typed below)
import { buildInspector as build } from '../../scripts/build-inspector.mjs';

/** The browser the suite drives: Debian's package (`.ci/run` installs it when missing). */
export const CHROMIUM = process.env.A2A_CHROMIUM ?? '/usr/bin/chromium';
/** Why the browser tests cannot run here, or undefined when they can. */
export const NO_BROWSER = existsSync(CHROMIUM)
  ? undefined
  : `no chromium at ${CHROMIUM}: install it (apt-get install -y chromium) to run the inspector's browser tests`;

/** Bundles the page (as `npm run build` does) into a scratch directory. */
export async function buildAssets(): Promise<{ outDir: string; bytes: number; gzipBytes: number }> {
  const outDir = mkdtempSync(join(tmpdir(), 'a2a-inspector-assets-'));
  return await (
    build as (dir: string) => Promise<{ outDir: string; bytes: number; gzipBytes: number }>
  )(outDir);
}

/** A headless chromium with a fresh profile. */
export async function launchBrowser(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'a2a-inspector-profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** How long a test waits for the page to show something. */
export const WAIT = { timeout: 30_000 };

/** The actions every browser test takes on the inspector page. */
export function pageActions(page: Page) {
  const tab = (name: string) => page.click(`#tab-${name}`);
  return {
    tab,
    /**
     * Types the agent URL and connects; resolves once the answer came and the card view shows
     * that agent's card (not the one shown before, nor a tab switch still to come).
     */
    async connect(url: string) {
      await page.fill('#agent-url', url);
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/connect'), WAIT),
        page.click('form.connect button[type=submit]'),
      ]);
      await page.locator(`section[data-card-url^="${url}"] [data-signature]`).waitFor(WAIT);
    },
    /** Sends one text message from the chat, streaming or not. */
    async send(text: string, stream: boolean) {
      await tab('Chat');
      await page.setChecked('#streaming', stream);
      await page.fill('#msg-text', text);
      await page.click('form.composer button[type=submit]');
    },
    async newChat() {
      await tab('Chat');
      await page.click('text=New chat');
    },
    /** The task id the chat is on. */
    async taskId() {
      return (await page.locator('[data-task-id]').getAttribute('data-task-id')) ?? '';
    },
  };
}

/** A server publishing a signed card whose description was changed after signing. */
export async function tamperedCardServer(): Promise<{ url: string; close(): Promise<void> }> {
  const key = await generateSigningKey('ES256');
  const jwk = { ...(await exportJWK(key.publicKey)), kid: key.kid, alg: 'ES256', use: 'sig' };
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/jwks.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: [jwk] }));
        return;
      }
      const card = {
        name: 'Tampered',
        description: 'The description that was signed',
        version: '1.0.0',
        supportedInterfaces: [
          { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 's', name: 'S', description: 'S', tags: ['t'] }],
      };
      const signed = await signAgentCard(card, {
        key: key.key,
        kid: key.kid,
        jku: `${origin}/jwks.json`,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...signed, description: 'Changed after signing' }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The token {@link lockedAgent} accepts. */
export const LOCKED_TOKEN = 'tok-inspector-test';

/** An echo agent whose card requires a bearer token: anonymous calls get 401. */
export function lockedAgent(): Promise<ServeResult> {
  const agent = createAgent({
    card: {
      name: 'Locked',
      description: 'Needs a bearer token',
      version: '1.0.0',
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
    },
    async *execute({ message, task }) {
      yield task.artifact(`locked echo: ${textOf(message)}`);
      yield task.completed();
    },
  });
  return serve(agent, {
    logger: null,
    auth: { schemes: { bearer: { bearer: staticSecrets({ [LOCKED_TOKEN]: { id: 'tester' } }) } } },
  });
}

/** An agent streaming `count` artifact chunks at once (a task with that many events). */
export function longAgent(count: number): Promise<ServeResult> {
  const agent = createAgent({
    card: {
      name: 'Long',
      description: 'Many events',
      version: '1.0.0',
      capabilities: { streaming: true },
      skills: [{ id: 'long', name: 'Long', description: 'Streams many chunks', tags: ['t'] }],
    },
    async *execute({ task }) {
      yield task.working();
      for (let i = 0; i < count; i++) {
        yield task.artifact(`c${i} `, {
          artifactId: 'long',
          append: i > 0,
          lastChunk: i === count - 1,
        });
      }
      yield task.completed();
    },
  });
  return serve(agent, { logger: null });
}

/** An echo agent answering `<prefix> echo: <text>`, streaming, served by serve() with `options`. */
function echoAgent(name: string, card: Partial<AgentCardConfig>, options: ServeOptions) {
  const agent = createAgent({
    card: {
      name,
      description: `${name} echo agent`,
      version: '1.0.0',
      capabilities: { streaming: true },
      skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
      ...card,
    },
    async *execute({ message, task, call }) {
      yield task.working();
      yield task.artifact(
        `${name} echo: ${textOf(message)} (${call.principal?.id ?? 'anonymous'})`,
      );
      yield task.completed();
    },
  });
  return serve(agent, { logger: null, ...options });
}

/** An agent served with `compat: ['0.3']`: its card lists 1.0 and 0.3 interfaces. */
export function hybridAgent(): Promise<ServeResult> {
  return echoAgent('hybrid', {}, { compat: ['0.3'] });
}

/**
 * An HTTPS agent whose card requires a client certificate from the test CA (spec §7.4), with its
 * gRPC interface over TLS beside it (grpc-js refuses a channel without a certificate).
 */
export function mtlsAgent(pki: TestPki, compat?: readonly '0.3'[]): Promise<ServeResult> {
  return echoAgent(
    'mtls',
    {
      securitySchemes: {
        mtls: { mtlsSecurityScheme: { description: 'a certificate from our CA' } },
      },
      securityRequirements: [{ schemes: { mtls: { list: [] } } }],
    },
    {
      tls: { cert: pki.serverCert, key: pki.serverKey, ca: pki.ca, requestCert: true },
      auth: { schemes: { mtls: { mtls: true } } },
      // gRPC over TLS beside HTTPS, demanding a client certificate at the handshake.
      grpc: true,
      ...(compat ? { compat } : {}),
    },
  );
}

/** The client of {@link oauthAgent}'s token server, and the token it issues. */
export const OAUTH = {
  clientId: 'inspector-test',
  clientSecret: 'cs-9f3a-never-in-the-browser',
  token: 'at-77c1-oauth',
};

/**
 * An agent whose card declares OAuth 2 client credentials (RFC 6749 §4.4) with the token URL of
 * a loopback token server; `tokenRequests` counts the token server's grants.
 */
export async function oauthAgent(): Promise<{
  agent: ServeResult;
  tokenUrl: string;
  tokenRequests: () => number;
  close(): Promise<void>;
}> {
  let grants = 0;
  const tokens: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const basic = `Basic ${btoa(`${OAUTH.clientId}:${OAUTH.clientSecret}`)}`;
      const form = new URLSearchParams(body);
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || form.get('grant_type') !== 'client_credentials') {
        res.writeHead(400).end(JSON.stringify({ error: 'unsupported_grant_type' }));
      } else if (req.headers.authorization !== basic) {
        res.writeHead(401).end(JSON.stringify({ error: 'invalid_client' }));
      } else {
        grants++;
        res.end(
          JSON.stringify({ access_token: OAUTH.token, token_type: 'Bearer', expires_in: 3600 }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => tokens.listen(0, '127.0.0.1', resolve));
  const tokenUrl = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`;
  const agent = await echoAgent(
    'oauth',
    {
      securitySchemes: {
        oauth: {
          oauth2SecurityScheme: {
            flows: { clientCredentials: { tokenUrl, scopes: { 'a2a.invoke': 'call the agent' } } },
          },
        },
      },
      securityRequirements: [{ schemes: { oauth: { list: [] } } }],
    },
    { auth: { schemes: { oauth: { bearer: staticSecrets({ [OAUTH.token]: { id: 'svc' } }) } } } },
  );
  return {
    agent,
    tokenUrl,
    tokenRequests: () => grants,
    close: async () => {
      await agent.close();
      await new Promise<void>((resolve) => tokens.close(() => resolve()));
    },
  };
}
