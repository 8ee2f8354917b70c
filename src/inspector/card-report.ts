/**
 * The card view's data: the Agent Card exactly as the agent serves it (spec §8.2 well-known URI),
 * the violations and warnings of `a2a card validate` (client/card-validation.ts), the signature
 * status (spec §8.4.3: verified with the key id, invalid with why, or unsigned) and the
 * interfaces in the card's preference order (spec §8.3.2) with what the inspector can speak.
 */
import { PROTOCOL_VERSION } from '../core/interfaces.js';
import { cardUrl } from '../client/card-resolver.js';
import { validateCardJson } from '../client/card-validation.js';
import { isLegacyCard } from '../client/legacy-card.js';
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
  /** The picker's value, when the inspector can speak it. */
  readonly usable: boolean;
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
  /** True for an A2A 0.3 card (see the interface picker note). */
  readonly legacy: boolean;
}

/**
 * Bindings the inspector speaks, by card name. 0.3 is not here yet: when the 0.3 client lands,
 * its binding names join this table and the picker offers them with no other change.
 */
export const INSPECTOR_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;

/** Reads, validates and checks the signature of the card at `url` (an agent URL or card URL). */
export async function cardReport(url: string, fetchImpl: typeof fetch): Promise<CardReport> {
  const where = cardUrl(url);
  // As our client asks: a server that also serves 0.3 answers a request without A2A-Version with
  // the hybrid card, which carries no 1.0 signature (docs/interop.md).
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
  const parsed = AgentCard.safeParse(raw);
  const card = parsed.success ? parsed.data : null;
  return {
    cardUrl: where,
    status: response.status,
    raw,
    card,
    valid: validation.valid,
    violations: validation.violations,
    warnings: validation.warnings,
    signature: await signatureOf(raw, where),
    interfaces: (card?.supportedInterfaces ?? []).map(interfaceRow),
    legacy: isLegacyCard(raw),
  };
}

function interfaceRow(iface: AgentCard['supportedInterfaces'][number]): InterfaceRow {
  const usable = (INSPECTOR_BINDINGS as readonly string[]).includes(iface.protocolBinding);
  const v03 = iface.protocolVersion.startsWith('0.');
  return {
    protocolBinding: iface.protocolBinding,
    url: iface.url,
    protocolVersion: iface.protocolVersion,
    ...(iface.tenant !== undefined ? { tenant: iface.tenant } : {}),
    usable: usable && !v03,
    ...(v03
      ? { note: '0.3: not here' }
      : usable
        ? {}
        : { note: 'not a binding the inspector speaks' }),
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
