import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullCard, overTheWire, type JsonCard } from '../../test/fixtures/signing/cards.js';
import { signAgentCard, verifyAgentCard } from './card-signing.js';
import { fetchJwks, parseJwks } from './jwks.js';
import { CardSignatureError } from './signature-error.js';
import { exportPublicJwks, generateSigningKey, type SigningKey } from './signing-keys.js';

let server: Server;
let origin: string;
const hits = new Map<string, number>();
const documents = new Map<string, string>();

let agentKey: SigningKey;
let nextKey: SigningKey;
let attackerKey: SigningKey;

beforeAll(async () => {
  agentKey = await generateSigningKey('ES256', { kid: 'agent-1' });
  nextKey = await generateSigningKey('RS256', { kid: 'agent-2' });
  attackerKey = await generateSigningKey('ES256', { kid: 'agent-1' });
  documents.set('/jwks.json', JSON.stringify(await exportPublicJwks([agentKey, nextKey])));
  documents.set('/attacker.json', JSON.stringify(await exportPublicJwks([attackerKey])));
  documents.set('/not-json', 'hello');
  documents.set('/big', JSON.stringify({ keys: [], pad: 'x'.repeat(300_000) }));
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = documents.get(path);
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const insecure = { allowInsecure: true };

async function failure(card: JsonCard, options: Parameters<typeof verifyAgentCard>[1]) {
  const err = await verifyAgentCard(card, options).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CardSignatureError);
  return (err as CardSignatureError).failures[0]!;
}

describe('keys from a trusted JWKS URL', () => {
  it('verifies with a JWKS fetched over http from 127.0.0.1 when allowInsecure is set', async () => {
    const card = overTheWire(await signAgentCard(fullCard(), agentKey));
    await expect(
      verifyAgentCard(card, { jwksUrl: `${origin}/jwks.json`, allowInsecure: true }),
    ).resolves.toMatchObject({ verified: true, kid: 'agent-1' });
  });

  it('fetches the JWKS once for a card with several signatures', async () => {
    const rotated = await signAgentCard(await signAgentCard(fullCard(), nextKey), agentKey);
    const broken = overTheWire(rotated);
    (broken['signatures'] as { signature: string }[])[0]!.signature = 'AAAA';
    hits.delete('/jwks.json');
    await expect(
      verifyAgentCard(broken, { jwksUrl: `${origin}/jwks.json`, fetchOptions: insecure }),
    ).resolves.toMatchObject({ kid: 'agent-1', index: 1 });
    expect(hits.get('/jwks.json')).toBe(1);
  });

  it('refuses a plain-http JWKS URL by default', async () => {
    const card = overTheWire(await signAgentCard(fullCard(), agentKey));
    const f = await failure(card, { jwksUrl: `${origin}/jwks.json` });
    expect(f.code).toBe('JWKS_UNAVAILABLE');
    expect(f.message).toMatch(/only https/);
  });

  it.each(['/missing', '/not-json', '/big'])(
    'fails closed when %s cannot be used',
    async (path) => {
      const card = overTheWire(await signAgentCard(fullCard(), agentKey));
      const f = await failure(card, { jwksUrl: `${origin}${path}`, fetchOptions: insecure });
      expect(f.code).toBe('JWKS_UNAVAILABLE');
    },
  );

  it('reports an unknown kid when the JWKS does not have it', async () => {
    const stranger = await generateSigningKey('ES256', { kid: 'stranger' });
    const card = overTheWire(await signAgentCard(fullCard(), stranger));
    const f = await failure(card, { jwksUrl: `${origin}/jwks.json`, fetchOptions: insecure });
    expect(f.code).toBe('UNKNOWN_KEY');
  });
});

describe('keys from the jku of the signature', () => {
  it('ignores jku unless trustJku is set', async () => {
    const card = overTheWire(
      await signAgentCard(fullCard(), { ...agentKey, jku: `${origin}/jwks.json` }),
    );
    expect((await failure(card, { keys: [], fetchOptions: insecure })).code).toBe('UNTRUSTED_JKU');
    await expect(
      verifyAgentCard(card, { trustJku: true, fetchOptions: insecure }),
    ).resolves.toMatchObject({ verified: true });
  });

  it('lets a predicate pin jku to the agent origin, defeating a re-signed card', async () => {
    // An attacker edits the card, signs it with their own key and points jku at their JWKS.
    const evil = { ...fullCard(), name: 'Evil' };
    const forged = overTheWire(
      await signAgentCard(evil, { ...attackerKey, jku: `http://localhost:1/attacker.json` }),
    );
    const sameOrigin = (u: URL): boolean => u.origin === origin;
    const f = await failure(forged, { trustJku: sameOrigin, fetchOptions: insecure });
    expect(f.code).toBe('UNTRUSTED_JKU');
    // `trustJku: true` would have believed the attacker's key: that is why it is opt-in.
    const trusting = overTheWire(
      await signAgentCard(evil, { ...attackerKey, jku: `${origin}/attacker.json` }),
    );
    await expect(
      verifyAgentCard(trusting, { trustJku: true, fetchOptions: insecure }),
    ).resolves.toMatchObject({ verified: true });
  });

  it('prefers trusted keys over the jku', async () => {
    const card = overTheWire(
      await signAgentCard(fullCard(), { ...agentKey, jku: `${origin}/attacker.json` }),
    );
    const { keys } = await exportPublicJwks([agentKey]);
    hits.delete('/attacker.json');
    await expect(
      verifyAgentCard(card, { keys, trustJku: true, fetchOptions: insecure }),
    ).resolves.toMatchObject({ verified: true });
    expect(hits.get('/attacker.json')).toBeUndefined();
  });
});

describe('fetchJwks and parseJwks', () => {
  it('returns the keys of a JWKS', async () => {
    const keys = await fetchJwks(`${origin}/jwks.json`, insecure);
    expect(keys.map((k: JWK) => k.kid)).toEqual(['agent-1', 'agent-2']);
    expect(keys.every((k) => k.d === undefined && k.use === 'sig')).toBe(true);
  });

  it('rejects non-http(s) URLs even when insecure is allowed', async () => {
    await expect(fetchJwks('file:///etc/passwd', insecure)).rejects.toThrow(/only https/);
  });

  it.each(['[]', '{}', '{"keys": {}}', '{"keys": [1]}', 'nope'])('rejects %s', (text) => {
    expect(() => parseJwks(text)).toThrow();
  });
});
