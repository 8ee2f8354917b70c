/** `a2a card sign`: adds a JWS signature to an Agent Card file (spec §8.4). */
import { writeFile } from 'node:fs/promises';
import type { JWK } from 'jose';
import { signAgentCard } from '../../security/card-signing.js';
import { importSigningKey } from '../../security/signing-keys.js';
import { loadJson, readText } from '../card-source.js';
import type { Command } from '../command.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { stringFlag } from '../options.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';
import { signingAlgorithm } from './card-keygen.js';
import { validateCardJson } from './card-validate.js';

/** A private JWK from a JWK file or a JWKS file (its first private key). */
async function privateJwk(path: string): Promise<JWK> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readText(path)) as unknown;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new UsageError(`--key ${path} is not JSON`);
  }
  const keys = (doc as { keys?: unknown }).keys;
  const candidates = (Array.isArray(keys) ? keys : [doc]) as JWK[];
  const found = candidates.find((k) => typeof k === 'object' && k !== null && k.d !== undefined);
  if (!found)
    throw new UsageError(
      `--key ${path} holds no private key (a JWK with "d")`,
      'create one with `a2a card keygen --out key.jwk`',
    );
  return found;
}

/** The `card sign` verb. */
export const cardSignCommand: Command = {
  name: 'card sign',
  summary: 'sign an Agent Card file with a private JWK (adds a JWS to signatures)',
  usage: [
    'card sign <card.json> --key <private.jwk> [--kid ID] [--alg ES256] [--jku URL] [--out FILE]',
  ],
  flags: {
    key: { type: 'string' },
    kid: { type: 'string' },
    alg: { type: 'string' },
    jku: { type: 'string' },
    out: { type: 'string' },
  },
  flagHelp: [
    ['--key FILE', 'the private key: a JWK (or JWKS) file, e.g. from `a2a card keygen`'],
    ['--kid ID', "key id in the protected header (default: the JWK's kid)"],
    ['--alg ALG', "signature algorithm (default: the JWK's alg, else ES256)"],
    ['--jku URL', 'where verifiers can fetch the public JWKS'],
    ['--out FILE', 'write the signed card there (default: stdout)'],
  ],
  examples: [
    'card keygen --out signing.jwk > jwks.json',
    'card sign agent-card.json --key signing.jwk --jku https://agent.example.com/jwks.json --out signed.json',
  ],
  notes: [
    'Existing signatures are kept (key rotation, spec §8.4.2). An invalid card is not signed (exit 1).',
  ],
  async run({ positionals, values, global, out, errors }) {
    const [source = ''] = requireArgs(positionals, ['the card file']);
    noExtraArgs(positionals, 1);
    const keyPath = stringFlag(values, 'key');
    if (keyPath === undefined)
      throw new UsageError(
        'missing --key <private.jwk>',
        'create one with `a2a card keygen --out key.jwk`',
      );
    const { json } = await loadJson(source, global, errors);
    const check = validateCardJson(json, source);
    if (!check.valid) {
      const first = check.violations
        .slice(0, 3)
        .map((v) => `${v.field}: ${v.description}`)
        .join('; ');
      throw new CliError(
        EXIT.AGENT_ERROR,
        `refusing to sign an invalid card: ${first}`,
        `see \`a2a card validate ${source}\``,
      );
    }
    const alg = signingAlgorithm(values);
    const kid = stringFlag(values, 'kid');
    const key = await importSigningKey(await privateJwk(keyPath), {
      ...(alg !== undefined ? { alg } : {}),
      ...(kid !== undefined ? { kid } : {}),
    });
    const jku = stringFlag(values, 'jku');
    const signed = await signAgentCard(json as object, {
      key: key.key,
      kid: key.kid,
      alg: key.alg,
      ...(jku !== undefined ? { jku } : {}),
    });
    const text = `${JSON.stringify(signed, null, 2)}\n`;
    const target = stringFlag(values, 'out');
    if (target === undefined) out.write(text);
    else {
      await writeFile(target, text);
      if (!out.json) out.error(`signed with ${key.alg} key "${key.kid}" → ${target}`);
    }
    return EXIT.OK;
  },
};
