/**
 * Clients for the crash and soak suites, over HTTP+JSON: streaming and blocking SendMessage in
 * loops, recording exactly what the client was told (the events it received are acknowledged:
 * the server sends an event only once it is durable).
 */
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import { parseSse } from '../../src/transport/sse-parse.js';

const HEADERS = { 'A2A-Version': '1.0', 'Content-Type': 'application/json' };

/** What a client saw of one task. */
export interface SeenTask {
  readonly taskId: string;
  /** Events received, by their SSE id (= log seq). */
  readonly events: Map<number, StreamResponse>;
}

/** Everything the clients of a run saw. */
export interface Seen {
  readonly streamed: SeenTask[];
  /** Tasks returned by blocking sends (settled when returned). */
  readonly sent: Task[];
  /** Requests that failed (the server went away). */
  failures: number;
}

function body(text: string, extra: Record<string, unknown> = {}): string {
  const message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
  return JSON.stringify({ message: { ...message, ...extra } });
}

/** Streams one task of `text`, recording every event, until the stream or the server ends. */
export async function streamOne(base: string, text: string, seen: Seen): Promise<void> {
  const response = await fetch(`${base}/a2a/rest/message:stream`, {
    method: 'POST',
    headers: HEADERS,
    body: body(text),
  });
  if (!response.ok || !response.body) throw new Error(`stream refused: ${response.status}`);
  let task: SeenTask | undefined;
  for await (const sse of parseSse(response.body)) {
    const event = JSON.parse(sse.data) as StreamResponse;
    if (!task) {
      if (!('task' in event)) throw new Error(`stream did not start with the task: ${sse.data}`);
      task = { taskId: event.task.id, events: new Map() };
      seen.streamed.push(task);
    }
    task.events.set(Number(sse.id), event);
  }
}

/** Sends `text` and waits for the settled task (blocking SendMessage) unless `immediately`. */
export async function sendOne(
  base: string,
  text: string,
  taskId?: string,
  immediately = false,
): Promise<Task> {
  const request = JSON.parse(body(text, taskId ? { taskId } : {})) as Record<string, unknown>;
  if (immediately) request['configuration'] = { returnImmediately: true };
  const response = await fetch(`${base}/a2a/rest/message:send`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(request),
  });
  const json = (await response.json()) as { task?: Task };
  if (!response.ok || !json.task) throw new Error(`send refused: ${JSON.stringify(json)}`);
  return json.task;
}

/** The task as GetTask returns it, or undefined on 404. */
export async function getTask(base: string, id: string): Promise<Task | undefined> {
  const response = await fetch(`${base}/a2a/rest/tasks/${id}`, { headers: HEADERS });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`GetTask ${id}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Task;
}

/** CancelTask. */
export async function cancelTask(base: string, id: string): Promise<Task> {
  const response = await fetch(`${base}/a2a/rest/tasks/${id}:cancel`, {
    method: 'POST',
    headers: HEADERS,
    body: '{}',
  });
  if (!response.ok)
    throw new Error(`CancelTask ${id}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Task;
}

/**
 * Runs `workers` loops of `job` until `until` is aborted or the server goes away (a loop ends
 * at its first failure). Resolves once every loop ended.
 */
export async function loops(
  workers: number,
  until: AbortSignal,
  job: () => Promise<unknown>,
  seen: Seen,
): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!until.aborted) {
        try {
          await job();
        } catch {
          seen.failures++;
          return;
        }
      }
    }),
  );
}

/** A fresh record of what clients saw. */
export function newSeen(): Seen {
  return { streamed: [], sent: [], failures: 0 };
}

/** Polls `check` every 50 ms until it returns a value, failing with `what` after `ms`. */
export async function eventually<T>(
  what: string,
  ms: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
