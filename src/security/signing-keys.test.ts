import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { fullCard } from '../../test/fixtures/signing/cards.js';
import { signAgentCard, verifyAgentCard } from './card-signing.js';
import {
  CARD_SIGNING_ALGORITHMS,
  exportPrivateJwk,
  exportPublicJwks,
  generateSigningKey,
  importSigningKey,
  isCardSigningAlgorithm,
  type CardSigningAlgorithm,
} from './signing-keys.js';

const PRIVATE = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

describe('signing keys', () => {
  it('accepts only asymmetric JWS algorithms', () => {
    expect(CARD_SIGNING_ALGORITHMS).not.toContain('HS256');
    for (const alg of ['none', 'HS256', 'HS512', 'RSA-OAEP', '', undefined]) {
      expect(isCardSigningAlgorithm(alg)).toBe(false);
    }
  });

  it('defaults to ES256 and a kid equal to the RFC 7638 thumbprint', async () => {
    const key = await generateSigningKey();
    const [jwk] = (await exportPublicJwks([key])).keys;
    expect(key.alg).toBe('ES256');
    expect(key.kid).toBe(await calculateJwkThumbprint(jwk!));
  });

  it.each<CardSigningAlgorithm>(['ES256', 'RS256', 'EdDSA', 'PS256'])(
    'exports a public-only JWKS for %s with kid, alg and use',
    async (alg) => {
      const key = await generateSigningKey(alg, { kid: `k-${alg}` });
      const [jwk] = (await exportPublicJwks([key])).keys;
      expect(jwk).toMatchObject({ kid: `k-${alg}`, alg, use: 'sig' });
      for (const m of PRIVATE) expect(jwk).not.toHaveProperty(m);
    },
  );

  it('saves and reloads a private key that signs verifiably (CLI round trip)', async () => {
    const key = await generateSigningKey('EdDSA', { kid: 'ed' });
    const saved = JSON.parse(JSON.stringify(await exportPrivateJwk(key))) as Parameters<
      typeof importSigningKey
    >[0];
    expect(saved).toMatchObject({ kid: 'ed', alg: 'EdDSA', d: expect.any(String) });
    const loaded = await importSigningKey(saved);
    expect([loaded.kid, loaded.alg]).toEqual(['ed', 'EdDSA']);
    const card = await signAgentCard(fullCard(), loaded);
    const { keys } = await exportPublicJwks([saved]);
    await expect(verifyAgentCard(card, { keys })).resolves.toMatchObject({ kid: 'ed' });
    for (const m of PRIVATE) expect(keys[0]).not.toHaveProperty(m);
  });

  it('refuses to import a public JWK as a signing key, or to export a JWK without kid', async () => {
    const key = await generateSigningKey();
    const [pub] = (await exportPublicJwks([key])).keys;
    await expect(importSigningKey(pub!)).rejects.toThrow(/private/);
    const { kid: _kid, ...noKid } = pub!;
    await expect(exportPublicJwks([noKid])).rejects.toThrow(/kid/);
  });

  it('refuses unsupported algorithms', async () => {
    await expect(generateSigningKey('HS256' as CardSigningAlgorithm)).rejects.toThrow(
      /unsupported/,
    );
  });
});
