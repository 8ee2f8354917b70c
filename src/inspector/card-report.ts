/**
 * The card view's data: the Agent Card exactly as the agent serves it (spec §8.2 well-known URI),
 * the violations and warnings of `a2a card validate` (client/card-validation.ts), the signature
 * status (spec §8.4.3: verified with the key id, invalid with why, or unsigned) and the
 * interfaces in the card's preference order (spec §8.3.2) with what the inspector can speak
 * (1.0, and 0.3 through the client's compat transports). A 0.3 card is read into the 1.0 shape.
 */
import { cardUrl } from '../client/card-resolver.js';
import { validateCardJson } from '../client/card-validation.js';
import { COMPAT_TRANSPORTS } from '../client/default-transports.js';
import { isLegacyCard, upgradeLegacyCard } from '../client/legacy-card.js';
import { majorMinor, PROTOCOL_VERSION } from '../core/interfaces.js';
import type { FieldViolation } from '../core/errors.js';
import { AgentCard } from '../core/schemas/index.js';
import { verifyAgentCard } from '../security/card-signing.js';
import { CardSignatureError } from '../security/signature-error.js';

/** Signature status of a card. */
export type SignatureStatus =
  | {
      readonly status: 'verified';
      readonly kid: string;
      readonly alg: string;
      readonly jku?: string;
    }
  | { readonly status: 'unsigned' }
  | {
      readonly status: 'invalid';
      readonly message: string;
      readonly failures: readonly { kid?: string; code: string; message: string }[];
    };

/** One interface of the card, in preference order, and whether the inspector can use it. */
export interface InterfaceRow {
  readonly protocolBinding: string;
  readonly url: string;
  readonly protocolVersion: string;
  readonly tenant?: string | undefined;
  /** True when the inspector can speak it. */
  readonly usable: boolean;
  /** The picker's value: the binding, with `@0.3` for a 0.3 interface (see {@link parseChoice}). */
  readonly choice: string;
  readonly note?: string | undefined;
}

/** Everything the card view shows. */
export interface CardReport {
  readonly cardUrl: string;
  readonly status: number;
  readonly raw: unknown;
  /** The parsed card (ProtoJSON, camelCase) or null when it does not parse. */
  readonly card: AgentCard | null;
  readonly valid: boolean;
  readonly violations: readonly FieldViolation[];
  readonly warnings: readonly string[];
  readonly signature: SignatureStatus;
  readonly interfaces: readonly InterfaceRow[];
  /** The protocol versions its interfaces speak (major.minor), in the card's order. */
  readonly versions: readonly string[];
  /** True for an A2A 0.3 card (read into the 1.0 shape, as the client does). */
  readonly legacy: boolean;
}

/** Bindings the inspector speaks at 1.0, by card name; 0.3 ones are the client's compat ones. */
export const INSPECTOR_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;

/** The picker's value of an interface: `JSONRPC` at 1.0, `JSONRPC@0.3` at another version. */
export function choiceOf(binding: string, version: string): string {
  const v = majorMinor(version);
  return v === PROTOCOL_VERSION ? binding : `${binding}@${v}`;
}

/** The binding and protocol version of a picker value (see {@link choiceOf}). */
export function parseChoice(choice: string): { binding: string; version: string } {
  const at = choice.lastIndexOf('@');
  return at < 0
    ? { binding: choice, version: PROTOCOL_VERSION }
    : { binding: choice.slice(0, at), version: choice.slice(at + 1) };
}

/** Reads, validates and checks the signature of the card at `url` (an agent URL or card URL). */
export async function cardReport(url: string, fetchImpl: typeof fetch): Promise<CardReport> {
  const where = cardUrl(url);
  // As the client asks for it: a server that also speaks 0.3 answers a request without
  // A2A-Version with its 0.3-flavoured card (spec §3.6.2).
  const response = await fetchImpl(where, {
    headers: { accept: 'application/json', 'a2a-version': PROTOCOL_VERSION },
  });
  const text = await response.text();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${where} answered ${response.status} with no JSON card`);
  }
  if (!response.ok) throw new Error(`${where} answered HTTP ${response.status}`);
  const validation = validateCardJson(raw, where, response.headers);
  const legacy = isLegacyCard(raw);
  const parsed = AgentCard.safeParse(isLegacyCard(raw) ? upgradeLegacyCard(raw) : raw);
  const card = parsed.success ? parsed.data : null;
  const interfaces = (card?.supportedInterfaces ?? []).map(interfaceRow);
  return {
    cardUrl: where,
    status: response.status,
    raw,
    card,
    valid: validation.valid,
    violations: validation.violations,
    warnings: validation.warnings,
    signature: await signatureOf(raw, where),
    interfaces,
    versions: [...new Set(interfaces.map((i) => majorMinor(i.protocolVersion)))],
    legacy,
  };
}

function interfaceRow(iface: AgentCard['supportedInterfaces'][number]): InterfaceRow {
  const version = majorMinor(iface.protocolVersion);
  const spoken =
    version === PROTOCOL_VERSION
      ? (INSPECTOR_BINDINGS as readonly string[])
      : Object.keys(COMPAT_TRANSPORTS[version] ?? {});
  const usable = spoken.includes(iface.protocolBinding);
  return {
    protocolBinding: iface.protocolBinding,
    url: iface.url,
    protocolVersion: iface.protocolVersion,
    ...(iface.tenant !== undefined ? { tenant: iface.tenant } : {}),
    usable,
    choice: choiceOf(iface.protocolBinding, version),
    ...(usable
      ? version === PROTOCOL_VERSION
        ? {}
        : { note: `A2A ${version}, through the client's compat transport (docs/interop.md)` }
      : { note: `not a binding the inspector speaks at ${version}` }),
  };
}

/**
 * Checks the card's signatures with the keys at the `jku` of each signature, trusted only when
 * it is on the card's own origin (http allowed on loopback only): the inspector has no other
 * trust anchor, so "verified" means "signed by the keys this origin publishes".
 */
export async function signatureOf(raw: unknown, where: string): Promise<SignatureStatus> {
  if (typeof raw !== 'object' || raw === null) return { status: 'unsigned' };
  const origin = new URL(where).origin;
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(new URL(where).hostname);
  let jku: string | undefined;
  try {
    const result = await verifyAgentCard(raw, {
      required: false,
      trustJku: (url) => {
        jku = url.href;
        return url.origin === origin;
      },
      allowInsecure: loopback,
    });
    if (!result.verified) return { status: 'unsigned' };
    return { status: 'verified', kid: result.kid, alg: result.alg, ...(jku ? { jku } : {}) };
  } catch (error) {
    if (!(error instanceof CardSignatureError)) throw error;
    return {
      status: 'invalid',
      message: error.message,
      failures: error.failures.map((f) => ({
        code: f.code,
        message: f.message,
        ...(f.kid !== undefined ? { kid: f.kid } : {}),
      })),
    };
  }
}
