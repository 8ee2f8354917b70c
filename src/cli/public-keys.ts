/**
 * Trusted public keys for the verbs that check signatures (`card verify`, `audit verify`): the
 * `--key FILE`, `--jwks URL`, `--trust-jku` and `--insecure` flags, and the key-source options
 * they make for src/security.
 */
import type { JWK } from 'jose';
import { parseJwks } from '../security/jwks.js';
import type { KeySourceOptions } from '../security/verification-keys.js';
import { readText } from './card-source.js';
import { UsageError } from './exit-codes.js';
import { booleanFlag, stringFlag, type FlagValues } from './options.js';

/** The flags of a verb that checks signatures. */
export const KEY_FLAGS = {
  key: { type: 'string' },
  jwks: { type: 'string' },
  'trust-jku': { type: 'boolean' },
  insecure: { type: 'boolean' },
} as const;

/** `--help` lines for {@link KEY_FLAGS}: the verb says what each key source means to it. */
export function keyFlagHelp(key: string, jwks: string, trustJku: string): [string, string][] {
  return [
    ['--key FILE', key],
    ['--jwks URL', jwks],
    ['--trust-jku', trustJku],
    ['--insecure', 'allow http:// JWKS URLs (local testing only)'],
  ];
}

/** The key sources the flags name, or undefined when none is given. */
export async function keySourceFromFlags(
  values: FlagValues,
  signal: AbortSignal | undefined,
): Promise<KeySourceOptions | undefined> {
  const keyPath = stringFlag(values, 'key');
  const jwksUrl = stringFlag(values, 'jwks');
  const trustJku = booleanFlag(values, 'trust-jku');
  if (keyPath === undefined && jwksUrl === undefined && !trustJku) return undefined;
  return {
    ...(keyPath !== undefined ? { keys: await publicKeys(keyPath) } : {}),
    ...(jwksUrl !== undefined ? { jwksUrl } : {}),
    ...(trustJku ? { trustJku: true } : {}),
    fetchOptions: {
      allowInsecure: booleanFlag(values, 'insecure'),
      ...(signal ? { signal } : {}),
    },
  };
}

/** Public keys from a JWK or JWKS file. */
export async function publicKeys(path: string): Promise<JWK[]> {
  const text = await readText(path);
  try {
    return parseJwks(text, path);
  } catch {
    try {
      const jwk = JSON.parse(text) as JWK;
      if (typeof jwk === 'object' && jwk !== null && typeof jwk.kty === 'string') return [jwk];
    } catch {
      // fall through to the usage error
    }
    throw new UsageError(`--key ${path} is neither a JWK nor a JWKS`);
  }
}
