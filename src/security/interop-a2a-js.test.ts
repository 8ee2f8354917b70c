/**
 * Card signatures across SDKs: @a2a-js/sdk 1.3.0 (devDependency) against ours. Ordinary cards
 * verify both ways; the `documents that @a2a-js/sdk …` tests pin down where that SDK departs from
 * spec §8.4 (see docs/interop.md), asserting its actual behaviour so a fix upstream shows up here.
 */
import {
  AgentCard as A2aJsCard,
  canonicalizeAgentCard as theirCanonical,
  generateAgentCardSignature,
  verifyAgentCardSignature,
} from '@a2a-js/sdk';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fullCard,
  overTheWire,
  REMOVE,
  signingFixture,
  withChange,
  type JsonCard,
} from '../../test/fixtures/signing/cards.js';
import { canonicalizeAgentCard } from './card-canonical.js';
import { signAgentCard, verifyAgentCard } from './card-signing.js';
import {
  exportPublicJwks,
  generateSigningKey,
  type CardSigningAlgorithm,
  type SigningKey,
} from './signing-keys.js';

/** The full card without the values where the two SDKs disagree (tested separately below). */
function ordinaryCard(): JsonCard {
  let card = fullCard();
  card = withChange(card, ['capabilities', 'extensions', 0, 'params'], {
    precision: 1e-6,
    units: 'km',
  });
  card = withChange(card, ['securitySchemes', 'mtls'], REMOVE);
  card = withChange(
    card,
    [
      'securitySchemes',
      'oauth',
      'oauth2SecurityScheme',
      'flows',
      'authorizationCode',
      'scopes',
      'routes:write',
    ],
    'Write routes',
  );
  return withChange(
    card,
    ['securityRequirements'],
    [
      { schemes: { bearer: { list: ['routes:read'] } } },
      { schemes: { oauth: { list: ['routes:read'] }, apiKey: { list: ['any'] } } },
    ],
  );
}

/** Their functions are typed for ts-proto objects, but (except where noted) read spec JSON. */
const asTheirs = (card: object): A2aJsCard => card as unknown as A2aJsCard;

/** Signs with @a2a-js/sdk; their API is typed for ts-proto objects but reads spec JSON. */
async function theirSign(card: object, key: SigningKey, jku?: string): Promise<JsonCard> {
  const header = { alg: key.alg, kid: key.kid, typ: 'JOSE', ...(jku ? { jku } : {}) };
  const signed = await generateAgentCardSignature(key.key, header)(asTheirs(card));
  return overTheWire(signed);
}

/** Verifies with @a2a-js/sdk against `keys`; resolves to 'accepted' or 'rejected'. */
async function theirVerdict(card: object, keys: readonly SigningKey[]): Promise<string> {
  const verify = verifyAgentCardSignature(async (kid) => {
    const key = keys.find((k) => k.kid === kid);
    if (!key) throw new Error(`unknown kid ${kid}`);
    return key.publicKey;
  });
  return verify(asTheirs(card)).then(
    () => 'accepted',
    () => 'rejected',
  );
}

async function ourVerdict(card: JsonCard, keys: readonly SigningKey[]): Promise<string> {
  const { keys: jwks } = await exportPublicJwks(keys);
  return verifyAgentCard(card, { keys: jwks }).then(
    () => 'accepted',
    () => 'rejected',
  );
}

let es: SigningKey;
beforeAll(async () => {
  es = await generateSigningKey('ES256', { kid: 'es' });
});
beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => undefined); // their verifier logs each failure
});

describe('interop with @a2a-js/sdk 1.3.0', () => {
  it('canonicalizes an ordinary card to the same bytes', () => {
    expect(canonicalizeAgentCard(ordinaryCard())).toBe(theirCanonical(asTheirs(ordinaryCard())));
  });

  it.each<CardSigningAlgorithm>(['ES256', 'RS256', 'PS256', 'EdDSA'])(
    'verifies in a2a-kit a card signed by @a2a-js/sdk (%s)',
    async (alg) => {
      const key = await generateSigningKey(alg, { kid: `their-${alg}` });
      const card = await theirSign(ordinaryCard(), key);
      const { keys } = await exportPublicJwks([key]);
      await expect(verifyAgentCard(card, { keys })).resolves.toMatchObject({ kid: key.kid, alg });
    },
  );

  it.each<CardSigningAlgorithm>(['ES256', 'RS256', 'PS256', 'EdDSA'])(
    'verifies in @a2a-js/sdk a card signed by a2a-kit (%s)',
    async (alg) => {
      const key = await generateSigningKey(alg, { kid: `our-${alg}` });
      const card = overTheWire(await signAgentCard(ordinaryCard(), key));
      expect(await theirVerdict(card, [key])).toBe('accepted');
    },
  );

  it('passes our jku to their key lookup, and verifies a card signed by both SDKs', async () => {
    const next = await generateSigningKey('EdDSA', { kid: 'next' });
    const lookups: (string | undefined)[] = [];
    const jku = 'https://agent.example.com/jwks.json';
    const both = overTheWire(
      await signAgentCard(await theirSign(ordinaryCard(), es), { ...next, jku }),
    );
    const verify = verifyAgentCardSignature(async (kid, seenJku) => {
      lookups.push(seenJku);
      if (kid !== 'next') throw new Error('retired');
      return next.publicKey;
    });
    await expect(verify(asTheirs(both))).resolves.toBeUndefined();
    expect(lookups).toEqual([undefined, jku]);
    const { keys } = await exportPublicJwks([next]);
    await expect(verifyAgentCard(both, { keys })).resolves.toMatchObject({ kid: 'next', index: 1 });
  });

  it('rejects in both SDKs a changed name', async () => {
    const card = withChange(await theirSign(ordinaryCard(), es), ['name'], 'Evil');
    expect([await theirVerdict(card, [es]), await ourVerdict(card, [es])]).toEqual([
      'rejected',
      'rejected',
    ]);
  });
});

describe('where @a2a-js/sdk 1.3.0 departs from spec §8.4', () => {
  it('documents that @a2a-js/sdk drops REQUIRED fields at their default, so it does not reproduce the §8.4.1 example', () => {
    const example = signingFixture<{ input: JsonCard; canonical: string }>(
      'spec-8.4.1-default-removal.json',
    );
    expect(canonicalizeAgentCard(example.input)).toBe(example.canonical);
    expect(theirCanonical(asTheirs(example.input))).toBe(
      '{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}',
    );
  });

  it('documents that @a2a-js/sdk leaves an appended anonymous security requirement ({}) unsigned', async () => {
    const signed = await theirSign(ordinaryCard(), es);
    const requirements = signed['securityRequirements'] as unknown[];
    const tampered = withChange(signed, ['securityRequirements', requirements.length], {});
    expect(await theirVerdict(tampered, [es])).toBe('accepted');
    expect(await ourVerdict(tampered, [es])).toBe('rejected');
  });

  it('documents that @a2a-js/sdk leaves fields outside the 1.0 schema unsigned (e.g. a 0.3 "url")', async () => {
    const tampered = { ...(await theirSign(ordinaryCard(), es)), url: 'https://evil.example/a2a' };
    expect(await theirVerdict(tampered, [es])).toBe('accepted');
    expect(await ourVerdict(tampered, [es])).toBe('rejected');
  });

  it('documents that @a2a-js/sdk strips empty values inside Struct params, maps and messages, so such cards do not verify across SDKs', async () => {
    // params keeps "" (Struct contents are data), the mTLS scheme is a set (empty) message, a
    // scope may have an empty description: all part of the card per ProtoJSON, all dropped by them.
    const card = fullCard();
    expect(theirCanonical(asTheirs(card))).not.toContain('"units":""');
    expect(theirCanonical(asTheirs(card))).not.toContain('mtlsSecurityScheme');
    expect(canonicalizeAgentCard(card)).toContain('"mtls":{"mtlsSecurityScheme":{}}');
    expect(await ourVerdict(await theirSign(card, es), [es])).toBe('rejected');
    expect(await theirVerdict(overTheWire(await signAgentCard(card, es)), [es])).toBe('rejected');
    // …and removing the mTLS scheme after they signed goes unnoticed by their verifier.
    const noMtls = withChange(await theirSign(card, es), ['securitySchemes', 'mtls'], REMOVE);
    expect(await theirVerdict(noMtls, [es])).toBe('accepted');
  });

  it('documents that @a2a-js/sdk signs nothing of securitySchemes when given an AgentCard object (a2a-js#663)', async () => {
    // DefaultRequestHandler holds the card as such an object and signs it that way.
    const internal = A2aJsCard.fromJSON(ordinaryCard());
    const signed = await generateAgentCardSignature(es.key, {
      alg: 'ES256',
      kid: 'es',
      typ: 'JOSE',
    })(internal);
    const oauth = signed.securitySchemes['oauth']?.scheme;
    if (
      oauth?.$case !== 'oauth2SecurityScheme' ||
      oauth.value.flows?.flow?.$case !== 'authorizationCode'
    ) {
      throw new Error('unexpected shape');
    }
    oauth.value.flows.flow.value.tokenUrl = 'https://evil.example/token';
    expect(await theirVerdict(signed, [es])).toBe('accepted');
  });

  it('documents that @a2a-js/sdk cannot verify a correctly signed card with securitySchemes once its DefaultAgentCardResolver normalized it', async () => {
    const resolver = new DefaultAgentCardResolver();
    for (const signed of [
      await theirSign(ordinaryCard(), es),
      overTheWire(await signAgentCard(ordinaryCard(), es)),
    ]) {
      expect(await theirVerdict(signed, [es])).toBe('accepted');
      expect(await theirVerdict(resolver.normalizeAgentCard(signed), [es])).toBe('rejected');
    }
    // Without securitySchemes the resolver leaves the JSON alone and verification works.
    const plain = withChange(ordinaryCard(), ['securitySchemes'], REMOVE);
    const signedPlain = await theirSign(withChange(plain, ['securityRequirements'], REMOVE), es);
    expect(await theirVerdict(resolver.normalizeAgentCard(signedPlain), [es])).toBe('accepted');
  });
});
