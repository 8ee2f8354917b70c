/** The did:wba identity of `--did-key FILE [--did DID]`: the private JWK `a2a did init` wrote. */
import { readFile } from 'node:fs/promises';
import { didIdentity, type DidIdentity, type DidPrivateJwk } from '../did/identity.js';
import { CliError, EXIT, UsageError } from './exit-codes.js';

/** Reads the key file; the DID is `did`, else the `did` member `a2a did init` stored in it. */
export async function loadDidIdentity(file: string, did?: string): Promise<DidIdentity> {
  let jwk: DidPrivateJwk & { did?: unknown; keyFragment?: unknown };
  try {
    jwk = JSON.parse(await readFile(file, 'utf8')) as typeof jwk;
  } catch (error) {
    throw new CliError(
      EXIT.USAGE,
      `cannot read the did:wba key ${file}: ${error instanceof Error ? error.message : String(error)}`,
      'make one with `a2a did init --did did:wba:example.com --out key.jwk`',
    );
  }
  const chosen = did ?? (typeof jwk.did === 'string' ? jwk.did : undefined);
  if (chosen === undefined) {
    throw new UsageError(`${file} names no DID`, 'give it with --did did:wba:example.com');
  }
  try {
    return didIdentity({
      did: chosen,
      privateJwk: jwk,
      ...(typeof jwk.keyFragment === 'string' ? { keyFragment: jwk.keyFragment } : {}),
    });
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
