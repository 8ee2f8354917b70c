/** `a2a card verify`: checks the JWS signatures of an Agent Card (spec §8.4.3). */
import { verifyAgentCard } from '../../security/card-signing.js';
import { CardSignatureError } from '../../security/signature-error.js';
import { loadJson } from '../card-source.js';
import { KEY_FLAGS, keyFlagHelp, keySourceFromFlags } from '../public-keys.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

/** The `card verify` verb. */
export const cardVerifyCommand: Command = {
  name: 'card verify',
  summary: "verify an Agent Card's signatures with trusted public keys",
  usage: ['card verify <file|url> (--key <jwks.json> | --jwks <url> | --trust-jku)'],
  flags: KEY_FLAGS,
  flagHelp: keyFlagHelp(
    'trusted public keys: a JWK or JWKS file',
    'a trusted JWKS URL',
    "use the jku URL named in the signature (proves only that it matches that URL's keys)",
  ),
  examples: [
    'card verify signed.json --key jwks.json',
    `card verify ${EXAMPLE_URL} --jwks https://agent.example.com/jwks.json`,
  ],
  notes: ['The exit code is 1 when no signature verifies (or the card is unsigned).'],
  async run({ positionals, values, global, out, signal, errors }) {
    const [source = ''] = requireArgs(positionals, ['the card file or URL']);
    noExtraArgs(positionals, 1);
    const keySource = await keySourceFromFlags(values, signal);
    if (keySource === undefined) {
      throw new UsageError('say which keys to trust: --key FILE, --jwks URL or --trust-jku');
    }
    const { json } = await loadJson(source, global, errors, signal);
    if (typeof json !== 'object' || json === null)
      throw new CliError(EXIT.AGENT_ERROR, `${source} is not a JSON object`);
    try {
      const result = await verifyAgentCard(json, keySource);
      if (out.json) out.jsonDoc(result);
      else if (result.verified) {
        out.line(
          `${out.style.green('✔ signature verified')}: key "${result.kid}" (${result.alg}), signature #${result.index + 1}`,
        );
      }
      return EXIT.OK;
    } catch (error) {
      if (!(error instanceof CardSignatureError)) throw error;
      if (out.json) out.jsonDoc({ verified: false, code: error.code, failures: error.failures });
      else {
        out.line(`${out.style.red('✘ not verified')}: ${error.message}`);
      }
      return EXIT.AGENT_ERROR;
    }
  },
};
