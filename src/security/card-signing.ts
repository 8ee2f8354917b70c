/**
 * Agent Card signatures (spec §8.4): a detached JWS in flattened JSON form over the §8.4.1
 * canonical payload. One canonicalization routine serves both sides, and verification fails
 * closed: no signature, an unknown key, a rejected algorithm or any altered byte is an error.
 */
import { base64url, FlattenedSign, flattenedVerify } from 'jose';
import type { AgentCardSignature } from '../core/schemas/agent-card.js';
import { agentCardSigningPayload } from './card-canonical.js';
import { CardSignatureError, SignatureRejected, type SignatureFailure } from './signature-error.js';
import {
  CARD_SIGNING_ALGORITHMS,
  isCardSigningAlgorithm,
  type CardSigningAlgorithm,
  type KeyMaterial,
} from './signing-keys.js';
import { KeySources, type KeySourceOptions } from './verification-keys.js';

/** How to sign: the private key, its `kid`, and optionally `alg`, `jku` and unprotected header. */
export interface SignAgentCardOptions {
  readonly key: KeyMaterial;
  readonly kid: string;
  /** Default ES256. */
  readonly alg?: CardSigningAlgorithm;
  /** JWKS URL where verifiers can find the public key; goes into the protected header. */
  readonly jku?: string;
  /** Unprotected header members (not covered by the signature). */
  readonly header?: Record<string, unknown>;
}

/**
 * Signs `card` and returns a copy with the new signature appended to `signatures` (existing
 * signatures are kept, which is how keys are rotated, spec §8.4.2).
 */
export async function signAgentCard<C extends object>(
  card: C,
  options: SignAgentCardOptions,
): Promise<C & { signatures: AgentCardSignature[] }> {
  const alg = options.alg ?? 'ES256';
  if (!isCardSigningAlgorithm(alg)) {
    throw new TypeError(`unsupported card signing algorithm ${String(alg)}`);
  }
  if (typeof options.kid !== 'string' || options.kid === '') {
    throw new TypeError('signAgentCard needs a non-empty kid (spec §8.4.2)');
  }
  // Member order as in the §8.4.2 example: alg, typ, kid, jku.
  const protectedHeader = {
    alg,
    typ: 'JOSE',
    kid: options.kid,
    ...(options.jku === undefined ? {} : { jku: options.jku }),
  };
  const signer = new FlattenedSign(agentCardSigningPayload(card)).setProtectedHeader(
    protectedHeader,
  );
  if (options.header !== undefined) signer.setUnprotectedHeader(options.header);
  const jws = await signer.sign(options.key);
  const entry: AgentCardSignature = { protected: jws.protected ?? '', signature: jws.signature };
  if (jws.header !== undefined) entry.header = { ...jws.header };
  const existing = (card as { signatures?: unknown }).signatures;
  const signatures = Array.isArray(existing) ? [...(existing as AgentCardSignature[])] : [];
  return { ...card, signatures: [...signatures, entry] };
}

/** Trusted keys and policy for {@link verifyAgentCard}. */
export interface VerifyAgentCardOptions extends KeySourceOptions {
  /** Default true: a card without signatures is an error. */
  readonly required?: boolean;
  /** Accepted algorithms; default {@link CARD_SIGNING_ALGORITHMS}. */
  readonly algorithms?: readonly CardSigningAlgorithm[];
}

/** The signature that verified. */
export interface CardVerified {
  readonly verified: true;
  readonly kid: string;
  readonly alg: CardSigningAlgorithm;
  /** Position in `signatures`. */
  readonly index: number;
}

/** Outcome of {@link verifyAgentCard}; `verified: false` only for an unsigned card when allowed. */
export type VerifyAgentCardResult =
  CardVerified | { readonly verified: false; readonly reason: 'UNSIGNED' };

/**
 * Verifies the signatures of a received card (spec §8.4.3): succeeds when at least one verifies
 * with a trusted, unrevoked key; otherwise throws a {@link CardSignatureError} listing why each
 * signature failed. Pass the card JSON exactly as received (parsed, not schema-normalized).
 */
export async function verifyAgentCard(
  card: object,
  options: VerifyAgentCardOptions,
): Promise<VerifyAgentCardResult> {
  const sources = new KeySources(options);
  const raw = (card as { signatures?: unknown }).signatures;
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    if (options.required === false) return { verified: false, reason: 'UNSIGNED' };
    throw new CardSignatureError('NO_SIGNATURES', 'the agent card is not signed');
  }
  if (!Array.isArray(raw)) {
    throw new CardSignatureError('NO_VALID_SIGNATURE', '"signatures" is not an array');
  }
  let payload: string;
  try {
    payload = base64url.encode(agentCardSigningPayload(card));
  } catch (e) {
    throw new CardSignatureError('NOT_CANONICALIZABLE', `the agent card cannot be canonicalized`, {
      cause: e,
    });
  }
  const allowed = options.algorithms ?? CARD_SIGNING_ALGORITHMS;
  const failures: SignatureFailure[] = [];
  for (const [index, entry] of raw.entries()) {
    let kid: string | undefined;
    try {
      const header = readProtectedHeader(entry, allowed);
      kid = header.kid;
      await verifyOne(entry as AgentCardSignature, payload, header, sources);
      return { verified: true, kid: header.kid, alg: header.alg, index };
    } catch (e) {
      const { code, message } =
        e instanceof SignatureRejected ? e : { code: 'BAD_SIGNATURE' as const, message: String(e) };
      failures.push({ index, code, message, ...(kid === undefined ? {} : { kid }) });
    }
  }
  const detail = failures.map((f) => `#${f.index}: ${f.message}`).join('; ');
  throw new CardSignatureError('NO_VALID_SIGNATURE', `no valid agent card signature (${detail})`, {
    failures,
  });
}

interface CardProtectedHeader {
  alg: CardSigningAlgorithm;
  kid: string;
  jku?: string;
}

/** Decodes and checks the protected header; `kid` and `alg` are only read from there. */
function readProtectedHeader(
  entry: unknown,
  allowed: readonly CardSigningAlgorithm[],
): CardProtectedHeader {
  const e = entry as Partial<Record<keyof AgentCardSignature, unknown>> | null;
  if (typeof e !== 'object' || e === null || typeof e.protected !== 'string') {
    throw malformed('"protected" is missing');
  }
  if (typeof e.signature !== 'string') throw malformed('"signature" is missing');
  if (e.header !== undefined && (typeof e.header !== 'object' || e.header === null)) {
    throw malformed('"header" is not an object');
  }
  let h: Record<string, unknown>;
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(e.protected)));
  } catch {
    throw malformed('"protected" is not base64url-encoded JSON');
  }
  if (typeof h !== 'object' || h === null || Array.isArray(h)) throw malformed('bad header');
  const { alg, kid, typ, jku, b64 } = h;
  if (!isCardSigningAlgorithm(alg) || !allowed.includes(alg)) {
    throw new SignatureRejected(
      'UNSUPPORTED_ALGORITHM',
      `algorithm ${JSON.stringify(alg)} is not accepted (use one of ${allowed.join(', ')})`,
    );
  }
  if (typeof kid !== 'string' || kid === '') throw malformed('protected header has no "kid"');
  // §8.4.2: typ MUST be present and SHOULD be "JOSE"; anything else signals another JWS type.
  if (typeof typ !== 'string' || !/^(application\/)?jose$/i.test(typ)) {
    throw malformed(`protected header "typ" must be "JOSE", got ${JSON.stringify(typ)}`);
  }
  if (jku !== undefined && typeof jku !== 'string') throw malformed('"jku" is not a string');
  // RFC 7797 unencoded payloads are not part of the A2A format.
  if (b64 !== undefined && b64 !== true) throw malformed('"b64": false is not supported');
  return { alg, kid, ...(jku === undefined ? {} : { jku }) };
}

async function verifyOne(
  entry: AgentCardSignature,
  payload: string,
  header: CardProtectedHeader,
  sources: KeySources,
): Promise<void> {
  const candidates = await sources.candidates(header.kid, header.alg, header.jku);
  const jws = {
    payload,
    protected: entry.protected,
    signature: entry.signature,
    ...(entry.header === undefined ? {} : { header: entry.header }),
  };
  let last: unknown;
  for (const { key } of candidates) {
    try {
      await flattenedVerify(jws, key, { algorithms: [header.alg] });
      return;
    } catch (e) {
      last = e;
    }
  }
  const reason = last instanceof Error ? last.message : String(last);
  throw new SignatureRejected(
    'BAD_SIGNATURE',
    `signature by "${header.kid}" does not match the card (${reason})`,
  );
}

function malformed(message: string): SignatureRejected {
  return new SignatureRejected('MALFORMED_SIGNATURE', message);
}
