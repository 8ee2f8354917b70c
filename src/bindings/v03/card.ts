/**
 * The 0.3 form of a 1.0 Agent Card (0.3 spec §5.5): `url` + `preferredTransport` +
 * `additionalInterfaces` from the 0.3 entries of `supportedInterfaces` (spec Appendix A),
 * top-level `protocolVersion`, `supportsAuthenticatedExtendedCard`, OpenAPI-style
 * `securitySchemes` and `security: [{name: [scopes]}]`. The hybrid card served to requests
 * without `A2A-Version` is this plus the 1.0 `supportedInterfaces`, which is what 0.3 clients
 * and 1.0 clients reading a hybrid card both accept. The reverse direction (reading a 0.3 card)
 * is `client/legacy-card.ts`.
 */
import { majorMinor } from '../../core/interfaces.js';
import { isObject, type Json } from './convert.js';
import { V03_CARD_VERSION, V03_VERSION } from './wire.js';

const obj = (v: unknown): Json => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The pure 0.3 card of a 1.0 card (no `supportedInterfaces`, no 1.0 signatures). */
export function cardTo03(card: Json): Json {
  const interfaces = list(card.supportedInterfaces).map(obj);
  const legacy = interfaces.filter((i) => majorMinor(String(i.protocolVersion)) === V03_VERSION);
  const offered = legacy.length > 0 ? legacy : interfaces;
  const [primary, ...others] = offered;
  const caps = obj(card.capabilities);
  const out: Json = {
    protocolVersion: V03_CARD_VERSION,
    name: card.name,
    description: card.description,
    url: primary?.url ?? '',
    preferredTransport: primary?.protocolBinding ?? 'JSONRPC',
    version: card.version,
    capabilities: pick({
      streaming: caps.streaming,
      pushNotifications: caps.pushNotifications,
      extensions: caps.extensions,
    }),
    defaultInputModes: card.defaultInputModes ?? [],
    defaultOutputModes: card.defaultOutputModes ?? [],
    skills: list(card.skills).map((s) => skillTo03(obj(s))),
  };
  if (others.length > 0) {
    out.additionalInterfaces = offered.map((i) => ({ url: i.url, transport: i.protocolBinding }));
  }
  for (const f of ['provider', 'iconUrl', 'documentationUrl'] as const) {
    if (card[f] !== undefined) out[f] = card[f];
  }
  if (caps.extendedAgentCard !== undefined) {
    out.supportsAuthenticatedExtendedCard = caps.extendedAgentCard;
  }
  if (isObject(card.securitySchemes)) {
    const schemes: Json = {};
    for (const [name, scheme] of Object.entries(card.securitySchemes)) {
      const converted = schemeTo03(obj(scheme));
      if (converted !== undefined) schemes[name] = converted;
    }
    out.securitySchemes = schemes;
  }
  if (Array.isArray(card.securityRequirements)) {
    out.security = requirementsTo03(card.securityRequirements);
  }
  return out;
}

/**
 * The hybrid card: the 0.3 card plus what 1.0 readers need, so a client of either version finds
 * what it reads and a validator of either version accepts it: the 1.0 `supportedInterfaces`
 * (every entry, both versions), the 1.0 `capabilities` (a superset of the 0.3 ones) and
 * `securityRequirements`, each security scheme in both forms in one object (the 0.3 `type`
 * fields next to the 1.0 wrapper member), each skill with both `security` and
 * `securityRequirements`.
 */
export function hybridCard(card: Json): Json {
  const legacy = cardTo03(card);
  const out: Json = {
    ...legacy,
    capabilities: card.capabilities,
    skills: list(card.skills).map((s) => ({ ...skillTo03(obj(s)), ...obj(s) })),
    supportedInterfaces: card.supportedInterfaces,
  };
  if (isObject(card.securitySchemes) && isObject(legacy.securitySchemes)) {
    const both: Json = {};
    for (const [name, scheme] of Object.entries(card.securitySchemes)) {
      both[name] = { ...obj(legacy.securitySchemes[name]), ...obj(scheme) };
    }
    out.securitySchemes = both;
  }
  if (card.securityRequirements !== undefined) {
    out.securityRequirements = card.securityRequirements;
  }
  return out;
}

function skillTo03(skill: Json): Json {
  const { securityRequirements, ...rest } = skill;
  return Array.isArray(securityRequirements)
    ? { ...rest, security: requirementsTo03(securityRequirements) }
    : rest;
}

/** `[{schemes: {name: {list: [scopes]}}}]` → `[{name: [scopes]}]`. */
function requirementsTo03(requirements: unknown[]): Json[] {
  return requirements.map((r) =>
    Object.fromEntries(
      Object.entries(obj(obj(r).schemes)).map(([name, scopes]) => [name, list(obj(scopes).list)]),
    ),
  );
}

/** A 1.0 wrapper scheme → the OpenAPI-style 0.3 scheme (0.3 spec §5.5.3). */
function schemeTo03(scheme: Json): Json | undefined {
  const [kind, raw] = Object.entries(scheme)[0] ?? ['', undefined];
  const s = obj(raw);
  const description = typeof s.description === 'string' ? { description: s.description } : {};
  switch (kind) {
    case 'apiKeySecurityScheme':
      return { type: 'apiKey', ...description, name: s.name, in: s.location };
    case 'httpAuthSecurityScheme':
      return pick({ type: 'http', ...description, scheme: s.scheme, bearerFormat: s.bearerFormat });
    case 'oauth2SecurityScheme':
      return pick({
        type: 'oauth2',
        ...description,
        flows: s.flows,
        oauth2MetadataUrl: s.oauth2MetadataUrl,
      });
    case 'openIdConnectSecurityScheme':
      return { type: 'openIdConnect', ...description, openIdConnectUrl: s.openIdConnectUrl };
    case 'mtlsSecurityScheme':
      return { type: 'mutualTLS', ...description };
    default:
      return undefined;
  }
}

function pick(values: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
  return out;
}
