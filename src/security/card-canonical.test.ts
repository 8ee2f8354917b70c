import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentCard } from '../core/schemas/agent-card.js';
import {
  AGENT_CARD_FIELDS,
  agentCardSigningObject,
  agentCardSigningPayload,
  canonicalizeAgentCard,
} from './card-canonical.js';
import { JcsError } from './jcs.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/signing/${name}`, import.meta.url), 'utf8'));

interface SpecExample {
  input: Record<string, unknown>;
  canonical: string;
}

const base = {
  name: 'A',
  description: 'd',
  version: '1',
  supportedInterfaces: [
    { url: 'https://a.example', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'sd', tags: ['t'] }],
};
type Card = Record<string, unknown>;
const canon = (patch: Card): Record<string, unknown> =>
  agentCardSigningObject({ ...base, ...patch });

describe('the §8.4.1 example of default value removal', () => {
  it('reproduces the canonical text given in the spec', () => {
    const { input, canonical } = fixture('spec-8.4.1-default-removal.json') as SpecExample;
    expect(canonicalizeAgentCard(input)).toBe(canonical);
    expect(new TextDecoder().decode(agentCardSigningPayload(input))).toBe(canonical);
  });
});

describe('presence rules', () => {
  it.each<[string, Card, Card]>([
    ['documentationUrl ""', { documentationUrl: '' }, { documentationUrl: '' }],
    ['iconUrl ""', { iconUrl: '' }, { iconUrl: '' }],
    [
      'capabilities flags at false',
      { capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false } },
      { capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false } },
    ],
  ])('keeps the explicitly set optional field %s', (_name, patch, expected) => {
    expect(canon(patch)).toMatchObject(expected);
  });

  it.each<[string, Card]>([
    ['name ""', { name: '' }],
    ['description ""', { description: '' }],
    ['version ""', { version: '' }],
    ['skills []', { skills: [] }],
    ['supportedInterfaces []', { supportedInterfaces: [] }],
    ['defaultInputModes []', { defaultInputModes: [] }],
    ['capabilities {}', { capabilities: {} }],
    ['skill tags []', { skills: [{ id: '', name: '', description: '', tags: [] }] }],
    [
      'interface url ""',
      { supportedInterfaces: [{ url: '', protocolBinding: '', protocolVersion: '' }] },
    ],
    ['provider fields ""', { provider: { url: '', organization: '' } }],
    [
      'oauth scopes {}',
      {
        securitySchemes: {
          o: {
            oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 't', scopes: {} } } },
          },
        },
      },
    ],
  ])('keeps the REQUIRED field %s at its default', (_name, patch) => {
    expect(canon(patch)).toMatchObject(patch);
  });

  it.each<[string, Card, Card]>([
    [
      'interface tenant ""',
      {
        supportedInterfaces: [
          { url: 'u', protocolBinding: 'b', protocolVersion: '1.0', tenant: '' },
        ],
      },
      { supportedInterfaces: [{ url: 'u', protocolBinding: 'b', protocolVersion: '1.0' }] },
    ],
    ['empty securitySchemes', { securitySchemes: {} }, {}],
    ['empty securityRequirements', { securityRequirements: [] }, {}],
    [
      'capabilities.extensions []',
      { capabilities: { streaming: true, extensions: [] } },
      { capabilities: { streaming: true } },
    ],
    [
      'extension defaults',
      { capabilities: { extensions: [{ uri: 'x', description: '', required: false }] } },
      { capabilities: { extensions: [{ uri: 'x' }] } },
    ],
    [
      'skill examples/inputModes/outputModes/securityRequirements []',
      {
        skills: [
          {
            ...base.skills[0],
            examples: [],
            inputModes: [],
            outputModes: [],
            securityRequirements: [],
          },
        ],
      },
      { skills: base.skills },
    ],
    [
      'oauth refreshUrl "" and pkceRequired false',
      {
        securitySchemes: {
          o: {
            oauth2SecurityScheme: {
              description: '',
              oauth2MetadataUrl: '',
              flows: {
                authorizationCode: {
                  authorizationUrl: 'a',
                  tokenUrl: 't',
                  refreshUrl: '',
                  scopes: { s: '' },
                  pkceRequired: false,
                },
              },
            },
          },
        },
      },
      {
        securitySchemes: {
          o: {
            oauth2SecurityScheme: {
              flows: {
                authorizationCode: { authorizationUrl: 'a', tokenUrl: 't', scopes: { s: '' } },
              },
            },
          },
        },
      },
    ],
    [
      'an empty scope list',
      { securityRequirements: [{ schemes: { b: { list: [] } } }] },
      { securityRequirements: [{ schemes: { b: {} } }] },
    ],
    ['null (ProtoJSON "unset")', { provider: null, documentationUrl: null, iconUrl: null }, {}],
  ])('drops the default-valued field: %s', (_name, patch, expected) => {
    expect(canon(patch)).toEqual({ ...base, ...expected });
  });

  it('keeps present message-typed fields even when empty, and never drops array elements', () => {
    const patch = {
      provider: {},
      securitySchemes: { m: { mtlsSecurityScheme: {} } },
      securityRequirements: [{}],
      defaultInputModes: ['', 'text/plain'],
      capabilities: { extensions: [{ params: {} }] },
    };
    expect(canon(patch)).toEqual({ ...base, ...patch });
  });

  it('never alters Struct contents (metadata-like `params`)', () => {
    const params = { a: '', b: [], c: {}, d: null, e: false, f: 0, snake_case: { x_y: '' } };
    const out = canon({ capabilities: { extensions: [{ uri: 'u', params }] } });
    expect(out['capabilities']).toEqual({ extensions: [{ uri: 'u', params }] });
  });

  it('renames known snake_case fields to their JSON names, at every level', () => {
    const out = canon({
      documentation_url: 'https://d',
      capabilities: { push_notifications: false },
      supportedInterfaces: undefined,
      supported_interfaces: [{ url: 'u', protocol_binding: 'GRPC', protocol_version: '1.0' }],
    });
    expect(out).toMatchObject({
      documentationUrl: 'https://d',
      capabilities: { pushNotifications: false },
      supportedInterfaces: [{ url: 'u', protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    });
    expect(Object.keys(out)).not.toContain('documentation_url');
  });

  it('refuses a field given under both spellings', () => {
    expect(() => canon({ iconUrl: 'a', icon_url: 'b' })).toThrow(JcsError);
  });

  it('keeps unknown fields verbatim so the signature covers them', () => {
    const out = canon({ url: 'https://legacy', extra: { e: '', f: [] }, blank: '' });
    expect(out).toMatchObject({ url: 'https://legacy', extra: { e: '', f: [] }, blank: '' });
  });

  it('removes top-level signatures only, and does not modify its input', () => {
    const card = { ...base, signatures: [{ protected: 'p', signature: 's' }] };
    const copy = structuredClone(card);
    expect(agentCardSigningObject(card)).toEqual(base);
    expect(card).toEqual(copy);
  });

  it('does not depend on member order or whitespace in the received JSON', () => {
    const card = fixture('full-card.json') as Card;
    const reordered = JSON.parse(JSON.stringify(reverseKeys(card), null, 4)) as Card;
    expect(canonicalizeAgentCard(reordered)).toBe(canonicalizeAgentCard(card));
  });

  it('rejects what is not a JSON object or has no JSON form', () => {
    expect(() => canonicalizeAgentCard([])).toThrow(JcsError);
    expect(() => canonicalizeAgentCard({ ...base, name: Number.NaN })).toThrow(JcsError);
  });
});

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reverseKeys(x)]),
  );
}

describe('AGENT_CARD_FIELDS', () => {
  /** The object schema under optional/array/record/preprocess wrappers, if any. */
  function objectOf(schema: z.ZodType): z.ZodObject | undefined {
    if (schema instanceof z.ZodOptional) return objectOf(schema.unwrap() as z.ZodType);
    if (schema instanceof z.ZodArray) return objectOf(schema.element as z.ZodType);
    if (schema instanceof z.ZodRecord) return objectOf(schema.valueType as z.ZodType);
    if (schema instanceof z.ZodPipe) return objectOf(schema.out as z.ZodType);
    return schema instanceof z.ZodObject ? schema : undefined;
  }

  it('lists the same fields, with the same REQUIRED marks, as the zod schemas', () => {
    const seen = new Set<string>();
    const walk = (message: keyof typeof AGENT_CARD_FIELDS, schema: z.ZodObject): void => {
      if (seen.has(message)) return;
      seen.add(message);
      const table: Record<string, string> = AGENT_CARD_FIELDS[message];
      expect(Object.keys(schema.shape).sort(), message).toEqual(Object.keys(table).sort());
      for (const [field, decl] of Object.entries(table)) {
        const fieldSchema = schema.shape[field] as z.ZodType;
        const required = !(fieldSchema instanceof z.ZodOptional);
        expect(required, `${message}.${field}`).toBe(decl.endsWith('!'));
        const name = decl.replace(/[[\]{}!?]/g, '');
        const inner = objectOf(fieldSchema);
        if (name in AGENT_CARD_FIELDS && inner) walk(name as keyof typeof AGENT_CARD_FIELDS, inner);
      }
    };
    walk('AgentCard', objectOf(AgentCard)!);
    expect([...seen].sort()).toEqual(Object.keys(AGENT_CARD_FIELDS).sort());
  });
});
