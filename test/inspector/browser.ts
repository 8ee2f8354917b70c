/**
 * Helpers of the inspector's browser tests: Debian's chromium driven by playwright-core (no
 * browser download), the page bundled into a scratch directory, and the odd agents the tests
 * inspect besides the demo (a tampered signed card, an agent requiring a token, a long task).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK } from 'jose';
import { chromium, type BrowserContext } from 'playwright-core';
import { serve, type ServeResult } from '../../src/node/index.js';
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
