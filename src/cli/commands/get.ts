/** `a2a get`: GetTask. */
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { taskLines } from '../format/task.js';
import { intFlag } from '../options.js';
import { exitForState, noExtraArgs, printNextSteps, requireArgs } from '../task-helpers.js';

/** The `get` verb. */
export const getCommand: Command = {
  name: 'get',
  summary: 'show a task: state, status message, artifacts (and history with --history)',
  usage: ['get <url> <taskId> [--history N]'],
  flags: { history: { type: 'string' } },
  flagHelp: [['--history N', 'include at most N history messages (historyLength; 0 = none)']],
  examples: [`get ${EXAMPLE_URL} 3f0c2a9e-…`, `get ${EXAMPLE_URL} 3f0c2a9e-… --history 10 -o json`],
  notes: ['The exit code is 1 when the task ended FAILED or REJECTED.'],
  async run({ positionals, values, global, out, signal, errors }) {
    const [rawUrl, id = ''] = requireArgs(positionals, ['the agent URL', 'the task id']);
    noExtraArgs(positionals, 2);
    const url = agentUrl(rawUrl);
    const historyLength = intFlag(values, 'history', 0);
    const client = await connect(url, global, errors, signal, out);
    const task = await client.getTask(
      { id, ...(historyLength !== undefined ? { historyLength } : {}) },
      { signal },
    );
    if (out.json) out.jsonDoc(task);
    else {
      for (const line of taskLines(task, out.style, { history: historyLength !== undefined })) {
        out.line(line);
      }
      const count = task.history?.length ?? 0;
      if (historyLength === undefined && count > 0) {
        out.line(
          out.style.dim(
            `History: ${count} message${count === 1 ? '' : 's'} (show them with --history N)`,
          ),
        );
      }
      printNextSteps(out, url, task);
    }
    return exitForState(task.status.state);
  },
};
