/**
 * The A2A §8.4.1 signing payload of an AgentCard: the card's JSON with the §5.7 presence rules
 * applied, without top-level `signatures`, in RFC 8785 canonical form. Signer and verifier both
 * call this, on the JSON they hold, so they agree byte for byte.
 *
 * Presence is read from the JSON itself (a present key = a set field; spec §8.4.1 with §5.7,
 * the "served scope" reading discussed in a2aproject/A2A#2122):
 * - REQUIRED fields that are present are kept, even as `""`, `[]` or `{}`;
 * - proto3 `optional` fields that are present are kept, even at a default (`false`, `""`);
 * - every other field is dropped when it holds its default: `""`, `0`, `false`, `[]`, `{}` (map);
 * - `null` means "unset" in ProtoJSON and is dropped everywhere outside Struct values;
 * - present message-typed fields are kept (a set message is emitted even when empty, e.g.
 *   `{"mtlsSecurityScheme": {}}`) and processed recursively; array elements are never dropped;
 * - Struct values (`metadata`, `params`, `header`) are kept exactly as received;
 * - known fields given in snake_case are renamed to their JSON (camelCase) names;
 * - unknown fields are kept exactly as received, so a valid signature covers every byte a
 *   client might read (proto-based SDKs drop them instead; see the interop notes).
 */
import { canonicalize, JcsError } from './jcs.js';

/**
 * Every message reachable from AgentCard, field by field, as declared in the v1.0.1
 * `a2a.proto` (proto/a2a.proto in this repository; the zod schemas in src/core/schemas/agent-card.ts mirror it, and a
 * test keeps the two in step). Notation:
 * - suffix `!`: `field_behavior = REQUIRED`; suffix `?`: proto3 `optional` (explicit presence);
 *   no suffix: implicit presence;
 * - `string`, `bool`: scalars; `struct`: google.protobuf.Struct; `[T]`: repeated T;
 *   `{T}`: map<string, T>; any other name: that message.
 */
export const AGENT_CARD_FIELDS = {
  AgentCard: {
    name: 'string!',
    description: 'string!',
    supportedInterfaces: '[AgentInterface]!',
    provider: 'AgentProvider',
    version: 'string!',
    documentationUrl: 'string?',
    capabilities: 'AgentCapabilities!',
    securitySchemes: '{SecurityScheme}',
    securityRequirements: '[SecurityRequirement]',
    defaultInputModes: '[string]!',
    defaultOutputModes: '[string]!',
    skills: '[AgentSkill]!',
    signatures: '[AgentCardSignature]',
    iconUrl: 'string?',
  },
  AgentInterface: {
    url: 'string!',
    protocolBinding: 'string!',
    tenant: 'string',
    protocolVersion: 'string!',
  },
  AgentProvider: { url: 'string!', organization: 'string!' },
  AgentCapabilities: {
    streaming: 'bool?',
    pushNotifications: 'bool?',
    extensions: '[AgentExtension]',
    extendedAgentCard: 'bool?',
  },
  AgentExtension: { uri: 'string', description: 'string', required: 'bool', params: 'struct' },
  AgentSkill: {
    id: 'string!',
    name: 'string!',
    description: 'string!',
    tags: '[string]!',
    examples: '[string]',
    inputModes: '[string]',
    outputModes: '[string]',
    securityRequirements: '[SecurityRequirement]',
  },
  AgentCardSignature: { protected: 'string!', signature: 'string!', header: 'struct' },
  SecurityRequirement: { schemes: '{StringList}' },
  StringList: { list: '[string]' },
  // oneof `scheme`: each member is a message field, so a present member is kept even when empty.
  SecurityScheme: {
    apiKeySecurityScheme: 'APIKeySecurityScheme',
    httpAuthSecurityScheme: 'HTTPAuthSecurityScheme',
    oauth2SecurityScheme: 'OAuth2SecurityScheme',
    openIdConnectSecurityScheme: 'OpenIdConnectSecurityScheme',
    mtlsSecurityScheme: 'MutualTlsSecurityScheme',
  },
  APIKeySecurityScheme: { description: 'string', location: 'string!', name: 'string!' },
  HTTPAuthSecurityScheme: { description: 'string', scheme: 'string!', bearerFormat: 'string' },
  OAuth2SecurityScheme: {
    description: 'string',
    flows: 'OAuthFlows!',
    oauth2MetadataUrl: 'string',
  },
  OpenIdConnectSecurityScheme: { description: 'string', openIdConnectUrl: 'string!' },
  MutualTlsSecurityScheme: { description: 'string' },
  // oneof `flow`.
  OAuthFlows: {
    authorizationCode: 'AuthorizationCodeOAuthFlow',
    clientCredentials: 'ClientCredentialsOAuthFlow',
    implicit: 'ImplicitOAuthFlow',
    password: 'PasswordOAuthFlow',
    deviceCode: 'DeviceCodeOAuthFlow',
  },
  AuthorizationCodeOAuthFlow: {
    authorizationUrl: 'string!',
    tokenUrl: 'string!',
    refreshUrl: 'string',
    scopes: '{string}!',
    pkceRequired: 'bool',
  },
  ClientCredentialsOAuthFlow: { tokenUrl: 'string!', refreshUrl: 'string', scopes: '{string}!' },
  DeviceCodeOAuthFlow: {
    deviceAuthorizationUrl: 'string!',
    tokenUrl: 'string!',
    refreshUrl: 'string',
    scopes: '{string}!',
  },
  ImplicitOAuthFlow: { authorizationUrl: 'string', refreshUrl: 'string', scopes: '{string}' },
  PasswordOAuthFlow: { tokenUrl: 'string', refreshUrl: 'string', scopes: '{string}' },
} as const satisfies Record<string, Record<string, string>>;

type MessageName = keyof typeof AGENT_CARD_FIELDS;
type ValueType =
  | { kind: 'scalar' }
  | { kind: 'struct' }
  | { kind: 'message'; name: MessageName }
  | { kind: 'repeated'; of: ValueType }
  | { kind: 'map'; of: ValueType };
interface FieldSpec {
  presence: 'required' | 'optional' | 'implicit';
  type: ValueType;
}

function parseType(t: string): ValueType {
  if (t.startsWith('[')) return { kind: 'repeated', of: parseType(t.slice(1, -1)) };
  if (t.startsWith('{')) return { kind: 'map', of: parseType(t.slice(1, -1)) };
  if (t === 'string' || t === 'bool') return { kind: 'scalar' };
  if (t === 'struct') return { kind: 'struct' };
  if (!(t in AGENT_CARD_FIELDS)) throw new Error(`AGENT_CARD_FIELDS: unknown type ${t}`);
  return { kind: 'message', name: t as MessageName };
}

/** Field name (JSON and snake_case spellings) → spec, per message; built once from the table. */
const SPECS = new Map<MessageName, Map<string, { json: string; spec: FieldSpec }>>();
for (const [message, fields] of Object.entries(AGENT_CARD_FIELDS)) {
  const byName = new Map<string, { json: string; spec: FieldSpec }>();
  for (const [json, decl] of Object.entries(fields as Record<string, string>)) {
    const presence = decl.endsWith('!') ? 'required' : decl.endsWith('?') ? 'optional' : 'implicit';
    const spec = { presence, type: parseType(decl.replace(/[!?]$/, '')) } as const;
    byName.set(json, { json, spec });
    const snake = json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snake !== json) byName.set(snake, { json, spec });
  }
  SPECS.set(message as MessageName, byName);
}

/** The card's JSON with the §8.4.1 presence rules applied and top-level `signatures` removed. */
export function agentCardSigningObject(card: object): Record<string, unknown> {
  if (!isPlainObject(card)) throw new JcsError('an AgentCard must be a JSON object');
  const out = applyMessage(card, 'AgentCard', '$');
  delete out['signatures'];
  return out;
}

/** The §8.4.1 canonical payload of `card` as RFC 8785 text. */
export function canonicalizeAgentCard(card: object): string {
  return canonicalize(agentCardSigningObject(card));
}

/** The §8.4.1 canonical payload of `card` as UTF-8 bytes: exactly what a card JWS signs. */
export function agentCardSigningPayload(card: object): Uint8Array {
  return new TextEncoder().encode(canonicalizeAgentCard(card));
}

function applyMessage(
  obj: Record<string, unknown>,
  message: MessageName,
  path: string,
): Record<string, unknown> {
  const fields = SPECS.get(message)!;
  const out: Record<string, unknown> = {};
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined) continue; // no JSON form: the member is simply absent
    const field = fields.get(key);
    if (field === undefined) {
      out[key] = value; // unknown member: kept verbatim (see the module comment)
      continue;
    }
    const earlier = seen.get(field.json);
    if (earlier !== undefined) {
      // Two spellings of one field: readers may pick either, so refuse rather than guess.
      throw new JcsError(`${path}: field ${field.json} given as both ${earlier} and ${key}`);
    }
    seen.set(field.json, key);
    const kept = applyField(value, field.spec, `${path}.${field.json}`);
    if (kept !== DROP) out[field.json] = kept;
  }
  return out;
}

const DROP = Symbol('drop');

function applyField(value: unknown, spec: FieldSpec, path: string): unknown {
  if (value === undefined || value === null) return DROP;
  const processed = applyValue(value, spec.type, path);
  if (spec.presence !== 'implicit') return processed;
  return isDefault(processed, spec.type) ? DROP : processed;
}

/** Recurses into message-typed values; scalars, Structs and ill-typed values pass unchanged. */
function applyValue(value: unknown, type: ValueType, path: string): unknown {
  switch (type.kind) {
    case 'scalar':
    case 'struct':
      return value;
    case 'message':
      return isPlainObject(value) ? applyMessage(value, type.name, path) : value;
    case 'repeated':
      return Array.isArray(value)
        ? value.map((v, i) => applyValue(v, type.of, `${path}[${i}]`))
        : value;
    case 'map': {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (v !== undefined) out[k] = applyValue(v, type.of, `${path}.${k}`);
      }
      return out;
    }
  }
}

/** The proto3 default of an implicit-presence field: "", 0, false, an empty list or map. */
function isDefault(value: unknown, type: ValueType): boolean {
  switch (type.kind) {
    case 'scalar':
      return value === '' || value === 0 || value === false;
    case 'repeated':
      return Array.isArray(value) && value.length === 0;
    case 'map':
      return isPlainObject(value) && Object.keys(value).length === 0;
    case 'message':
    case 'struct':
      // A set message (or Struct) is emitted even when empty: ProtoJSON writes `{}`.
      return false;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
