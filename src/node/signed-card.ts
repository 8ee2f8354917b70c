/**
 * serve()'s `signCard`: the card is signed once at start-up (spec §8.4, requirements 223–228 of test/conformance/requirements.ts),
 * over exactly the JSON the card endpoint then serves, and the public key is published as a JWKS
 * (default `/.well-known/jwks.json`) that the signature's `jku` may name.
 */
import type { JWK } from 'jose';
import type { AgentCard } from '../core/schemas/index.js';
import { signAgentCard } from '../security/card-signing.js';
import type { AuditSigner } from '../security/audit-head.js';
import {
  exportPublicJwks,
  type CardSigningAlgorithm,
  type KeyMaterial,
  type SigningKey,
} from '../security/signing-keys.js';

/** Default path of the published JWKS. */
export const DEFAULT_JWKS_PATH = '/.well-known/jwks.json';

/** Options of serve()'s `signCard`. */
export interface SignCardOptions {
  /** A key from `generateSigningKey`/`importSigningKey`, or a private JWK, CryptoKey or KeyObject. */
  readonly key: SigningKey | KeyMaterial;
  /** Key id (taken from a SigningKey or JWK when absent). */
  readonly kid?: string | undefined;
  /** Algorithm (taken from a SigningKey or JWK when absent; default ES256). */
  readonly alg?: CardSigningAlgorithm | undefined;
  /** `jku` of the protected header: a JWKS URL, or `true` for the one this server publishes. */
  readonly jku?: string | true | undefined;
  /** Where to publish the public key as a JWKS (default {@link DEFAULT_JWKS_PATH}); `false`: nowhere. */
  readonly jwksPath?: string | false | undefined;
  /** The public JWK, needed to publish a JWKS when `key` is a CryptoKey or KeyObject. */
  readonly publicJwk?: JWK | undefined;
}

/** The signed card and the JWKS to publish (when there is one). */
export interface SignedCard {
  readonly card: AgentCard;
  readonly publicJwks?: { readonly path: string; readonly jwks: { readonly keys: JWK[] } };
}

/** Signs `unsigned` (as served from `baseUrl`) and prepares its JWKS. */
export async function signServedCard(
  unsigned: AgentCard,
  baseUrl: string,
  options: SignCardOptions,
): Promise<SignedCard> {
  const signing = 'publicKey' in options.key ? options.key : undefined;
  const jwk = isJwk(options.key) ? options.key : undefined;
  const kid = options.kid ?? signing?.kid ?? jwk?.kid;
  const alg = options.alg ?? signing?.alg ?? (jwk?.alg as CardSigningAlgorithm | undefined);
  if (kid === undefined) throw new TypeError('signCard needs a kid (or a key that carries one)');
  const path = options.jwksPath === false ? undefined : (options.jwksPath ?? DEFAULT_JWKS_PATH);
  const publicJwks = path === undefined ? undefined : await jwksOf(options, kid, alg);
  if (options.jku === true && publicJwks === undefined) {
    throw new TypeError(
      'signCard.jku = true needs a published JWKS (a SigningKey, JWK or publicJwk)',
    );
  }
  const jku = options.jku === true ? `${baseUrl}${path ?? ''}` : options.jku;
  // Sign the JSON form: what the endpoint serializes is then exactly what was signed.
  const plain = JSON.parse(JSON.stringify(unsigned)) as AgentCard;
  const card = await signAgentCard(plain, {
    key: signing?.key ?? options.key,
    kid,
    ...(alg === undefined ? {} : { alg }),
    ...(jku === undefined ? {} : { jku }),
  });
  return path === undefined || publicJwks === undefined
    ? { card }
    : { card, publicJwks: { path, jwks: publicJwks } };
}

async function jwksOf(
  options: SignCardOptions,
  kid: string,
  alg: CardSigningAlgorithm | undefined,
): Promise<{ keys: JWK[] } | undefined> {
  const { key, publicJwk } = options;
  const withIds = (j: JWK): JWK => ({ ...j, kid, ...(alg === undefined ? {} : { alg }) });
  if ('publicKey' in key) return exportPublicJwks([key]);
  if (publicJwk !== undefined) return exportPublicJwks([withIds(publicJwk)]);
  if (isJwk(key)) return exportPublicJwks([withIds(key)]);
  if (options.jwksPath !== undefined) {
    throw new TypeError('signCard.jwksPath needs the public key: pass publicJwk');
  }
  return undefined;
}

function isJwk(key: SigningKey | KeyMaterial): key is JWK {
  return typeof key === 'object' && 'kty' in key && typeof key.kty === 'string';
}

/**
 * The signer of audit chain heads (A2AServerOptions.audit) made of the card signing key: the
 * same key, kid and algorithm, and the JWKS this server publishes (`jku`) when it publishes one.
 */
export function auditSignerOf(options: SignCardOptions, baseUrl: string): AuditSigner {
  const signing = 'publicKey' in options.key ? options.key : undefined;
  const jwk = isJwk(options.key) ? options.key : undefined;
  const kid = options.kid ?? signing?.kid ?? jwk?.kid;
  if (kid === undefined) throw new TypeError('signCard needs a kid (or a key that carries one)');
  const alg = options.alg ?? signing?.alg ?? (jwk?.alg as CardSigningAlgorithm | undefined);
  const path = options.jwksPath === false ? undefined : (options.jwksPath ?? DEFAULT_JWKS_PATH);
  const publishes =
    path !== undefined &&
    (signing !== undefined || jwk !== undefined || options.publicJwk !== undefined);
  return {
    key: signing?.key ?? options.key,
    kid,
    ...(alg === undefined ? {} : { alg }),
    ...(publishes ? { jku: `${baseUrl}${path}` } : {}),
  };
}
