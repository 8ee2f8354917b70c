/** `a2a list`: ListTasks, as a table. */
import type { ListTasksRequest } from '../../core/schemas/index.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { shortTime, stateLabel, table } from '../format/text.js';
import { intFlag, parseTaskState, stringFlag } from '../options.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

/** The `list` verb. */
export const listCommand: Command = {
  name: 'list',
  summary: 'list tasks, newest first, with filters and paging',
  usage: ['list <url> [--context ID] [--status STATE] [--page-size N] [--page-token T]'],
  flags: {
    context: { type: 'string' },
    status: { type: 'string' },
    'page-size': { type: 'string' },
    'page-token': { type: 'string' },
  },
  flagHelp: [
    ['--context ID', 'only the tasks of this conversation'],
    [
      '--status STATE',
      'only tasks in this state: working, input-required, completed, … (or TASK_STATE_WORKING)',
    ],
    ['--page-size N', 'tasks per page, 1 to 100 (the agent decides by default)'],
    ['--page-token T', 'the next page, from the previous listing'],
  ],
  examples: [
    `list ${EXAMPLE_URL}`,
    `list ${EXAMPLE_URL} --status working --page-size 10`,
    `list ${EXAMPLE_URL} --context 9b2d… -o json | jq -r '.tasks[].id'`,
  ],
  async run({ positionals, values, global, out, signal, errors }) {
    const [rawUrl] = requireArgs(positionals, ['the agent URL']);
    noExtraArgs(positionals, 1);
    const url = agentUrl(rawUrl);
    const contextId = stringFlag(values, 'context');
    const status = stringFlag(values, 'status');
    const pageSize = intFlag(values, 'page-size', 1, 100);
    const pageToken = stringFlag(values, 'page-token');
    const request: ListTasksRequest = {
      ...(contextId !== undefined ? { contextId } : {}),
      ...(status !== undefined ? { status: parseTaskState(status) } : {}),
      ...(pageSize !== undefined ? { pageSize } : {}),
      ...(pageToken !== undefined ? { pageToken } : {}),
    };
    const client = await connect(url, global, errors, signal, out);
    const result = await client.listTasks(request, { signal });
    if (out.json) {
      out.jsonDoc(result);
      return EXIT.OK;
    }
    const { style } = out;
    if (result.tasks.length === 0) {
      out.line('No tasks match.');
    } else {
      const header = ['ID', 'STATE', 'UPDATED', 'CONTEXT'].map((h) => style.bold(h));
      const rows = result.tasks.map((t) => [
        t.id,
        stateLabel(t.status.state, style),
        shortTime(t.status.timestamp),
        t.contextId ?? '-',
      ]);
      for (const line of table([header, ...rows])) out.line(line);
    }
    out.line('');
    out.line(style.dim(`${result.tasks.length} shown · ${result.totalSize} in total`));
    if (result.nextPageToken) {
      const same = [
        contextId !== undefined ? `--context ${contextId}` : '',
        status !== undefined ? `--status ${status}` : '',
        pageSize !== undefined ? `--page-size ${pageSize}` : '',
      ].filter(Boolean);
      const next = [`a2a list ${url}`, ...same, `--page-token ${result.nextPageToken}`];
      out.line(style.dim(`→ next page: ${next.join(' ')}`));
    }
    return EXIT.OK;
  },
};
