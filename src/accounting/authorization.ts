/**
 * Authorizations of priced tasks (docs/extensions/accounting.md §4): a compact JWS whose payload
 * is the RFC 8785 canonical form of {@link AuthorizationClaims}, bound to one task and one quote
 * (by its digest), amount-capped and expiring. Never inferred from a card.
 */
import {
  CompactSign,
  compactVerify,
  decodeProtectedHeader,
  type CryptoKey,
  type JWK,
  type KeyObject,
} from 'jose';
import { importJWK } from 'jose';
import { canonicalize, canonicalizeToBytes } from '../security/jcs.js';
import { newId } from '../core/ids.js';
import {
  AuthorizationClaimsSchema,
  QuoteSchema,
  type AuthorizationClaims,
  type Quote,
} from './schemas.js';
import { compareAmounts, type Amount } from './quantities.js';

/** A payer's signing key: the private key, its `alg` and `kid`, and the payer id (`iss`). */
export interface PayerKey {
  readonly payer: string;
  readonly key: CryptoKey | KeyObject;
  readonly alg: string;
  readonly kid?: string;
}

/** The public key of a payer, for {@link verifyAuthorization}. */
export type PayerKeys =
  | Readonly<Record<string, CryptoKey | KeyObject | JWK>>
  | ((payer: string, kid: string | undefined) => Promise<CryptoKey | KeyObject | JWK | undefined>);

/** Options of {@link authorize}. */
export interface AuthorizeOptions {
  /** The most the agent may charge (at least the quoted amount, same asset). */
  cap: Amount;
  /** Seconds until the authorization expires (default 300). */
  expiresIn?: number;
  signer: PayerKey;
  /** Clock in ms (tests). */
  now?: number;
}

/** Why an authorization was refused (docs/extensions/accounting.md §4.3). */
export type AuthorizationRefusal =
  | 'malformed'
  | 'unknown-payer'
  | 'bad-signature'
  | 'not-canonical'
  | 'expired'
  | 'wrong-task'
  | 'wrong-quote'
  | 'cap-too-low'
  | 'replayed';

/** Thrown by {@link verifyAuthorization}. */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
  constructor(
    readonly reason: AuthorizationRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** base64url SHA-256 of the RFC 8785 form of `quote`. */
export async function quoteDigest(quote: Quote): Promise<string> {
  const bytes = canonicalizeToBytes(QuoteSchema.parse(quote));
  const hash = new Uint8Array(
    await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>),
  );
  let binary = '';
  for (const b of hash) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Signs an authorization of `quote` capped at `cap`: the compact JWS to send with the task. */
export async function authorize(quote: Quote, options: AuthorizeOptions): Promise<string> {
  if (compareAmounts(options.cap, quote.amount) < 0) {
    throw new RangeError(`cap ${options.cap.value} is below the quoted ${quote.amount.value}`);
  }
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const claims: AuthorizationClaims = {
    jti: newId(),
    iss: options.signer.payer,
    taskId: quote.taskId,
    quoteId: quote.quoteId,
    quoteDigest: await quoteDigest(quote),
    cap: options.cap,
    iat,
    exp: iat + (options.expiresIn ?? 300),
  };
  return signClaims(claims, options.signer);
}

/** Signs `claims` as they are (no checks): the JWS over their RFC 8785 form. */
export async function signClaims(claims: AuthorizationClaims, signer: PayerKey): Promise<string> {
  const header = { alg: signer.alg, typ: 'a2a-accounting-authorization+jws' };
  return new CompactSign(canonicalizeToBytes(claims))
    .setProtectedHeader(signer.kid ? { ...header, kid: signer.kid } : header)
    .sign(signer.key);
}

/** What a verification checks the authorization against. */
export interface VerifyAuthorizationOptions {
  keys: PayerKeys;
  quote: Quote;
  taskId: string;
  /** True when this jti was already used (durably recorded). */
  used: (jti: string) => boolean | Promise<boolean>;
  now?: number;
}

/** The verified claims, or an {@link AuthorizationError} saying exactly why not. */
export async function verifyAuthorization(
  jws: string,
  options: VerifyAuthorizationOptions,
): Promise<AuthorizationClaims> {
  let kid: string | undefined;
  let payer: string;
  try {
    kid = decodeProtectedHeader(jws).kid;
    const payloadPart = jws.split('.')[1] ?? '';
    const raw = JSON.parse(new TextDecoder().decode(base64urlDecode(payloadPart))) as unknown;
    payer = AuthorizationClaimsSchema.parse(raw).iss;
  } catch {
    throw new AuthorizationError(
      'malformed',
      'the authorization is not a valid compact JWS of claims',
    );
  }
  const key = await payerKey(options.keys, payer, kid);
  if (key === undefined)
    throw new AuthorizationError('unknown-payer', `payer ${payer} is not trusted`);
  let payload: Uint8Array;
  try {
    payload = (await compactVerify(jws, key)).payload;
  } catch {
    throw new AuthorizationError('bad-signature', 'the authorization signature does not verify');
  }
  const text = new TextDecoder().decode(payload);
  const claims = AuthorizationClaimsSchema.parse(JSON.parse(text));
  if (canonicalize(JSON.parse(text)) !== text) {
    throw new AuthorizationError('not-canonical', 'the payload is not RFC 8785 canonical JSON');
  }
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (claims.exp <= nowSeconds)
    throw new AuthorizationError('expired', 'the authorization expired');
  if (claims.taskId !== options.taskId) {
    throw new AuthorizationError('wrong-task', `the authorization is for task ${claims.taskId}`);
  }
  if (
    claims.quoteId !== options.quote.quoteId ||
    claims.quoteDigest !== (await quoteDigest(options.quote))
  ) {
    throw new AuthorizationError('wrong-quote', 'the authorization is for another quote');
  }
  let covers: boolean;
  try {
    covers = compareAmounts(claims.cap, options.quote.amount) >= 0;
  } catch {
    covers = false;
  }
  if (!covers) {
    throw new AuthorizationError(
      'cap-too-low',
      `the cap ${claims.cap.value} ${claims.cap.asset} does not cover the quoted ${options.quote.amount.value} ${options.quote.amount.asset}`,
    );
  }
  if (await options.used(claims.jti)) {
    throw new AuthorizationError('replayed', `authorization ${claims.jti} was already used`);
  }
  return claims;
}

async function payerKey(
  keys: PayerKeys,
  payer: string,
  kid: string | undefined,
): Promise<CryptoKey | KeyObject | Uint8Array | undefined> {
  const found = typeof keys === 'function' ? await keys(payer, kid) : keys[payer];
  if (found === undefined) return undefined;
  if ('kty' in found) return importJWK(found);
  return found as CryptoKey | KeyObject;
}

function base64urlDecode(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
