import { base64url, FlattenedSign, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  fullCard,
  overTheWire,
  withChange,
  type JsonCard,
} from '../../test/fixtures/signing/cards.js';
import { agentCardSigningPayload } from './card-canonical.js';
import { signAgentCard, verifyAgentCard } from './card-signing.js';
import { CardSignatureError } from './signature-error.js';
import { exportPublicJwks, generateSigningKey, type SigningKey } from './signing-keys.js';

let es: SigningKey;
let jwks: JWK[];
let signed: JsonCard;

beforeAll(async () => {
  es = await generateSigningKey('ES256', { kid: 'es-1' });
  jwks = (await exportPublicJwks([es])).keys;
  signed = overTheWire(await signAgentCard(fullCard(), es));
});

async function rejection(card: JsonCard, keys: JWK[] = jwks): Promise<CardSignatureError> {
  const err = await verifyAgentCard(card, { keys }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CardSignatureError);
  return err as CardSignatureError;
}

describe('key rotation with several signatures', () => {
  let rotated: JsonCard;
  let next: SigningKey;
  beforeAll(async () => {
    next = await generateSigningKey('EdDSA', { kid: 'ed-2' });
    rotated = overTheWire(await signAgentCard(signed, next));
  });

  it('verifies with either key alone', async () => {
    const nextJwks = (await exportPublicJwks([next])).keys;
    await expect(verifyAgentCard(rotated, { keys: jwks })).resolves.toMatchObject({
      kid: 'es-1',
      index: 0,
    });
    await expect(verifyAgentCard(rotated, { keys: nextJwks })).resolves.toMatchObject({
      kid: 'ed-2',
      index: 1,
    });
  });

  it('skips a revoked old key when the new one verifies', async () => {
    const keys = (await exportPublicJwks([es, next])).keys;
    const isRevoked = (kid: string): boolean => kid === 'es-1';
    await expect(verifyAgentCard(rotated, { keys, isRevoked })).resolves.toMatchObject({
      kid: 'ed-2',
    });
  });

  it('accepts a card whose first signature is broken if another one verifies (§8.4.3)', async () => {
    const broken = withChange(rotated, ['signatures', 0, 'signature'], 'AAAA');
    const keys = (await exportPublicJwks([es, next])).keys;
    await expect(verifyAgentCard(broken, { keys })).resolves.toMatchObject({ index: 1 });
  });

  it('reports every failure when none verifies', async () => {
    const err = await rejection(rotated, []);
    expect(err.failures.map((f) => [f.kid, f.code])).toEqual([
      ['es-1', 'UNKNOWN_KEY'],
      ['ed-2', 'UNKNOWN_KEY'],
    ]);
  });
});

describe('failing closed', () => {
  const forged = (header: object, signature = ''): JsonCard => ({
    ...fullCard(),
    signatures: [{ protected: base64url.encode(JSON.stringify(header)), signature }],
  });

  it('rejects an unsigned card unless signatures are optional', async () => {
    expect((await rejection(fullCard())).code).toBe('NO_SIGNATURES');
    expect((await rejection({ ...fullCard(), signatures: [] })).code).toBe('NO_SIGNATURES');
    await expect(verifyAgentCard(fullCard(), { keys: jwks, required: false })).resolves.toEqual({
      verified: false,
      reason: 'UNSIGNED',
    });
  });

  it('needs a key source', async () => {
    await expect(verifyAgentCard(signed, {})).rejects.toThrow(TypeError);
  });

  it('rejects alg none', async () => {
    const err = await rejection(forged({ alg: 'none', typ: 'JOSE', kid: 'es-1' }));
    expect(err.failures[0]!.code).toBe('UNSUPPORTED_ALGORITHM');
  });

  it('rejects HS256 even when the verifier holds a matching secret', async () => {
    const secret = new TextEncoder().encode('0123456789abcdef0123456789abcdef');
    const jws = await new FlattenedSign(agentCardSigningPayload(fullCard()))
      .setProtectedHeader({ alg: 'HS256', typ: 'JOSE', kid: 'h' })
      .sign(secret);
    const card = {
      ...fullCard(),
      signatures: [{ protected: jws.protected!, signature: jws.signature }],
    };
    const oct: JWK = { kty: 'oct', kid: 'h', k: base64url.encode(secret) };
    const err = await rejection(card, [oct]);
    expect(err.failures[0]!.code).toBe('UNSUPPORTED_ALGORITHM');
  });

  it('rejects a symmetric JWK offered for an asymmetric alg', async () => {
    const oct: JWK = { kty: 'oct', kid: 'es-1', k: 'AAAA' };
    expect((await rejection(signed, [oct])).failures[0]!.code).toBe('KEY_REJECTED');
  });

  it.each<[string, Partial<JWK> & Record<string, unknown>, string]>([
    ['use: enc', { use: 'enc' }, 'KEY_REJECTED'],
    ['key_ops without verify', { key_ops: ['encrypt'] }, 'KEY_REJECTED'],
    ['a different alg', { alg: 'ES384' }, 'KEY_REJECTED'],
    ['an expired exp', { exp: 1_000_000_000 }, 'KEY_REVOKED'],
    ['a future nbf', { nbf: 4_000_000_000 }, 'KEY_REVOKED'],
  ])('rejects a key with %s', async (_n, patch, code) => {
    const keys = [{ ...jwks[0]!, ...patch }];
    expect((await rejection(signed, keys)).failures[0]!.code).toBe(code);
  });

  it('honours exp against the given clock and key_ops that include verify', async () => {
    const keys = [{ ...jwks[0]!, exp: 2_000_000_000, key_ops: ['verify'] } as JWK];
    const now = new Date(1_900_000_000_000);
    await expect(verifyAgentCard(signed, { keys, now })).resolves.toMatchObject({ verified: true });
  });

  it('rejects a revoked key', async () => {
    const err = await verifyAgentCard(signed, { keys: jwks, isRevoked: () => true }).catch(
      (e: unknown) => e,
    );
    expect((err as CardSignatureError).failures[0]!.code).toBe('KEY_REVOKED');
  });

  it.each<[string, object]>([
    ['no kid', { alg: 'ES256', typ: 'JOSE' }],
    ['no typ', { alg: 'ES256', kid: 'es-1' }],
    ['typ JWT', { alg: 'ES256', kid: 'es-1', typ: 'JWT' }],
    ['b64 false', { alg: 'ES256', kid: 'es-1', typ: 'JOSE', b64: false, crit: ['b64'] }],
  ])('rejects a protected header with %s', async (_n, header) => {
    expect((await rejection(forged(header, 'AAAA'))).failures[0]!.code).toBe('MALFORMED_SIGNATURE');
  });

  it('rejects garbage signature entries', async () => {
    for (const entry of [null, 'x', { protected: '!!', signature: 'x' }, { protected: 'e30' }]) {
      const err = await rejection({ ...fullCard(), signatures: [entry] });
      expect(err.failures[0]!.code).toBe('MALFORMED_SIGNATURE');
    }
  });

  it('takes kid only from the protected header (an unprotected kid cannot redirect it)', async () => {
    const card = withChange(signed, ['signatures', 0, 'header'], { kid: 'attacker' });
    expect((await rejection(card)).failures[0]!.code).toBe('BAD_SIGNATURE');
  });

  it('restricts algorithms when asked', async () => {
    const err = await verifyAgentCard(signed, { keys: jwks, algorithms: ['EdDSA'] }).catch(
      (e: unknown) => e,
    );
    expect((err as CardSignatureError).failures[0]!.code).toBe('UNSUPPORTED_ALGORITHM');
  });

  it('reports a throwing key resolver as an unknown key', async () => {
    const keys = (): never => {
      throw new Error('store offline');
    };
    const err = await verifyAgentCard(signed, { keys }).catch((e: unknown) => e);
    expect((err as CardSignatureError).failures[0]).toMatchObject({ code: 'UNKNOWN_KEY' });
  });

  it('accepts a key resolver returning a CryptoKey', async () => {
    const keys = (kid: string) => (kid === 'es-1' ? es.publicKey : undefined);
    await expect(verifyAgentCard(signed, { keys })).resolves.toMatchObject({ verified: true });
  });
});
