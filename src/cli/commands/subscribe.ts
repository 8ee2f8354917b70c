/** `a2a subscribe`: SubscribeToTask, with the same live display as `send --stream`. */
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { watchStream } from '../render/stream-view.js';
import { exitForState, noExtraArgs, printNextSteps, requireArgs } from '../task-helpers.js';

/** The `subscribe` verb. */
export const subscribeCommand: Command = {
  name: 'subscribe',
  summary: 'follow a running task live until it finishes or asks for input',
  usage: ['subscribe <url> <taskId>'],
  flags: {},
  flagHelp: [],
  examples: [
    `send ${EXAMPLE_URL} --no-wait slow 10   # prints the task id`,
    `subscribe ${EXAMPLE_URL} 3f0c2a9e-…`,
    `subscribe ${EXAMPLE_URL} 3f0c2a9e-… -o json | jq .statusUpdate.status.state`,
  ],
  notes: [
    'The first event is the current task; a finished task cannot be subscribed to (exit 1).',
    'It ends when the task finishes or pauses for input or authorization (INPUT_REQUIRED,',
    'AUTH_REQUIRED), and says how to go on.',
    'Ctrl+C stops following; the task goes on.',
  ],
  async run({ positionals, global, out, signal, errors }) {
    const [rawUrl, id = ''] = requireArgs(positionals, ['the agent URL', 'the task id']);
    noExtraArgs(positionals, 2);
    const url = agentUrl(rawUrl);
    const client = await connect(url, global, errors, signal, out);
    const events = client.subscribeToTask({ id }, { signal });
    const state = await watchStream(events, out, errors, { untilSettled: true });
    if (state.task) printNextSteps(out, url, state.task);
    return exitForState(state.state);
  },
};
