/** `a2a card keygen`: a card signing key, private JWK to a file and public JWKS to stdout (spec §8.4). */
import { writeFile } from 'node:fs/promises';
import {
  exportPrivateJwk,
  exportPublicJwks,
  generateSigningKey,
  isCardSigningAlgorithm,
  type CardSigningAlgorithm,
} from '../../security/signing-keys.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { stringFlag, type FlagValues } from '../options.js';
import { noExtraArgs } from '../task-helpers.js';

/** The `--alg` flag of the signing verbs, checked. */
export function signingAlgorithm(values: FlagValues): CardSigningAlgorithm | undefined {
  const alg = stringFlag(values, 'alg');
  if (alg === undefined) return undefined;
  if (!isCardSigningAlgorithm(alg))
    throw new UsageError(`unsupported --alg ${alg}`, 'use ES256, ES384, RS256, PS256 or EdDSA');
  return alg;
}

/** The `card keygen` verb. */
export const cardKeygenCommand: Command = {
  name: 'card keygen',
  summary: 'create a card signing key: private JWK to a file, public JWKS to stdout',
  usage: ['card keygen --out <private.jwk> [--alg ES256] [--kid ID]'],
  flags: { out: { type: 'string' }, alg: { type: 'string' }, kid: { type: 'string' } },
  flagHelp: [
    ['--out FILE', 'where to write the private JWK (created with mode 0600)'],
    ['--alg ALG', 'ES256 (default), ES384, ES512, RS256, PS256, EdDSA, …'],
    ['--kid ID', 'key id (default: the RFC 7638 thumbprint)'],
  ],
  examples: [
    `card keygen --out signing.jwk > jwks.json   # publish jwks.json next to ${EXAMPLE_URL}`,
  ],
  async run({ positionals, values, out }) {
    noExtraArgs(positionals, 0);
    const target = stringFlag(values, 'out');
    if (target === undefined)
      throw new UsageError('missing --out <private.jwk>', 'the private key is never printed');
    const kid = stringFlag(values, 'kid');
    const key = await generateSigningKey(
      signingAlgorithm(values) ?? 'ES256',
      kid !== undefined ? { kid } : {},
    );
    await writeFile(target, `${JSON.stringify(await exportPrivateJwk(key), null, 2)}\n`, {
      mode: 0o600,
    });
    out.jsonDoc(await exportPublicJwks([key]));
    if (!out.json)
      out.error(
        `private key "${key.kid}" (${key.alg}) written to ${target}; the public JWKS is above`,
      );
    return EXIT.OK;
  },
};
