/**
 * `a2a demo` (and `npm run demo`): starts the demo agent in this process (or uses `--url`) and
 * walks a client through the task lifecycle, printing and checking every step.
 */
import type { ServeResult } from '../../node/serve.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { Narrator, WalkthroughError } from '../demo/narrator.js';
import { walkthrough, WALKTHROUGH_STEPS } from '../demo/walkthrough.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { contractNetDemo } from '../demo/contract-net.js';
import { intFlag, stringFlag } from '../options.js';
import { noExtraArgs } from '../task-helpers.js';
import { loadDemoAgent } from './serve.js';

/** The `demo` verb. */
export const demoCommand: Command = {
  name: 'demo',
  summary: 'walk through the A2A task lifecycle against the demo agent, step by step',
  usage: ['demo [--url URL] [--port N]', 'demo contract-net'],
  flags: { url: { type: 'string' }, port: { type: 'string', short: 'p' } },
  flagHelp: [
    ['--url URL', 'use this running demo agent instead of starting one'],
    ['-p, --port N', 'port for the agent started in-process (default: any free port)'],
  ],
  examples: [
    'demo',
    'demo contract-net',
    `demo --url ${EXAMPLE_URL} --binding HTTP+JSON`,
    'demo -o json | jq -c .',
  ],
  notes: [
    'Steps: discover; a streamed send creates a task (SUBMITTED → WORKING); it pauses in',
    'INPUT_REQUIRED; the answer (a data part, same taskId) completes it with an artifact; a message',
    'to the finished task is refused; a follow-up starts a new task in the same context; a story',
    'streams in chunks; a slow task is canceled; the tasks are listed. Each step checks the agent',
    'and the walkthrough exits 1 at the first one it gets wrong.',
  ],
  async run({ positionals, values, global, out, signal, errors }) {
    noExtraArgs(positionals, 1);
    if (positionals[0] === 'contract-net') return contractNetDemo(out, signal);
    if (positionals[0] !== undefined) {
      throw new UsageError(
        `unknown demo "${positionals[0]}"`,
        'use: a2a demo, or a2a demo contract-net',
      );
    }
    const given = stringFlag(values, 'url');
    let agent: ServeResult | undefined;
    let url: string;
    if (given !== undefined) url = agentUrl(given);
    else {
      const { startDemo } = await loadDemoAgent();
      agent = await startDemo({ port: intFlag(values, 'port', 0, 65535) ?? 0, logger: null });
      url = agent.url;
    }
    const narrator = new Narrator(out, WALKTHROUGH_STEPS);
    try {
      if (!out.json) {
        const { bold, dim } = out.style;
        out.line(bold('A2A 1.0 task lifecycle, step by step'));
        out.line(
          dim(agent ? `demo agent started in this process at ${url}` : `using the agent at ${url}`),
        );
      } else out.jsonLine({ agent: url, started: agent !== undefined });
      const client = await connect(url, global, errors, signal);
      const tasks = await walkthrough(client, narrator, signal);
      if (out.json) out.jsonLine({ done: true, steps: WALKTHROUGH_STEPS, tasks });
      else {
        out.line('');
        out.line(
          out.style.green(
            out.style.bold(
              `✔ Walkthrough complete: ${WALKTHROUGH_STEPS} steps passed, ${tasks.length} tasks created.`,
            ),
          ),
        );
        if (!agent) return EXIT.OK;
        out.line(
          out.style.dim(
            'Run the agent yourself with `a2a serve`, then try `a2a send --stream http://127.0.0.1:8765 story 5`.',
          ),
        );
      }
      return EXIT.OK;
    } catch (error) {
      if (error instanceof WalkthroughError) {
        throw new CliError(
          EXIT.AGENT_ERROR,
          `step ${error.step} failed: ${error.message}`,
          'the agent does not behave as A2A 1.0 (or the demo agent) should',
        );
      }
      if (narrator.step > 0 && !(error instanceof CliError)) out.line('');
      throw error;
    } finally {
      await agent?.close();
    }
  },
};
