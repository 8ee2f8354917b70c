/** Trusted public keys read from a file (`--key FILE` of `card verify` and `audit verify`). */
import type { JWK } from 'jose';
import { parseJwks } from '../security/jwks.js';
import { readText } from './card-source.js';
import { UsageError } from './exit-codes.js';

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
