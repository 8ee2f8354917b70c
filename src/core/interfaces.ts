/** Interface selection from an Agent Card (spec §5.2, §8.3.2). */
import type { AgentCard, AgentInterface } from './schemas/index.js';

/** The protocol version this library speaks on the wire (Major.Minor only). */
export const PROTOCOL_VERSION = '1.0';

/** The three standard protocol bindings, by their exact card strings. */
export const BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;
export type ProtocolBinding = (typeof BINDINGS)[number];

/** `Major.Minor` of a version string; patch numbers never influence negotiation (spec §3.6). */
export function majorMinor(version: string): string {
  const m = /^\s*(\d+)\.(\d+)/.exec(version);
  return m ? `${Number(m[1])}.${Number(m[2])}` : version.trim();
}

/**
 * The first entry of `supportedInterfaces` whose binding AND protocol version match, in the
 * card's preference order; `undefined` when none does. Touches no network.
 */
export function selectInterface(
  card: Pick<AgentCard, 'supportedInterfaces'>,
  binding: string,
  version: string = PROTOCOL_VERSION,
): AgentInterface | undefined {
  return selectInterfaces(card, [binding], [version])[0];
}

/**
 * Every entry that matches one of `bindings` and one of `versions`, in the card's preference
 * order (first = preferred): the candidates a client falls back through.
 */
export function selectInterfaces(
  card: Pick<AgentCard, 'supportedInterfaces'>,
  bindings: readonly string[],
  versions: readonly string[] = [PROTOCOL_VERSION],
): AgentInterface[] {
  const wanted = new Set(versions.map(majorMinor));
  return card.supportedInterfaces.filter(
    (i) => bindings.includes(i.protocolBinding) && wanted.has(majorMinor(i.protocolVersion)),
  );
}
