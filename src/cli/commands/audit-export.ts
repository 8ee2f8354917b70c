/**
 * `a2a audit export`: the audit chain of one of your tasks as JSON Lines (docs/trust.md): GetTask
 * with the audit extension activated, so the agent exports only what GetTask would show you.
 */
import { writeFile } from 'node:fs/promises';
import {
  AUDIT_EXTENSION,
  exportLines,
  type ChainHead,
  type ChainLink,
} from '../../security/audit-chain.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { CliError, EXIT } from '../exit-codes.js';
import { stringFlag } from '../options.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

/** The `audit export` verb. */
export const auditExportCommand: Command = {
  name: 'audit export',
  summary: "export a task's tamper-evident history (hash chain, signed head) as JSON Lines",
  usage: ['audit export <url> <taskId> [--file FILE]'],
  flags: { file: { type: 'string' } },
  flagHelp: [['--file FILE', 'write the export to FILE (default: standard output)']],
  examples: [
    `audit export ${EXAMPLE_URL} 3f0c2a9e-… --file task.audit.jsonl`,
    'audit verify task.audit.jsonl --jwks https://agent.example.com/.well-known/jwks.json',
  ],
  notes: [
    'One JSON document per line: a header, one line per event (seq, prev, hash, event), then the head (seq, hash, and the JWS the agent signed it with, its kid and JWKS URL).',
    'The agent must run with audit on (A2AServer option audit) and exports only your own tasks. Check the file with `a2a audit verify`.',
  ],
  async run({ positionals, values, global, out, signal, errors }) {
    const [rawUrl, id = ''] = requireArgs(positionals, ['the agent URL', 'the task id']);
    noExtraArgs(positionals, 2);
    const url = agentUrl(rawUrl);
    const file = stringFlag(values, 'file');
    const client = await connect(url, global, errors, signal, out);
    const task = await client.getTask(
      { id, historyLength: 0 },
      { signal, headers: { 'A2A-Extensions': AUDIT_EXTENSION } },
    );
    const trail = task.metadata?.[AUDIT_EXTENSION] as
      { links?: ChainLink[]; head?: ChainHead } | undefined;
    if (!trail?.links || !trail.head) {
      throw new CliError(
        EXIT.AGENT_ERROR,
        `${url} returned task ${id} without an audit chain`,
        'the agent does not keep one: start it with audit on (A2AServer or serve() option `audit: true`)',
      );
    }
    const text = exportLines(id, trail.links, trail.head);
    if (file === undefined) out.write(text);
    else {
      await writeFile(file, text);
      const signed = trail.head.jws
        ? `, head signed by key "${trail.head.kid}"`
        : ', head unsigned';
      out.error(`wrote ${trail.links.length} events of task ${id} to ${file}${signed}`);
    }
    return EXIT.OK;
  },
};
