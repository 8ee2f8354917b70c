/** Request builders and the common send / get round trips of the conformance tests. */
import { expect } from 'vitest';
import type { BindingDriver, StreamEvent } from './driver.js';
import { ok } from './expect.js';
import {
  WireStreamResponse,
  WireTask,
  shape,
  taskOf,
  type WireStreamResponse as Event,
} from './shapes.js';

/** A unique id for this run (message ids, gate keys, context ids). */
export function uid(prefix = 'id'): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}

/** A ROLE_USER message in wire form with one text part and a fresh messageId. */
export function userMessage(text: string, extra: Record<string, unknown> = {}) {
  return { messageId: uid('msg'), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** A SendMessageRequest for `text`. */
export function sendParams(
  text: string,
  options: { message?: Record<string, unknown>; configuration?: Record<string, unknown> } = {},
) {
  const params: Record<string, unknown> = { message: userMessage(text, options.message) };
  if (options.configuration) params.configuration = options.configuration;
  return params;
}

/** SendMessage that must answer with a task; returns it, checked against the wire oracle. */
export async function sendTask(
  b: BindingDriver,
  text: string,
  options: Parameters<typeof sendParams>[1] = {},
): Promise<WireTask> {
  return taskOf(ok(await b.call('SendMessage', sendParams(text, options))));
}

/** GetTask that must succeed. */
export async function getTask(
  b: BindingDriver,
  id: string,
  extra: Record<string, unknown> = {},
): Promise<WireTask> {
  return shape(WireTask, ok(await b.call('GetTask', { id, ...extra })));
}

/** Polls GetTask until `state` (the agent runs in the background). */
export async function waitForState(
  b: BindingDriver,
  id: string,
  state: string,
  timeoutMs = 5000,
): Promise<WireTask> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await getTask(b, id);
    if (task.status.state === state) return task;
    if (Date.now() > deadline)
      return expect.fail(`task ${id} is ${task.status.state}, never reached ${state}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The StreamResponses of stream events, each checked against the wire oracle. */
export function payloads(events: readonly StreamEvent[]): Event[] {
  return events.map((e) => shape(WireStreamResponse, e.event));
}

/**
 * The log position an event id names where the log has no gaps: an SSE id (a sequence number)
 * as it is, a gRPC cursor `B+n` (docs/deployment.md) as B + n; NaN without an id.
 */
export function eventPosition(id: string | undefined): number {
  const [base = 'NaN', n = '0'] = (id ?? 'NaN').split('+');
  return Number(base) + Number(n);
}

/** A compact description of stream events: `task:TASK_STATE_SUBMITTED`, `artifact`, … */
export function kinds(events: readonly StreamEvent[]): string[] {
  return payloads(events).map((e) => {
    if ('task' in e) return `task:${e.task.status.state}`;
    if ('statusUpdate' in e) return `status:${e.statusUpdate.status.state}`;
    if ('artifactUpdate' in e) return 'artifact';
    return 'message';
  });
}
