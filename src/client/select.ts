/**
 * Which of an agent's interfaces a client may use (spec §8.3.2, requirements 21–23 of test/conformance/requirements.ts): every entry
 * whose binding the client speaks at protocol 1.0, in the card's preference order; and, when
 * there is none, an error that says exactly what the agent offers and what the client speaks.
 */
import { majorMinor, PROTOCOL_VERSION, selectInterfaces } from '../core/interfaces.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import { IncompatibleAgentError } from '../transport/errors.js';

/** What the client speaks. */
export interface SelectOptions {
  /** Bindings the client implements at 1.0, e.g. `['JSONRPC', 'HTTP+JSON']`. */
  bindings: readonly string[];
  /** Use only this binding (still in the card's order among its entries). */
  preferredBinding?: string | undefined;
  /**
   * Protocol versions in preference order (default `['1.0']`) with the bindings spoken at each
   * other version (`{ '0.3': ['JSONRPC', 'HTTP+JSON'] }`); 1.0 uses {@link bindings}.
   */
  versions?: readonly string[] | undefined;
  bindingsAt?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** The usable interfaces, preferred first; throws {@link IncompatibleAgentError} when none. */
export function candidateInterfaces(
  card: Pick<AgentCard, 'supportedInterfaces'>,
  options: SelectOptions,
): AgentInterface[] {
  const bindings = options.preferredBinding ? [options.preferredBinding] : options.bindings;
  const versions = options.versions ?? [PROTOCOL_VERSION];
  // Version preference first (1.0 before 0.3 by default), then the card's order (spec §8.3.1).
  const found = versions.flatMap((version) => {
    const spoken =
      majorMinor(version) === PROTOCOL_VERSION ? bindings : (options.bindingsAt?.[version] ?? []);
    const usable = options.preferredBinding
      ? spoken.filter((b) => b === options.preferredBinding)
      : spoken;
    return selectInterfaces(card, usable, [version]);
  });
  if (found.length > 0) return found;
  throw new IncompatibleAgentError(
    incompatibility(card.supportedInterfaces, bindings, options.preferredBinding),
    {
      offered: card.supportedInterfaces,
      bindings,
      versions,
    },
  );
}

function incompatibility(
  offered: readonly AgentInterface[],
  bindings: readonly string[],
  preferred?: string,
): string {
  const list = (items: readonly AgentInterface[]) =>
    unique(items.map((i) => `${i.protocolBinding} ${majorMinor(i.protocolVersion)}`)).join(', ');
  const current = offered.filter((i) => majorMinor(i.protocolVersion) === PROTOCOL_VERSION);
  if (current.length === 0) {
    const versions = unique(offered.map((i) => majorMinor(i.protocolVersion)));
    return `agent speaks protocol ${versions.join(', ')} only; this client speaks ${PROTOCOL_VERSION} (agent offers ${list(offered)})`;
  }
  if (preferred)
    return `agent does not offer ${preferred} ${PROTOCOL_VERSION}; it offers ${list(offered)}`;
  const others =
    offered.length > current.length
      ? ` (and ${list(offered.filter((i) => !current.includes(i)))})`
      : '';
  return `agent only offers ${list(current)}${others}, this client speaks ${bindings.join(', ')}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
