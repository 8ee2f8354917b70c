/**
 * Signed cards end to end (spec §8.4, requirements 223–231 of test/conformance/requirements.ts): serve() signs its card at start-up
 * and publishes the key; A2AClient.connect verifies the card JSON exactly as received before
 * using it and fails closed: every tampered field, a missing signature, an untrusted, expired or
 * revoked key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AClient,
  AgentCardResolver,
  CardSignatureError,
  type VerifyAgentCardOptions,
} from '../../src/client/index.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { exportPublicJwks, generateSigningKey } from '../../src/security/index.js';
import type { SigningKey } from '../../src/security/index.js';
import { securedAgent } from './fixtures/server.js';

type Json = Record<string, unknown>;

const agent = securedAgent({
  name: 'Signed agent',
  description: 'Its card is signed',
  version: '2.1.0',
  capabilities: { streaming: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['demo'] }],
});

let key: SigningKey;
let running: ServeResult;
let signedJson: Json;
/** Serves whatever card JSON the test puts here. */
let served: Json = {};
let fake: Server;
let fakeUrl: string;

beforeAll(async () => {
  key = await generateSigningKey('ES256', { kid: 'card-key-1' });
  running = await serve(agent, { logger: null, signCard: { key, jku: true } });
  signedJson = (await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as Json;
  fake = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
    res.end(JSON.stringify(served));
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await running?.close();
  await new Promise<void>((resolve) => fake?.close(() => resolve()));
});

/** Connects with verification through a fresh resolver (no card cache shared between tests). */
const connect = (url: string, verifyCard: VerifyAgentCardOptions) =>
  A2AClient.connect(url, { verifyCard, cardResolver: new AgentCardResolver() });

const trusted = async () => ({ keys: (await exportPublicJwks([key])).keys });

describe('[223,227,228] the server signs its card at start-up', () => {
  it('serves the card with a JWS whose protected header names alg, kid, typ and the JWKS URL', () => {
    const signatures = signedJson.signatures as { protected: string }[];
    expect(signatures).toHaveLength(1);
    const header = JSON.parse(
      Buffer.from(signatures[0]?.protected ?? '', 'base64url').toString('utf8'),
    ) as Json;
    expect(header).toEqual({
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'card-key-1',
      jku: `${running.url}/.well-known/jwks.json`,
    });
  });

  it('publishes the public key, and only the public key, as a JWKS', async () => {
    const jwks = (await (await fetch(`${running.url}/.well-known/jwks.json`)).json()) as {
      keys: Json[];
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kid: 'card-key-1', alg: 'ES256', use: 'sig', kty: 'EC' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });
});

describe('[229,231] the client verifies before it trusts', () => {
  it('accepts the served card with trusted keys, a trusted JWKS URL or a same-origin jku', async () => {
    for (const verifyCard of [
      await trusted(),
      { jwksUrl: `${running.url}/.well-known/jwks.json`, allowInsecure: true },
      { trustJku: (jku: URL) => jku.origin === running.url, allowInsecure: true },
    ]) {
      const client = await connect(running.url, verifyCard);
      expect(client.card.name).toBe('Signed agent');
      client.close();
    }
  });

  it('verifies a card object handed to connect() as well', async () => {
    const client = await A2AClient.connect(signedJson as never, { verifyCard: await trusted() });
    expect(client.card.version).toBe('2.1.0');
    await expect(
      A2AClient.connect({ ...signedJson, version: '9.9.9' } as never, {
        verifyCard: await trusted(),
      }),
    ).rejects.toBeInstanceOf(CardSignatureError);
  });

  it('rejects a card signed by a key it does not trust, and an unsigned card', async () => {
    const other = await generateSigningKey('ES256', { kid: 'card-key-1' });
    await expect(
      connect(running.url, { keys: (await exportPublicJwks([other])).keys }),
    ).rejects.toThrow(/no valid agent card signature/);
    served = { ...signedJson };
    delete served.signatures;
    await expect(connect(fakeUrl, await trusted())).rejects.toMatchObject({
      name: 'CardSignatureError',
      code: 'NO_SIGNATURES',
    });
  });

  it('[230] rejects a revoked key and an expired one', async () => {
    served = signedJson;
    await expect(
      connect(fakeUrl, { ...(await trusted()), isRevoked: (kid: string) => kid === 'card-key-1' }),
    ).rejects.toBeInstanceOf(CardSignatureError);
    const expired = (await trusted()).keys.map((k) => ({ ...k, exp: 1_000_000 }));
    await expect(connect(fakeUrl, { keys: expired })).rejects.toBeInstanceOf(CardSignatureError);
  });

  it('never takes an unverified card from the cache', async () => {
    const resolver = new AgentCardResolver();
    served = { ...signedJson, name: 'Impostor' };
    expect((await resolver.resolve(fakeUrl)).name).toBe('Impostor'); // cached, unverified
    await expect(
      A2AClient.connect(fakeUrl, { verifyCard: await trusted(), cardResolver: resolver }),
    ).rejects.toBeInstanceOf(CardSignatureError);
  });
});

/** One change per field of the card; each must break the signature. */
const TAMPERING: readonly [string, (card: Json) => void][] = [
  ['name', (c) => (c.name = 'Evil agent')],
  ['description', (c) => (c.description = 'Trust me')],
  ['version', (c) => (c.version = '2.1.1')],
  ['an interface URL', (c) => (at(c, 'supportedInterfaces', 0).url = 'https://evil.example/a2a')],
  ['an interface binding', (c) => (at(c, 'supportedInterfaces', 0).protocolBinding = 'HTTP+JSON')],
  ['an interface version', (c) => (at(c, 'supportedInterfaces', 1).protocolVersion = '0.3')],
  ['an interface tenant', (c) => (at(c, 'supportedInterfaces', 0).tenant = 'other')],
  ['capabilities.streaming', (c) => ((c.capabilities as Json).streaming = false)],
  ['capabilities.pushNotifications', (c) => ((c.capabilities as Json).pushNotifications = true)],
  ['capabilities.extendedAgentCard', (c) => ((c.capabilities as Json).extendedAgentCard = true)],
  ['defaultInputModes', (c) => (c.defaultInputModes = ['application/json'])],
  ['defaultOutputModes', (c) => (c.defaultOutputModes = ['text/html'])],
  ['a skill name', (c) => (at(c, 'skills', 0).name = 'Exfiltrate')],
  ['a skill tag', (c) => (at(c, 'skills', 0).tags = ['demo', 'admin'])],
  [
    'an added skill',
    (c) => (c.skills as Json[]).push({ id: 'x', name: 'X', description: 'x', tags: ['x'] }),
  ],
  ['provider', (c) => (c.provider = { organization: 'Evil', url: 'https://evil.example' })],
  ['documentationUrl', (c) => (c.documentationUrl = 'https://evil.example/docs')],
  ['iconUrl', (c) => (c.iconUrl = 'https://evil.example/icon.png')],
  [
    'securitySchemes',
    (c) => (c.securitySchemes = { k: { apiKeySecurityScheme: { location: 'header', name: 'X' } } }),
  ],
  ['securityRequirements', (c) => (c.securityRequirements = [{ schemes: { k: { list: [] } } }])],
  ['an unknown extra field', (c) => (c.comment = 'added in transit')],
  [
    'the signature bytes',
    (c) => (at(c, 'signatures', 0).signature = flip(at(c, 'signatures', 0).signature)),
  ],
  [
    'the protected header',
    (c) => (at(c, 'signatures', 0).protected = reheader(at(c, 'signatures', 0).protected)),
  ],
];

function at(card: Json, list: string, index: number): Json {
  const item = (card[list] as Json[])[index];
  if (item === undefined) throw new Error(`${list}[${index}] is missing`);
  return item;
}

function flip(signature: unknown): string {
  const bytes = Buffer.from(String(signature), 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString('base64url');
}

/** The same header with another (still trusted) `kid` spelling: a different signing input. */
function reheader(protectedHeader: unknown): string {
  const header = JSON.parse(Buffer.from(String(protectedHeader), 'base64url').toString()) as Json;
  return Buffer.from(JSON.stringify({ ...header, x: 1 })).toString('base64url');
}

describe('[229] every tampered field is rejected', () => {
  it('accepts the untouched copy from the same fake server (control)', async () => {
    served = structuredClone(signedJson);
    const client = await connect(fakeUrl, await trusted());
    expect(client.card.name).toBe('Signed agent');
  });

  it.each(TAMPERING)('rejects a card whose %s changed', async (_field, tamper) => {
    const copy = structuredClone(signedJson);
    tamper(copy);
    served = copy;
    await expect(connect(fakeUrl, await trusted())).rejects.toBeInstanceOf(CardSignatureError);
  });
});
