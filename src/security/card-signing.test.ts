import { base64url, flattenedVerify, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  fullCard,
  getPath,
  overTheWire,
  REMOVE,
  reorderedAndIndented,
  signingFixture,
  withChange,
  type JsonCard,
  type JsonPath,
} from '../../test/fixtures/signing/cards.js';
import { agentCardSigningPayload } from './card-canonical.js';
import type { AgentCardSignature } from '../core/schemas/agent-card.js';
import { signAgentCard, verifyAgentCard } from './card-signing.js';
import { CardSignatureError } from './signature-error.js';
import {
  exportPublicJwks,
  generateSigningKey,
  type CardSigningAlgorithm,
  type SigningKey,
} from './signing-keys.js';

let es: SigningKey;
let jwks: JWK[];
let signed: JsonCard;

beforeAll(async () => {
  es = await generateSigningKey('ES256', { kid: 'es-1' });
  jwks = (await exportPublicJwks([es])).keys;
  signed = overTheWire(await signAgentCard(fullCard(), es));
});

const decodeHeader = (sig: AgentCardSignature): unknown =>
  JSON.parse(new TextDecoder().decode(base64url.decode(sig.protected)));
const signaturesOf = (card: JsonCard): AgentCardSignature[] =>
  card['signatures'] as AgentCardSignature[];

async function rejection(card: JsonCard, keys: JWK[] = jwks): Promise<CardSignatureError> {
  const err = await verifyAgentCard(card, { keys }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CardSignatureError);
  return err as CardSignatureError;
}

describe('sign → verify round trip', () => {
  it.each<CardSigningAlgorithm>(['ES256', 'RS256', 'EdDSA', 'PS256', 'ES384', 'Ed25519'])(
    'verifies a card signed with %s after it went over the wire',
    async (alg) => {
      const key = await generateSigningKey(alg);
      const card = overTheWire(await signAgentCard(fullCard(), key));
      const { keys } = await exportPublicJwks([key]);
      await expect(verifyAgentCard(card, { keys })).resolves.toEqual({
        verified: true,
        kid: key.kid,
        alg,
        index: 0,
      });
    },
  );

  it('writes a detached JWS: protected header {alg, typ: JOSE, kid, jku}, no payload', async () => {
    const card = await signAgentCard(fullCard(), { ...es, jku: 'https://a.example/jwks.json' });
    const [sig] = card.signatures;
    expect(Object.keys(sig!)).toEqual(['protected', 'signature']);
    expect(decodeHeader(sig!)).toEqual({
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'es-1',
      jku: 'https://a.example/jwks.json',
    });
  });

  it('encodes the protected header exactly like the §8.4.2 example', async () => {
    const example = signingFixture<{ protected: string }>('spec-8.4.2-protected-header.json');
    const key = await generateSigningKey('ES256', { kid: 'key-1' });
    const card = await signAgentCard(fullCard(), {
      ...key,
      jku: 'https://example.com/agent/jwks.json',
    });
    expect(card.signatures[0]!.protected).toBe(example.protected);
  });

  it('signs base64url(canonical payload), verifiable as a plain flattened JWS', async () => {
    const sig = signaturesOf(signed)[0]!;
    const payload = agentCardSigningPayload(signed);
    const { payload: out } = await flattenedVerify(
      { protected: sig.protected, signature: sig.signature, payload: base64url.encode(payload) },
      es.publicKey,
    );
    expect(new TextDecoder().decode(out)).toBe(new TextDecoder().decode(payload));
  });

  it('carries an unprotected header, which is not covered by the signature', async () => {
    const card = overTheWire(await signAgentCard(fullCard(), { ...es, header: { note: 'x' } }));
    expect(signaturesOf(card)[0]!.header).toEqual({ note: 'x' });
    const changed = withChange(card, ['signatures', 0, 'header', 'note'], 'y');
    await expect(verifyAgentCard(changed, { keys: jwks })).resolves.toMatchObject({
      verified: true,
    });
  });

  it('appends to existing signatures and leaves the input card alone', async () => {
    const other = await generateSigningKey('ES256', { kid: 'es-2' });
    const twice = await signAgentCard(signed, other);
    expect(twice.signatures).toHaveLength(2);
    expect(signaturesOf(signed)).toHaveLength(1);
    expect(twice.signatures[0]).toEqual(signaturesOf(signed)[0]);
  });

  it('refuses to sign with alg none, an HMAC alg, or without a kid', async () => {
    const key = es.key;
    await expect(
      signAgentCard(fullCard(), { key, kid: 'k', alg: 'none' as 'ES256' }),
    ).rejects.toThrow(/unsupported/);
    await expect(
      signAgentCard(fullCard(), { key, kid: 'k', alg: 'HS256' as 'ES256' }),
    ).rejects.toThrow(/unsupported/);
    await expect(signAgentCard(fullCard(), { key, kid: '' })).rejects.toThrow(/kid/);
  });
});

describe('tampering with any field breaks the signature', () => {
  const card = fullCard();
  const cases: [string, JsonPath, unknown][] = [
    ['name', ['name'], 'Evil Planner'],
    ['description', ['description'], 'Plans routes.'],
    ['version', ['version'], '2.1.1'],
    ['interface url', ['supportedInterfaces', 0, 'url'], 'https://evil.example/a2a/v1'],
    ['interface binding', ['supportedInterfaces', 1, 'protocolBinding'], 'JSONRPC'],
    ['interface version', ['supportedInterfaces', 0, 'protocolVersion'], '0.3'],
    ['interface tenant', ['supportedInterfaces', 0, 'tenant'], 'other'],
    ['interface tenant removed', ['supportedInterfaces', 0, 'tenant'], REMOVE],
    [
      'interface added',
      ['supportedInterfaces', 2],
      { url: 'https://e', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ],
    [
      'interface order',
      ['supportedInterfaces'],
      [...(card['supportedInterfaces'] as unknown[])].reverse(),
    ],
    ['provider organization', ['provider', 'organization'], 'Evil Corp'],
    ['provider url', ['provider', 'url'], 'https://evil.example'],
    ['provider removed', ['provider'], REMOVE],
    ['capabilities.streaming', ['capabilities', 'streaming'], false],
    ['capabilities.pushNotifications', ['capabilities', 'pushNotifications'], true],
    ['capabilities.pushNotifications removed', ['capabilities', 'pushNotifications'], REMOVE],
    ['capabilities.extendedAgentCard', ['capabilities', 'extendedAgentCard'], false],
    ['extension required', ['capabilities', 'extensions', 0, 'required'], false],
    ['extension params (Struct)', ['capabilities', 'extensions', 0, 'params', 'units'], 'km'],
    [
      'extension params empty value removed',
      ['capabilities', 'extensions', 0, 'params', 'empty'],
      REMOVE,
    ],
    [
      'securitySchemes bearer scheme',
      ['securitySchemes', 'bearer', 'httpAuthSecurityScheme', 'scheme'],
      'Basic',
    ],
    [
      'securitySchemes api key location',
      ['securitySchemes', 'apiKey', 'apiKeySecurityScheme', 'location'],
      'query',
    ],
    [
      'securitySchemes oauth token URL',
      [
        'securitySchemes',
        'oauth',
        'oauth2SecurityScheme',
        'flows',
        'authorizationCode',
        'tokenUrl',
      ],
      'https://evil.example/token',
    ],
    ['securitySchemes empty mtls scheme removed', ['securitySchemes', 'mtls'], REMOVE],
    ['securityRequirements: anonymous {} added', ['securityRequirements', 2], {}],
    [
      'securityRequirements: scope list emptied',
      ['securityRequirements', 1, 'schemes', 'oauth', 'list'],
      [],
    ],
    ['securityRequirements removed', ['securityRequirements'], REMOVE],
    ['skill name', ['skills', 0, 'name'], 'Plan'],
    ['skill tags', ['skills', 0, 'tags'], ['routing']],
    ['skill examples', ['skills', 0, 'examples', 0], 'From Lyon to Paris'],
    ['skill security requirement', ['skills', 0, 'securityRequirements'], REMOVE],
    ['skill removed', ['skills', 1], REMOVE],
    ['defaultInputModes', ['defaultInputModes'], ['text/plain']],
    ['defaultOutputModes', ['defaultOutputModes'], ['application/json', 'text/html']],
    ['documentationUrl', ['documentationUrl'], 'https://evil.example/docs'],
    ['documentationUrl removed', ['documentationUrl'], REMOVE],
    ['iconUrl', ['iconUrl'], 'https://evil.example/icon.png'],
    ['unknown member added (0.3 url)', ['url'], 'https://evil.example/a2a'],
  ];

  it.each(cases)('rejects a changed %s', async (_name, path, value) => {
    const tampered = withChange(signed, path, value);
    expect(getPath(tampered, path)).not.toEqual(getPath(signed, path));
    const err = await rejection(tampered);
    expect(err.code).toBe('NO_VALID_SIGNATURE');
    expect(err.failures).toEqual([
      expect.objectContaining({ index: 0, kid: 'es-1', code: 'BAD_SIGNATURE' }),
    ]);
  });

  it('rejects a signature moved onto another card', async () => {
    const other = withChange(fullCard(), ['name'], 'Other');
    await rejection({ ...other, signatures: signaturesOf(signed) });
  });
});

describe('presence rules on the received card', () => {
  const minimal = (): JsonCard => withChange(fullCard(), ['capabilities'], { extensions: [] });

  it('rejects an explicitly set optional field that was unset when signed (streaming: false)', async () => {
    const card = overTheWire(await signAgentCard(minimal(), es));
    await rejection(withChange(card, ['capabilities', 'streaming'], false));
  });

  it('rejects removing an optional field that was signed at its default (documentationUrl "")', async () => {
    const card = overTheWire(
      await signAgentCard(withChange(fullCard(), ['documentationUrl'], ''), es),
    );
    await rejection(withChange(card, ['documentationUrl'], REMOVE));
  });

  it.each<[string, JsonPath, unknown]>([
    ['skill examples: []', ['skills', 1, 'examples'], []],
    ['interface tenant: ""', ['supportedInterfaces', 1, 'tenant'], ''],
    ['extension description: ""', ['capabilities', 'extensions', 0, 'description'], ''],
    [
      'oauth refreshUrl: ""',
      [
        'securitySchemes',
        'oauth',
        'oauth2SecurityScheme',
        'flows',
        'authorizationCode',
        'refreshUrl',
      ],
      '',
    ],
    ['provider: null', ['provider'], null],
    ['capabilities.extensions: [] (when absent)', ['capabilities', 'extensions'], []],
  ])(
    'accepts a default-valued non-optional field added in transit: %s',
    async (_n, path, value) => {
      // Signed without the field, received with it at its default.
      const card = overTheWire(await signAgentCard(withChange(fullCard(), path, REMOVE), es));
      await expect(
        verifyAgentCard(withChange(card, path, value), { keys: jwks }),
      ).resolves.toMatchObject({
        verified: true,
      });
    },
  );

  it('rejects a REQUIRED field added in transit even when empty (skill tags: [])', async () => {
    const card = overTheWire(
      await signAgentCard(withChange(fullCard(), ['skills', 1, 'tags'], REMOVE), es),
    );
    await rejection(withChange(card, ['skills', 1, 'tags'], []));
  });

  it('does not care about member order or whitespace in the received JSON', async () => {
    await expect(
      verifyAgentCard(reorderedAndIndented(signed), { keys: jwks }),
    ).resolves.toMatchObject({
      verified: true,
    });
  });
});
