/**
 * `a2a audit verify`: checks an `a2a audit export` file offline (docs/trust.md): the hash chain
 * (names the first modified, dropped or reordered event) and, given the agent's keys, the
 * signature of its head.
 */
import { readFile } from 'node:fs/promises';
import { checkChain } from '../../security/audit-chain.js';
import { verifyHead } from '../../security/audit-head.js';
import type { Command } from '../command.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { KEY_FLAGS, keyFlagHelp, keySourceFromFlags } from '../public-keys.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

/** The `audit verify` verb. */
export const auditVerifyCommand: Command = {
  name: 'audit verify',
  summary: 'check an audit export offline: hash chain and signed head',
  usage: ['audit verify <file> [--key <jwks.json> | --jwks <url> | --trust-jku]'],
  flags: KEY_FLAGS,
  flagHelp: keyFlagHelp(
    "the agent's public keys: a JWK or JWKS file (fully offline)",
    "the agent's JWKS URL (its card signing keys)",
    'use the JWKS URL named in the export (proves only that it matches those keys)',
  ),
  examples: [
    'audit verify task.audit.jsonl --key jwks.json',
    'audit verify task.audit.jsonl --jwks https://agent.example.com/.well-known/jwks.json',
  ],
  notes: [
    "Without keys only the chain is checked: anyone who rewrites the whole file can recompute it, so give the agent's keys to know the file ends where the agent signed it.",
    'The exit code is 1 when an event was modified, dropped or reordered, or the signature does not verify.',
  ],
  async run({ positionals, values, out, signal }) {
    const [file = ''] = requireArgs(positionals, ['the export file']);
    noExtraArgs(positionals, 1);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const check = checkChain(text);
    const events = check.links.length;
    const report = (ok: boolean, problem: string | undefined, signature: string) => {
      if (out.json) {
        out.jsonDoc({
          ok,
          taskId: check.taskId,
          events,
          ...(problem === undefined ? {} : { problem }),
          ...(check.seq === undefined ? {} : { seq: check.seq }),
          signature,
        });
      } else if (ok) {
        out.line(`${out.style.green('✔ chain intact')}: ${events} events of task ${check.taskId}`);
        out.line(
          signature === 'verified'
            ? `${out.style.green('✔ head signature verified')}: key "${check.head?.kid}"`
            : out.style.yellow(
                `! head signature ${signature}: give --key FILE or --jwks URL to check it`,
              ),
        );
      } else {
        out.line(`${out.style.red('✘ tampered')}: ${problem}`);
      }
      return ok ? EXIT.OK : EXIT.AGENT_ERROR;
    };
    if (check.problem !== undefined) return report(false, check.problem, 'not checked');
    const head = check.head;
    const keySource = await keySourceFromFlags(values, signal);
    if (keySource === undefined)
      return report(true, undefined, head?.jws ? 'not checked' : 'absent');
    if (!head?.jws)
      return report(false, 'the head is not signed: the agent had no signing key', 'absent');
    let claims;
    try {
      claims = await verifyHead(head.jws, keySource);
    } catch (error) {
      if (error instanceof UsageError || error instanceof CliError) throw error;
      return report(
        false,
        `the head signature was rejected: ${(error as Error).message}`,
        'rejected',
      );
    }
    if (claims.taskId !== check.taskId || claims.seq !== head.seq || claims.hash !== head.hash) {
      return report(
        false,
        `the agent signed task ${claims.taskId} at seq ${claims.seq} (hash ${claims.hash}), but the file's chain ends at seq ${head.seq} (hash ${head.hash}): it was rewritten`,
        'mismatch',
      );
    }
    return report(true, undefined, 'verified');
  },
};
