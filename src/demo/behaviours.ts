/** The demo agent's behaviours: one small async generator per command. */
import type { AgentEvent, ExecutionContext } from '../server/index.js';
import { intArg, sleep, type Command } from './command.js';

/** How fast the timed behaviours go (tests speed them up). */
export interface Timing {
  /** Pause between two story chunks. */
  readonly chunkDelayMs: number;
  /** Length of one "second" of the slow task. */
  readonly tickMs: number;
}

/** One behaviour: the events it yields for the message that started the task. */
export type Behaviour = (
  context: ExecutionContext,
  command: Command,
  timing: Timing,
) => AsyncIterable<AgentEvent>;

/** The commands the demo understands, listed in the greeting. */
export const COMMANDS = 'echo <text>, book, story [n], slow [seconds], reject, fail, auth, whoami';

/** `echo <text>`: WORKING, one artifact "You said: <text>", COMPLETED. */
export async function* echo(
  { task }: ExecutionContext,
  command: Command,
): AsyncIterable<AgentEvent> {
  yield task.working();
  yield task.artifact(`You said: ${command.args || '(nothing)'}`, { name: 'echo' });
  yield task.completed();
}

/** Any text that is not a command (or a data part without one) is echoed whole. */
export async function* echoAll(
  context: ExecutionContext,
  command: Command,
): AsyncIterable<AgentEvent> {
  const text = command.text || dataText(context);
  yield* echo(context, { ...command, args: text });
}

/** `hi` / `hello` / `help`: a single message and no task (spec §3.7: trivial replies). */
export async function* greet({ task }: ExecutionContext): AsyncIterable<AgentEvent> {
  yield task.reply(
    `Hello! I am the a2a-kit demo agent. Start your message with one of: ${COMMANDS}.`,
  );
}

/** `story [n]`: one artifact streamed in n chunks (append after the first, lastChunk on the last). */
export async function* story(
  { task, signal }: ExecutionContext,
  command: Command,
  timing: Timing,
): AsyncIterable<AgentEvent> {
  const chunks = storyChunks(intArg(command.args, 20, 1, 200));
  const artifactId = `story-${task.id}`;
  yield task.working(`Telling a story in ${chunks.length} chunks.`);
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0 && !(await sleep(timing.chunkDelayMs, signal))) return; // canceled
    yield task.artifact(chunk, {
      artifactId,
      name: 'story',
      append: i > 0,
      lastChunk: i === chunks.length - 1,
    });
  }
  yield task.completed();
}

/** `slow [seconds]`: a WORKING progress status every second; stops at once when canceled. */
export async function* slow(
  { task, signal }: ExecutionContext,
  command: Command,
  timing: Timing,
): AsyncIterable<AgentEvent> {
  const seconds = intArg(command.args, 30, 1, 3600);
  yield task.working(`Working for ${seconds} s; cancel the task to stop me.`);
  for (let done = 1; done <= seconds; done++) {
    // Canceled: the server has already recorded CANCELED, so just stop.
    if (!(await sleep(timing.tickMs, signal))) return;
    yield task.working(`Working... ${done}/${seconds} s`);
  }
  yield task.artifact(`Done after ${seconds} s of work.`, { name: 'result' });
  yield task.completed();
}

/** `reject`: the agent refuses the task (REJECTED with the reason). */
export async function* reject({ task }: ExecutionContext): AsyncIterable<AgentEvent> {
  yield task.rejected('Rejected: you asked me to refuse this task, so I do. Try "echo" or "book".');
}

/** The internal detail `fail` throws; the server must not show it to clients. */
export const FAIL_DETAIL = 'demo failure: connection to 10.0.0.7:5432 refused';

/** `fail`: the agent throws; the server turns that into FAILED with a generic status message. */
export async function* fail({ task }: ExecutionContext): AsyncIterable<AgentEvent> {
  yield task.working('About to fail on purpose.');
  throw new Error(FAIL_DETAIL);
}

/** `auth`: pauses in AUTH_REQUIRED, saying what is needed (spec §7.6.1). */
export async function* auth({ task }: ExecutionContext): AsyncIterable<AgentEvent> {
  yield task.working();
  yield task.authRequired(
    'Authorization required: this action needs the "calendar.write" permission. A real agent ' +
      'would have you sign in out of band; in this demo any follow-up message on this taskId ' +
      'counts as granting it.',
  );
}

/**
 * The follow-up to `auth`: treated as the authorization, so the task completes, handing out the
 * demo's bearer token: with it GetExtendedAgentCard answers (spec §3.1.11).
 */
export async function* authorized(
  { task }: ExecutionContext,
  token: string,
): AsyncIterable<AgentEvent> {
  yield task.working('Authorization received.');
  yield task.artifact(
    `Authorized: the protected action ran. Your demo token is ${token}: send ` +
      `"Authorization: Bearer ${token}" to read the extended Agent Card (GetExtendedAgentCard), ` +
      'and to be "demo-user" instead of anonymous (your tasks are then kept apart).',
    { name: 'result' },
  );
  yield task.completed();
}

/** `whoami`: a single message naming the caller (the skill the extended card adds). */
export async function* whoami({ task, call }: ExecutionContext): AsyncIterable<AgentEvent> {
  const who = call.principal?.id;
  yield task.reply(
    who === undefined
      ? 'You are anonymous: no credentials came with this message (try "auth" for a token).'
      : `You are ${who}.`,
  );
}

/** The chunks of the story: one sentence each, the tale starting over when more are asked for. */
export function storyChunks(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const sentence = TALE[i % TALE.length] ?? '';
    return i < count - 1 ? `${sentence} ` : sentence;
  });
}

const TALE = [
  'Once upon a time, two agents met on a network.',
  'Neither knew what the other could do.',
  'So the first one fetched the agent card of the second.',
  'It read the skills, the input modes and the interfaces.',
  'It picked JSON-RPC, because it was listed first.',
  'Then it sent a message, and a task was born.',
  'The task started SUBMITTED, and soon it was WORKING.',
  'The second agent needed a date, so it asked for input.',
  'The first agent answered on the same task.',
  'Work went on, and an artifact grew chunk by chunk.',
  'Each chunk was appended to the one before it.',
  'The client put the pieces together as they arrived.',
  'Somewhere, a slow task was canceled and stopped at once.',
  'Another task was rejected, politely, with a reason.',
  'A third one failed, but said so without leaking secrets.',
  'Every state change was recorded in order.',
  'A client that dropped its stream subscribed again.',
  'It got the current task first, then the live updates.',
  'At last the story reached its final chunk.',
  'The task was COMPLETED, and the agents lived interoperably ever after.',
];

function dataText({ message }: ExecutionContext): string {
  const data = message.parts.find((p) => p.data !== undefined)?.data;
  return data === undefined ? '' : JSON.stringify(data);
}
