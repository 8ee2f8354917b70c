/** Steps 7–9 of the walkthrough: an artifact streamed in chunks, a cancel, and ListTasks. */
import type { A2AClient } from '../../client/client.js';
import { textOf, userMessage } from '../../core/parts.js';
import type { SendMessageRequest } from '../../core/schemas/index.js';
import { shortState, shortTime } from '../format/text.js';
import type { Lifecycle } from './lifecycle.js';
import type { Narrator } from './narrator.js';
import { streamStep, taskOf } from './stream-step.js';

/** Runs steps 7–9 and returns the ids of every task the walkthrough created. */
export async function moreSteps(
  client: A2AClient,
  n: Narrator,
  signal: AbortSignal,
  { taskId, contextId, followUpId }: Lifecycle,
): Promise<string[]> {
  const call = { signal };
  n.begin(
    7,
    'An artifact streamed in chunks',
    'Artifact updates with append: true add parts to the artifact sent before; lastChunk marks the end (spec §3.1.2). The client reassembles it.',
  );
  const story = await streamStep(client, n, { message: userMessage('story 5') }, signal);
  const updates = story.state.chunks;
  n.expect(updates === 5, `expected 5 chunks, got ${updates}`);
  n.expect(
    story.state.state === 'TASK_STATE_COMPLETED',
    `expected COMPLETED, got ${story.state.state ?? 'no task'}`,
  );
  const tale = story.state.task?.artifacts?.[0];
  n.expect(
    tale !== undefined && tale.parts.length === 5,
    'the chunks did not assemble into one artifact of 5 parts',
  );
  n.note(`assembled: ${textOf(tale).replace(/\n/g, '')}`);
  n.ok('5 chunks appended into one artifact');

  n.begin(
    8,
    'Cancel a running task',
    'returnImmediately gives the task back while it runs; CancelTask stops it and it ends CANCELED (spec §3.1.5).',
  );
  const slowRequest: SendMessageRequest = {
    message: userMessage('slow 30'),
    configuration: { returnImmediately: true },
  };
  n.sent('SendMessage', 'returnImmediately: "slow 30"', slowRequest);
  const running = taskOf(await client.sendMessage(slowRequest, call), n);
  n.received(`task ${running.id} · ${shortState(running.status.state)}`, running);
  n.expect(
    running.status.state === 'TASK_STATE_SUBMITTED' ||
      running.status.state === 'TASK_STATE_WORKING',
    `expected a running task, got ${shortState(running.status.state)}`,
  );
  n.sent('CancelTask', `id ${running.id}`, { id: running.id });
  const canceled = await client.cancelTask({ id: running.id }, call);
  n.received(`task ${canceled.id} · ${shortState(canceled.status.state)}`, canceled);
  n.expect(
    canceled.status.state === 'TASK_STATE_CANCELED',
    `expected CANCELED, got ${shortState(canceled.status.state)}`,
  );
  n.ok('the running task was canceled');

  n.begin(
    9,
    'List the tasks',
    'ListTasks returns tasks newest first, filtered here by the booking conversation, then all of them (spec §3.1.4).',
  );
  n.sent('ListTasks', `contextId ${contextId}`, { contextId });
  const inContext = await client.listTasks({ contextId }, call);
  n.received(`${inContext.tasks.length} tasks in the booking conversation`, inContext);
  n.table(
    inContext.tasks.map((t) => [t.id, shortState(t.status.state), shortTime(t.status.timestamp)]),
  );
  const ids = new Set(inContext.tasks.map((t) => t.id));
  n.expect(
    ids.has(taskId) && ids.has(followUpId),
    'the booking conversation should hold the booking and the follow-up task',
  );
  const created = [taskId, followUpId, story.state.task?.id ?? '', running.id];
  n.sent('ListTasks', 'pageSize 100', { pageSize: 100 });
  const all = await client.listTasks({ pageSize: 100 }, call);
  n.received(`${all.tasks.length} of ${all.totalSize} tasks, newest first`, all);
  n.table(
    all.tasks.map((t) => [
      t.id,
      shortState(t.status.state),
      shortTime(t.status.timestamp),
      t.contextId ?? '-',
    ]),
  );
  const listed = new Set(all.tasks.map((t) => t.id));
  const missing = created.filter((id) => !listed.has(id));
  n.expect(missing.length === 0, `tasks missing from ListTasks: ${missing.join(', ')}`);
  n.ok(`all ${created.length} tasks of this walkthrough are listed`);
  return created;
}
