/**
 * Reads a 0.3-era Agent Card (`url`, `preferredTransport`, `additionalInterfaces`,
 * `protocolVersion`, OpenAPI-style security schemes) into the 1.0 shape (spec Appendix A), with every
 * interface marked with the card's old protocol version. The client can then say precisely
 * "agent speaks protocol 0.3 only" instead of "invalid card".
 */
import { majorMinor } from '../core/interfaces.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** True for a card without `supportedInterfaces` that has the 0.3 top-level `url`. */
export function isLegacyCard(value: unknown): value is Json {
  return (
    isObject(value) && value.supportedInterfaces === undefined && typeof value.url === 'string'
  );
}

/** The 1.0 form of a 0.3 card; unknown or unconvertible parts are dropped. */
export function upgradeLegacyCard(card: Json): Json {
  const version = majorMinor(
    typeof card.protocolVersion === 'string' ? card.protocolVersion : '0.3',
  );
  const interfaces: Json[] = [];
  const add = (url: unknown, binding: unknown) => {
    if (typeof url !== 'string' || typeof binding !== 'string') return;
    if (interfaces.some((i) => i.url === url && i.protocolBinding === binding)) return;
    interfaces.push({ url, protocolBinding: binding, protocolVersion: version });
  };
  add(card.url, typeof card.preferredTransport === 'string' ? card.preferredTransport : 'JSONRPC');
  for (const extra of Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []) {
    if (isObject(extra)) add(extra.url, extra.transport);
  }

  const {
    url: _url,
    preferredTransport: _preferred,
    additionalInterfaces: _additional,
    protocolVersion: _version,
    supportsAuthenticatedExtendedCard,
    security,
    securitySchemes,
    skills,
    capabilities,
    ...rest
  } = card;
  const out: Json = { ...rest, supportedInterfaces: interfaces };
  const caps: Json = isObject(capabilities) ? { ...capabilities } : {};
  // Appendix A.2.2 / requirement (test/conformance/requirements.ts) [27]: the old flag counts as the extended-card capability.
  if (
    caps.extendedAgentCard === undefined &&
    typeof supportsAuthenticatedExtendedCard === 'boolean'
  ) {
    caps.extendedAgentCard = supportsAuthenticatedExtendedCard;
  }
  out.capabilities = caps;
  if (isObject(securitySchemes)) out.securitySchemes = upgradeSchemes(securitySchemes);
  if (Array.isArray(security)) out.securityRequirements = upgradeRequirements(security);
  if (Array.isArray(skills)) {
    out.skills = skills.map((skill: unknown) => {
      if (!isObject(skill) || !Array.isArray(skill.security)) return skill;
      const { security: skillSecurity, ...skillRest } = skill;
      return {
        ...skillRest,
        securityRequirements: upgradeRequirements(skillSecurity as unknown[]),
      };
    });
  }
  return out;
}

/** `[{name: [scopes]}]` → `[{schemes: {name: {list: [scopes]}}}]`. */
function upgradeRequirements(security: unknown[]): Json[] {
  return security.filter(isObject).map((requirement) => ({
    schemes: Object.fromEntries(
      Object.entries(requirement).map(([name, scopes]) => [
        name,
        { list: Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : [] },
      ]),
    ),
  }));
}

/** OpenAPI-style `{type: …}` schemes → 1.0 wrapper objects; 1.0-shaped entries pass through. */
function upgradeSchemes(schemes: Json): Json {
  const out: Json = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!isObject(scheme)) continue;
    const converted = typeof scheme.type === 'string' ? upgradeScheme(scheme) : scheme;
    if (converted) out[name] = converted;
  }
  return out;
}

function upgradeScheme(s: Json): Json | undefined {
  const description = typeof s.description === 'string' ? { description: s.description } : {};
  switch (s.type) {
    case 'apiKey':
      return { apiKeySecurityScheme: { ...description, name: s.name, location: s.in } };
    case 'http':
      return {
        httpAuthSecurityScheme: {
          ...description,
          scheme: s.scheme,
          ...(typeof s.bearerFormat === 'string' ? { bearerFormat: s.bearerFormat } : {}),
        },
      };
    case 'oauth2': {
      // 1.0 allows one flow per scheme: keep the first one listed.
      const first = isObject(s.flows)
        ? Object.entries(s.flows).find(([, flow]) => isObject(flow))
        : undefined;
      if (!first) return undefined;
      return {
        oauth2SecurityScheme: {
          ...description,
          flows: { [first[0]]: first[1] },
          ...(typeof s.oauth2MetadataUrl === 'string'
            ? { oauth2MetadataUrl: s.oauth2MetadataUrl }
            : {}),
        },
      };
    }
    case 'openIdConnect':
      return {
        openIdConnectSecurityScheme: { ...description, openIdConnectUrl: s.openIdConnectUrl },
      };
    case 'mutualTLS':
      return { mtlsSecurityScheme: description };
    default:
      return undefined;
  }
}
