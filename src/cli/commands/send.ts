/** `a2a send`: SendMessage (blocking or --no-wait) or SendStreamingMessage (--stream). */
import { userMessage } from '../../core/parts.js';
import type { SendMessageRequest, SendMessageResponse } from '../../core/schemas/index.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { responseLines } from '../format/task.js';
import { messageParts } from '../message-parts.js';
import { booleanFlag, intFlag, listFlag, stringFlag } from '../options.js';
import { watchStream } from '../render/stream-view.js';
import { showWaiting } from '../render/waiting.js';
import { pricedSend } from '../priced-send.js';
import { exitForState, printNextSteps, requireArgs } from '../task-helpers.js';

/** The `send` verb. */
export const sendCommand: Command = {
  name: 'send',
  summary: 'send a message to an agent and show the task (or message) it answers with',
  usage: [
    'send <url> <text...> [--task ID] [--context ID] [--data JSON] [--file PATH] [--stream | --no-wait]',
    'send <url> <text...> --quote | --max-amount 0.10USD --payer-key FILE [--payer ID] [--skill ID]',
  ],
  flags: {
    task: { type: 'string' },
    context: { type: 'string' },
    data: { type: 'string' },
    file: { type: 'string' },
    stream: { type: 'boolean' },
    'no-wait': { type: 'boolean' },
    history: { type: 'string' },
    accept: { type: 'string', multiple: true },
    quote: { type: 'boolean' },
    'max-amount': { type: 'string' },
    'payer-key': { type: 'string' },
    payer: { type: 'string' },
    skill: { type: 'string' },
  },
  flagHelp: [
    ['--task ID', 'continue this task (answer INPUT_REQUIRED / AUTH_REQUIRED)'],
    ['--context ID', 'start the new task in this conversation (contextId)'],
    ['--data JSON', 'add a data part, e.g. --data \'{"date":"2026-12-24"}\''],
    ['--file PATH', 'add a file part (inline base64; media type from the extension)'],
    ['--stream', 'SendStreamingMessage: live progress of states and artifact chunks'],
    ['--no-wait', 'return as soon as the task exists (returnImmediately)'],
    ['--history N', 'include at most N history messages in the reply (historyLength)'],
    ['--accept MEDIA', 'acceptedOutputModes, e.g. --accept text/plain (repeatable)'],
    ['--quote', 'accounting extension: ask the price first and show the quote (nothing runs)'],
    ['--max-amount AMT', 'authorize the quote up to AMT (e.g. 0.10USD) and show the statement'],
    ['--payer-key FILE', 'private JWK that signs the authorization (a2a card keygen --out FILE)'],
    ['--payer ID', 'the payer id the agent knows your key by (default "cli")'],
    ['--skill ID', "the priced skill to quote (default the agent's only priced skill)"],
  ],
  examples: [
    `send ${EXAMPLE_URL} echo hello there`,
    `send --stream ${EXAMPLE_URL} story 5`,
    `send ${EXAMPLE_URL} --quote translate hello   # then --max-amount 0.10USD --payer-key payer.jwk`,
    `send ${EXAMPLE_URL} book   # then: a2a send ${EXAMPLE_URL} --task <id> --data '{"date":"2026-12-24"}'`,
  ],
  notes: [
    'Without --stream the call blocks until the task finishes or asks for input (spec §3.2.2),',
    'with a spinner on the terminal while it waits;',
    'the exit code is 1 when the task ends FAILED or REJECTED.',
  ],
  async run({ positionals, values, global, out, signal, errors }) {
    const [rawUrl] = requireArgs(positionals, ['the agent URL']);
    const url = agentUrl(rawUrl);
    const stream = booleanFlag(values, 'stream');
    const noWait = booleanFlag(values, 'no-wait');
    if (stream && noWait) throw new UsageError('--stream and --no-wait cannot be combined');
    const parts = await messageParts({
      text: positionals.slice(1).join(' '),
      data: stringFlag(values, 'data'),
      file: stringFlag(values, 'file'),
    });
    const taskId = stringFlag(values, 'task');
    const contextId = stringFlag(values, 'context');
    const message = userMessage(parts, {
      ...(taskId !== undefined ? { taskId } : {}),
      ...(contextId !== undefined ? { contextId } : {}),
    });
    const historyLength = intFlag(values, 'history', 0);
    const accept = listFlag(values, 'accept');
    const configuration: NonNullable<SendMessageRequest['configuration']> = {
      ...(noWait ? { returnImmediately: true } : {}),
      ...(historyLength !== undefined ? { historyLength } : {}),
      ...(accept.length > 0 ? { acceptedOutputModes: accept } : {}),
    };
    const request: SendMessageRequest = {
      message,
      ...(Object.keys(configuration).length > 0 ? { configuration } : {}),
    };
    const client = await connect(url, global, errors, signal, out);
    const maxAmount = stringFlag(values, 'max-amount');
    if (booleanFlag(values, 'quote') || maxAmount !== undefined) {
      if (stream || noWait)
        throw new UsageError('--quote/--max-amount run blocking: drop --stream/--no-wait');
      return pricedSend({
        client,
        message,
        quoteOnly: booleanFlag(values, 'quote') && maxAmount === undefined,
        maxAmount,
        payerKey: stringFlag(values, 'payer-key'),
        payer: stringFlag(values, 'payer') ?? 'cli',
        skill: stringFlag(values, 'skill'),
        out,
        signal,
      });
    }

    if (stream) {
      const state = await watchStream(
        client.sendStreamingMessage(request, { signal }),
        out,
        errors,
      );
      if (state.task) printNextSteps(out, url, state.task);
      return exitForState(state.state);
    }
    const waiting = showWaiting(
      out.io.stderr,
      out.errStyle,
      noWait ? 'sending' : 'waiting for the task to finish or ask for input (Ctrl+C stops waiting)',
    );
    let response: SendMessageResponse;
    try {
      response = await client.sendMessage(request, { signal });
    } finally {
      waiting.stop();
    }
    if (out.json) out.jsonDoc(response);
    else
      for (const line of responseLines(response, out.style, {
        history: historyLength !== undefined,
      }))
        out.line(line);
    if (!('task' in response)) return EXIT.OK;
    printNextSteps(out, url, response.task);
    return exitForState(response.task.status.state);
  },
};
