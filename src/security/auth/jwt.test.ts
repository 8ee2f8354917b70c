import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultPrincipal, jwtVerifier, scopesOf } from './jwt.js';
import type { AuthRequest } from './types.js';

let privateKey: CryptoKey;
let jwk: JWK;
beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
});

const ISSUER = 'https://issuer.test';
const bearer = (token: string): AuthRequest => ({
  binding: 'JSONRPC',
  headers: { get: (name) => (name === 'authorization' ? `Bearer ${token}` : null) },
  query: new URLSearchParams(),
});

function token(claims: Record<string, unknown>, subject?: string) {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setAudience('agent')
    .setExpirationTime('5m');
  if (subject !== undefined) jwt.setSubject(subject);
  return jwt.sign(privateKey);
}

describe('jwtVerifier', () => {
  it('verifies against given keys and maps claims to a principal with scopes', async () => {
    const verifier = jwtVerifier({ audience: 'agent', issuer: ISSUER, keys: { keys: [jwk] } });
    const check = await verifier.check(bearer(await token({ scp: ['a', 'b'] }, 'alice')));
    expect(check).toMatchObject({
      status: 'ok',
      principal: { id: 'alice', issuer: ISSUER, scopes: ['a', 'b'] },
    });
  });

  it('uses client_id when there is no sub, and refuses a token that names nobody', async () => {
    const verifier = jwtVerifier({ audience: 'agent', issuer: ISSUER, keys: { keys: [jwk] } });
    expect(await verifier.check(bearer(await token({ client_id: 'svc' })))).toMatchObject({
      principal: { id: 'svc' },
    });
    expect(await verifier.check(bearer(await token({})))).toEqual({
      status: 'invalid',
      reason: 'the token names no subject (sub)',
    });
  });

  it('discovers issuer and JWKS from RFC 8414 metadata, fetching each once', async () => {
    const fetched: string[] = [];
    const fake: typeof fetch = async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      fetched.push(url);
      const body = url.endsWith('/jwks')
        ? { keys: [jwk] }
        : { issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` };
      return new Response(JSON.stringify(body), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const verifier = jwtVerifier(
      { audience: 'agent', fetch: fake },
      `${ISSUER}/.well-known/oauth-authorization-server`,
    );
    for (let i = 0; i < 2; i++) {
      expect((await verifier.check(bearer(await token({ scope: 'x y' }, 'bob')))).status).toBe(
        'ok',
      );
    }
    expect(fetched).toEqual([`${ISSUER}/.well-known/oauth-authorization-server`, `${ISSUER}/jwks`]);
  });

  it('refuses http metadata unless allowInsecure, at start-up (a configuration error)', () => {
    expect(() =>
      jwtVerifier({ audience: 'agent' }, 'http://issuer.test/.well-known/openid-configuration'),
    ).toThrow(/must use https/);
  });

  it('[194] refuses a token that cannot be valid before fetching anything', async () => {
    const fetched: string[] = [];
    const counting: typeof fetch = async (input) => {
      fetched.push(input instanceof Request ? input.url : input.toString());
      throw new Error('no network in this test');
    };
    const verifier = jwtVerifier(
      { audience: 'agent', fetch: counting },
      `${ISSUER}/.well-known/openid-configuration`,
    );
    const header = (h: object) => Buffer.from(JSON.stringify(h)).toString('base64url');
    const payload = (p: object) => Buffer.from(JSON.stringify(p)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string][] = [
      ['not.a.jwt', 'the token is not a valid JWT'],
      ['garbage', 'the token is not a valid JWT'],
      ['a.b.c.d.e', 'the token is not a valid JWT'],
      [`${header({ alg: 'none' })}.${payload({ exp: now + 60 })}.`, 'algorithm'],
      [`${header({ alg: 'HS256' })}.${payload({ exp: now + 60 })}.c2ln`, 'algorithm'],
      [`${header({ alg: 'ES256' })}.${payload({ sub: 'a' })}.c2ln`, '"exp" claim is missing'],
      [`${header({ alg: 'ES256' })}.${payload({ exp: now - 3600 })}.c2ln`, 'expired'],
    ];
    for (const [bad, reason] of cases) {
      const check = await verifier.check(bearer(bad));
      expect(check.status).toBe('invalid');
      expect(check.status === 'invalid' && check.reason).toContain(reason);
    }
    expect(fetched).toEqual([]);
  });

  it('reports an unreachable issuer as unavailable, fetching once per cooldown', async () => {
    let attempts = 0;
    const down: typeof fetch = async () => {
      attempts += 1;
      throw new TypeError('fetch failed');
    };
    const verifier = jwtVerifier(
      { audience: 'agent', fetch: down, cooldownMs: 60_000 },
      `${ISSUER}/.well-known/openid-configuration`,
    );
    const good = await token({}, 'alice');
    for (let i = 0; i < 5; i++) {
      const check = await verifier.check(bearer(good));
      expect(check).toMatchObject({ status: 'unavailable' });
      expect(check.status === 'unavailable' && check.retryAfterSeconds).toBeGreaterThan(50);
      expect(check.status === 'unavailable' && check.reason).toContain('fetch failed');
    }
    expect(attempts).toBe(1);
  });

  it('needs keys or a way to find them, and an issuer', () => {
    expect(() => jwtVerifier({ audience: 'a' })).toThrow(/needs keys, a jwksUrl or a metadata/);
    expect(() => jwtVerifier({ audience: 'a', jwksUrl: 'https://x/jwks' })).toThrow(
      /expected issuer/,
    );
  });

  it('reads scopes from scope or scp', () => {
    expect(scopesOf({ scope: 'a  b' })).toEqual(['a', 'b']);
    expect(scopesOf({ scp: 'a' })).toEqual(['a']);
    expect(scopesOf({})).toEqual([]);
    expect(defaultPrincipal({ azp: 'client' })?.id).toBe('client');
  });
});
