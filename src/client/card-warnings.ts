/**
 * What is legal but unwise in an Agent Card or its endpoint: plain-http interfaces, an empty
 * skill list, security requirements naming no declared scheme, no caching headers (spec §8.6).
 */
import { BINDINGS, majorMinor } from '../core/interfaces.js';
import type { AgentCard } from '../core/schemas/index.js';
import { parseCacheControl } from './card-cache.js';
import { DEFAULT_PROTOCOL_VERSIONS } from './default-transports.js';
import type { ReplyHeaders } from '../transport/http-send.js';

/** Warnings about the card's content. */
export function cardWarnings(card: AgentCard): string[] {
  const warnings: string[] = [];
  const plain = card.supportedInterfaces
    .map((iface, i) => (/^http:\/\//i.test(iface.url) ? `${i + 1} (${iface.protocolBinding})` : ''))
    .filter(Boolean);
  if (plain.length > 0) {
    const which =
      plain.length === 1
        ? `interface ${plain[0] ?? ''} uses`
        : `interfaces ${plain.join(', ')} use`;
    warnings.push(
      `${which} http://, not https://: fine on localhost, but agents must use HTTPS in production (spec §7.1)`,
    );
  }
  card.supportedInterfaces.forEach((iface, i) => {
    const label = `interface ${i + 1} (${iface.protocolBinding})`;
    const version = majorMinor(iface.protocolVersion);
    if (!DEFAULT_PROTOCOL_VERSIONS.includes(version)) {
      warnings.push(
        `${label} speaks A2A ${version}; this client speaks ${DEFAULT_PROTOCOL_VERSIONS.join(' and ')}`,
      );
    }
    if (
      !(BINDINGS as readonly string[]).includes(iface.protocolBinding) &&
      !iface.protocolBinding.includes(':')
    ) {
      warnings.push(
        `${label}: "${iface.protocolBinding}" is not a standard binding (JSONRPC, HTTP+JSON, GRPC) nor a URI (spec §5.8)`,
      );
    }
  });
  if (card.skills.length === 0) {
    warnings.push('the card lists no skills: clients cannot tell what the agent does (spec §5.7)');
  }
  const ids = card.skills.map((s) => s.id);
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) {
    warnings.push(`skill id "${id}" is used more than once`);
  }
  const declared = new Set(Object.keys(card.securitySchemes ?? {}));
  const requirements = [
    ...(card.securityRequirements ?? []).map((r) => ['the card', r] as const),
    ...card.skills.flatMap((s) =>
      (s.securityRequirements ?? []).map((r) => [`skill "${s.id}"`, r] as const),
    ),
  ];
  for (const [owner, requirement] of requirements) {
    for (const name of Object.keys(requirement.schemes ?? {})) {
      if (!declared.has(name)) {
        warnings.push(
          `${owner} requires security scheme "${name}", which securitySchemes does not declare`,
        );
      }
    }
  }
  return warnings;
}

/** Warnings about the card endpoint's HTTP reply (spec §8.6: caching SHOULDs). */
export function cardEndpointWarnings(headers: ReplyHeaders): string[] {
  const warnings: string[] = [];
  if (!headers.get('etag')) {
    warnings.push(
      'the card endpoint sent no ETag: clients cannot revalidate the card cheaply (spec §8.6)',
    );
  }
  const cacheControl = parseCacheControl(headers.get('cache-control'));
  if (
    !cacheControl.has('max-age') &&
    !cacheControl.has('no-cache') &&
    !cacheControl.has('no-store')
  ) {
    warnings.push(
      'the card endpoint sent no Cache-Control max-age: clients must guess how long to cache it (spec §8.6)',
    );
  }
  return warnings;
}
