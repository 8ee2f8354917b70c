/** Helpers of the walkthrough steps: a narrated stream, message summaries, task replies. */
import type { A2AClient } from '../../client/client.js';
import type { Message, SendMessageRequest, Task } from '../../core/schemas/index.js';
import { StreamState } from '../render/stream-state.js';
import type { Narrator } from './narrator.js';

/** What one streaming step saw. */
export interface Streamed {
  state: StreamState;
  /** The first event, when it was the task object (spec §3.1.2 requires it). */
  firstTask: Task | undefined;
  /** Every state seen, in order, without repeats. */
  states: Task['status']['state'][];
}

/** Sends `request` with SendStreamingMessage, narrating each event as it arrives. */
export async function streamStep(
  client: A2AClient,
  n: Narrator,
  request: SendMessageRequest,
  signal: AbortSignal,
): Promise<Streamed> {
  n.sent('SendStreamingMessage', describeMessage(request.message), request);
  const state = new StreamState();
  let firstTask: Task | undefined;
  const states: Task['status']['state'][] = [];
  for await (const event of client.sendStreamingMessage(request, { signal })) {
    const chunk = state.apply(event);
    if (state.events === 1 && 'task' in event) firstTask = event.task;
    const s = state.state;
    if (s !== undefined && states[states.length - 1] !== s) states.push(s);
    n.event(event, chunk);
  }
  return { state, firstTask, states };
}

/** `ROLE_USER, taskId …: "text" + data {…}`. */
export function describeMessage(message: Message): string {
  const ids = [
    message.taskId ? `taskId ${message.taskId}` : 'no taskId',
    message.contextId ? `contextId ${message.contextId}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const content = message.parts
    .map((p) => (p.text !== undefined ? JSON.stringify(p.text) : `data ${JSON.stringify(p.data)}`))
    .join(' + ');
  return `${message.role}, ${ids}: ${content}`;
}

/** The task of a SendMessage reply; the step fails when the agent answered with a message. */
export function taskOf(response: { task: Task } | { message: Message }, n: Narrator): Task {
  n.expect('task' in response, 'the agent answered with a message where a task was expected');
  return response.task;
}
