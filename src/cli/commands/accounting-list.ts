/** `a2a accounting list`: the statements of the caller's tasks (docs/extensions/accounting.md §6). */
import { listStatements } from '../../client/accounting-statements.js';
import { formatAmount } from '../../accounting/quantities.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { stateLabel, table } from '../format/text.js';
import { stringFlag } from '../options.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

/** The `accounting list` verb. */
export const accountingListCommand: Command = {
  name: 'accounting list',
  summary: 'list the accounting statements (quote vs actual, charge) of your tasks',
  usage: ['accounting list <url> [--context ID]'],
  flags: { context: { type: 'string' } },
  flagHelp: [['--context ID', 'only the tasks of this conversation']],
  examples: [`accounting list ${EXAMPLE_URL}`, `accounting list ${EXAMPLE_URL} -o json`],
  notes: [
    'Statements are kept in the tasks (their final status message), so the agent lists only your own.',
  ],
  async run({ positionals, values, global, out, signal, errors }) {
    const [rawUrl] = requireArgs(positionals, ['the agent URL']);
    noExtraArgs(positionals, 1);
    const url = agentUrl(rawUrl);
    const contextId = stringFlag(values, 'context');
    const client = await connect(url, global, errors, signal);
    const rows = await listStatements(client, contextId !== undefined ? { contextId } : {}, {
      signal,
    });
    if (out.json) {
      out.jsonDoc({ statements: rows });
      return EXIT.OK;
    }
    const { style } = out;
    if (rows.length === 0) {
      out.line('No statements.');
      return EXIT.OK;
    }
    const header = ['TASK', 'STATE', 'SKILL', 'MS', 'JOULES', 'QUOTED', 'CHARGED', 'OUTCOME'].map(
      (h) => style.bold(h),
    );
    const lines = rows.map(({ taskId, state, statement: s }) => [
      taskId,
      stateLabel(state, style),
      s.skill ?? '-',
      String(s.duration.ms),
      `${s.energy.joules} ${s.energy.method === 'measured' ? 'm' : 'est'}`,
      s.quote ? formatAmount(s.quote.amount) : '-',
      s.charged ? formatAmount(s.charged) : '-',
      s.outcome,
    ]);
    for (const line of table([header, ...lines])) out.line(line);
    return EXIT.OK;
  },
};
