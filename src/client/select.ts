/**
 * Which of an agent's interfaces a client may use (spec §8.3.2, checklist [21]–[23]): every entry
 * whose binding the client speaks at protocol 1.0, in the card's preference order; and, when
 * there is none, an error that says exactly what the agent offers and what the client speaks.
 */
import { majorMinor, PROTOCOL_VERSION, selectInterfaces } from '../core/interfaces.js';
import type { AgentCard, AgentInterface } from '../core/schemas/index.js';
import { IncompatibleAgentError } from '../transport/errors.js';

/** What the client speaks. */
export interface SelectOptions {
  /** Bindings the client implements, e.g. `['JSONRPC', 'HTTP+JSON']`. */
  bindings: readonly string[];
  /** Use only this binding (still in the card's order among its entries). */
  preferredBinding?: string | undefined;
}

/** The usable interfaces, preferred first; throws {@link IncompatibleAgentError} when none. */
export function candidateInterfaces(
  card: Pick<AgentCard, 'supportedInterfaces'>,
  options: SelectOptions,
): AgentInterface[] {
  const bindings = options.preferredBinding ? [options.preferredBinding] : options.bindings;
  const found = selectInterfaces(card, bindings, [PROTOCOL_VERSION]);
  if (found.length > 0) return found;
  throw new IncompatibleAgentError(
    incompatibility(card.supportedInterfaces, bindings, options.preferredBinding),
    {
      offered: card.supportedInterfaces,
      bindings,
      versions: [PROTOCOL_VERSION],
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
