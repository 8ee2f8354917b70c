/**
 * Steps 1–6 of the walkthrough: discovery, then one task through its whole lifecycle (created,
 * paused for input, answered with a data part, completed, immutable) and a follow-up task.
 */
import type { A2AClient } from '../../client/client.js';
import { A2AError } from '../../core/errors.js';
import { dataPart, textOf, userMessage } from '../../core/parts.js';
import type { SendMessageRequest } from '../../core/schemas/index.js';
import { shortState } from '../format/text.js';
import type { Narrator } from './narrator.js';
import { streamStep, taskOf } from './stream-step.js';

const BOOKING_DATE = '2026-12-24';

/** The ids the lifecycle steps created. */
export interface Lifecycle {
  taskId: string;
  contextId: string;
  followUpId: string;
}

/** Runs steps 1–6; throws WalkthroughError at the first thing the agent gets wrong. */
export async function lifecycleSteps(
  client: A2AClient,
  n: Narrator,
  signal: AbortSignal,
): Promise<Lifecycle> {
  const call = { signal };
  const card = client.card;
  n.begin(
    1,
    'Discover the agent',
    'The Agent Card at /.well-known/agent-card.json lists the skills and the interfaces in preference order; the client takes the first one it speaks (spec §8.3).',
  );
  n.received(
    `card "${card.name}" v${card.version}: ${card.skills.length} skills, streaming ${card.capabilities.streaming ? 'yes' : 'no'}`,
    card,
  );
  const iface = client.selectedInterface;
  n.note(`using ${iface.protocolBinding} at ${iface.url}`);
  n.expect(
    card.capabilities.streaming === true,
    'the card does not declare capabilities.streaming, which the next steps use',
  );
  n.ok('card fetched and validated; interface selected');

  n.begin(
    2,
    'SendStreamingMessage without a taskId creates a task',
    'The agent creates the task and streams it: first the Task object, then each status change (spec §3.1.2).',
  );
  const booking = await streamStep(client, n, { message: userMessage('book') }, signal);
  const first = booking.firstTask;
  n.expect(first !== undefined, 'the stream did not start with the task object');
  n.expect(
    first.status.state === 'TASK_STATE_SUBMITTED' || first.status.state === 'TASK_STATE_WORKING',
    `a new task should start SUBMITTED or WORKING, got ${shortState(first.status.state)}`,
  );
  n.expect(booking.states.includes('TASK_STATE_WORKING'), 'the task never reported WORKING');
  n.ok(`task created: ${booking.states.map(shortState).join(' → ')}`);
  const taskId = first.id;
  const contextId = first.contextId ?? '';
  n.expect(
    contextId !== '',
    'the task has no contextId (spec §3.4.1: a generated contextId must be returned)',
  );

  n.begin(
    3,
    'The agent pauses in INPUT_REQUIRED',
    'An interrupted task waits for the client; its status message (ROLE_AGENT) says what is needed (spec §3.4.3). GetTask shows it.',
  );
  n.sent('GetTask', `id ${taskId}`, { id: taskId });
  const paused = await client.getTask({ id: taskId }, call);
  const question = paused.status.message;
  n.received(
    `task ${shortState(paused.status.state)}: ${question ? `${question.role} "${textOf(question)}"` : 'no status message'}`,
    paused,
  );
  n.expect(
    paused.status.state === 'TASK_STATE_INPUT_REQUIRED',
    `expected INPUT_REQUIRED, got ${shortState(paused.status.state)}`,
  );
  n.expect(
    question?.role === 'ROLE_AGENT',
    'the INPUT_REQUIRED status has no ROLE_AGENT message saying what is needed',
  );
  n.ok('the task waits for input, and says which');

  n.begin(
    4,
    'Answer on the same taskId with a data part',
    'The answer is a new message carrying the taskId (and contextId); the same task resumes, works, adds an artifact and completes.',
  );
  const answer = userMessage([dataPart({ date: BOOKING_DATE })], { taskId, contextId });
  const resumed = await streamStep(client, n, { message: answer }, signal);
  const done = resumed.state.task;
  n.expect(done?.id === taskId, 'the answer did not continue the same task');
  n.expect(resumed.states.includes('TASK_STATE_WORKING'), 'the task did not go back to WORKING');
  n.expect(
    done.status.state === 'TASK_STATE_COMPLETED',
    `expected COMPLETED, got ${shortState(done.status.state)}`,
  );
  const artifact = done.artifacts?.[0];
  n.expect(artifact !== undefined, 'the completed task has no artifact');
  n.note(
    `artifact ${artifact.name ?? artifact.artifactId}: ${textOf(artifact) || JSON.stringify(artifact.parts[0]?.data)}`,
  );
  n.ok(`same task ${resumed.states.map(shortState).join(' → ')}, with an artifact`);

  n.begin(
    5,
    'A finished task is immutable',
    'A message to a task in a terminal state is refused with UnsupportedOperationError; follow-ups become new tasks (spec §3.1, terminal states).',
  );
  const late: SendMessageRequest = {
    message: userMessage('change it to the 25th please', { taskId }),
  };
  n.sent('SendMessage', `taskId ${taskId} (COMPLETED): "change it to the 25th please"`, late);
  const refusal = await client.sendMessage(late, call).then(
    () => undefined,
    (e: unknown) => e,
  );
  n.expect(
    refusal instanceof A2AError,
    `the agent accepted a message to a COMPLETED task${refusal instanceof Error ? ` (${refusal.message})` : ''}`,
  );
  n.received(`error ${refusal.code}: ${refusal.message}`, {
    error: { code: refusal.code, message: refusal.message },
  });
  n.expect(
    refusal.code === 'UNSUPPORTED_OPERATION',
    `expected UNSUPPORTED_OPERATION, got ${refusal.code}`,
  );
  n.ok('refused: terminal states never change');

  n.begin(
    6,
    'A follow-up starts a new task in the same contextId',
    'A message with the contextId but no taskId starts a new task in the same conversation; referenceTaskIds points at the old one (spec §3.4.1).',
  );
  const followUp: SendMessageRequest = {
    message: userMessage('echo please add a table for the 25th too', {
      contextId,
      referenceTaskIds: [taskId],
    }),
  };
  n.sent(
    'SendMessage',
    `contextId ${contextId}, no taskId: "echo please add a table for the 25th too"`,
    followUp,
  );
  const next = taskOf(await client.sendMessage(followUp, call), n);
  n.received(
    `task ${next.id} · context ${next.contextId ?? '-'} · ${shortState(next.status.state)}: ${textOf(next.artifacts?.[0])}`,
    next,
  );
  n.expect(next.id !== taskId, 'the follow-up reused the finished task');
  n.expect(next.contextId === contextId, 'the follow-up task is not in the same context');
  n.expect(
    next.status.state === 'TASK_STATE_COMPLETED',
    `expected COMPLETED, got ${shortState(next.status.state)}`,
  );
  n.ok('a new task, same conversation');

  return { taskId, contextId, followUpId: next.id };
}
