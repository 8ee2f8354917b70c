/**
 * Drives one A2A task for an MCP tool call: sends the message (streaming when the agent can, so
 * status updates become progress), waits until the task is terminal or interrupted, and when it
 * asks for input (INPUT_REQUIRED, AUTH_REQUIRED) lets `ask` answer and continues the same task
 * (spec §3.4.3: a follow-up message with the task's id). Also the wait of a task-mode
 * `tasks/result`, which watches a task that is already running.
 */
import type { A2AClient } from '../client/client.js';
import { textOf, userMessage } from '../core/parts.js';
import type { Message, Part, SendMessageRequest, Task, TaskState } from '../core/schemas/index.js';
import { isInterrupted, isTerminal } from '../core/task-state.js';

/** What the bridge does while a task runs. */
export interface DriveHooks {
  /** A line of progress (a status message or an artifact arriving). */
  progress?: ((text: string) => Promise<void>) | undefined;
  /** Answers a task that asks for input; undefined: stop and report the paused task. */
  ask?: ((task: Task) => Promise<Part[] | undefined>) | undefined;
  /** Aborted when the MCP caller cancels: the A2A task is canceled too. */
  signal?: AbortSignal | undefined;
  /** Extra headers on every A2A call (trace context). */
  headers?: Record<string, string> | undefined;
  /** Polling interval when the agent cannot stream (default 250 ms). */
  pollMs?: number | undefined;
}

const settled = (state: TaskState) => isTerminal(state) || isInterrupted(state);

function progressText(task: Pick<Task, 'status'>): string {
  return textOf(task.status.message) || task.status.state;
}

/** Sends `request`, answering questions through `ask`, until the task settles for good. */
export async function driveMessage(
  client: A2AClient,
  request: SendMessageRequest,
  hooks: DriveHooks,
): Promise<Task | Message> {
  let next: SendMessageRequest | undefined = request;
  let task: Task | undefined;
  while (next) {
    const outcome = await sendOnce(client, next, hooks);
    if ('role' in outcome) return outcome;
    task = outcome;
    next = await answer(task, hooks);
  }
  return task as Task;
}

/** Watches a running task (task mode), answering questions, until it settles for good. */
export async function driveTask(
  client: A2AClient,
  taskId: string,
  hooks: DriveHooks,
): Promise<Task> {
  for (;;) {
    const task = await watch(client, taskId, hooks);
    const next = await answer(task, hooks);
    if (!next) return task;
    await client.sendMessage(
      { ...next, configuration: { returnImmediately: true } },
      callOptions(hooks),
    );
  }
}

async function answer(task: Task, hooks: DriveHooks): Promise<SendMessageRequest | undefined> {
  if (!isInterrupted(task.status.state) || !hooks.ask) return undefined;
  const parts = await hooks.ask(task);
  if (!parts) return undefined;
  const message = userMessage(parts, {
    taskId: task.id,
    ...(task.contextId !== undefined ? { contextId: task.contextId } : {}),
  });
  return { message };
}

function callOptions(hooks: DriveHooks) {
  return { signal: hooks.signal, headers: hooks.headers };
}

/** One SendMessage (streamed when possible), to the end of its stream; the task as it is then. */
async function sendOnce(
  client: A2AClient,
  request: SendMessageRequest,
  hooks: DriveHooks,
): Promise<Task | Message> {
  let taskId = request.message.taskId;
  try {
    if (client.card.capabilities.streaming !== true) {
      const reply = await client.sendMessage(request, callOptions(hooks));
      if ('message' in reply) return reply.message;
      taskId = reply.task.id;
      return settled(reply.task.status.state) ? reply.task : await watch(client, taskId, hooks);
    }
    for await (const event of client.sendStreamingMessage(request, callOptions(hooks))) {
      if ('message' in event) return event.message;
      if ('task' in event) taskId = event.task.id;
      else if ('statusUpdate' in event) {
        taskId = event.statusUpdate.taskId;
        await hooks.progress?.(progressText(event.statusUpdate));
      } else if ('artifactUpdate' in event) {
        taskId = event.artifactUpdate.taskId;
        const a = event.artifactUpdate.artifact;
        if (!event.artifactUpdate.append)
          await hooks.progress?.(`artifact ${a.name ?? a.artifactId}`);
      }
    }
  } catch (error) {
    if (hooks.signal?.aborted && taskId !== undefined) await cancelQuietly(client, taskId);
    throw error;
  }
  if (taskId === undefined) throw new Error('the agent ended its stream without a task or message');
  return watch(client, taskId, hooks);
}

/** The task once it is terminal or interrupted (polled; the agent's stream already ended). */
async function watch(client: A2AClient, taskId: string, hooks: DriveHooks): Promise<Task> {
  let last = '';
  for (;;) {
    let task: Task;
    try {
      task = await client.getTask({ id: taskId }, callOptions(hooks));
    } catch (error) {
      if (hooks.signal?.aborted) await cancelQuietly(client, taskId);
      throw error;
    }
    if (settled(task.status.state)) return task;
    const said = progressText(task);
    if (said !== last) await hooks.progress?.(said);
    last = said;
    if (!(await pause(hooks.pollMs ?? 250, hooks.signal))) {
      await cancelQuietly(client, taskId);
      throw hooks.signal?.reason ?? new Error('aborted');
    }
  }
}

async function cancelQuietly(client: A2AClient, taskId: string): Promise<void> {
  // The caller went away: the tool call was the task, so the task stops too (spec §3.1.5).
  await client.cancelTask({ id: taskId }).catch(() => undefined);
}

/** Waits `ms`; false when `signal` fired first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
