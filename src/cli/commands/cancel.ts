/** `a2a cancel`: CancelTask. */
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { taskLines } from '../format/task.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

/** The `cancel` verb. */
export const cancelCommand: Command = {
  name: 'cancel',
  summary: 'cancel a running task (CancelTask)',
  usage: ['cancel <url> <taskId>'],
  flags: {},
  flagHelp: [],
  examples: [
    `send ${EXAMPLE_URL} --no-wait slow 60   # prints the task id`,
    `cancel ${EXAMPLE_URL} 3f0c2a9e-…`,
  ],
  notes: [
    'Canceling a finished task fails with TASK_NOT_CANCELABLE (exit 1); canceling twice is fine.',
  ],
  async run({ positionals, global, out, signal, errors }) {
    const [rawUrl, id = ''] = requireArgs(positionals, ['the agent URL', 'the task id']);
    noExtraArgs(positionals, 2);
    const client = await connect(agentUrl(rawUrl), global, errors, signal, out);
    const task = await client.cancelTask({ id }, { signal });
    if (out.json) out.jsonDoc(task);
    else for (const line of taskLines(task, out.style)) out.line(line);
    return EXIT.OK;
  },
};
