/**
 * Automatic resumption of a dropped task stream (spec §3.5.1, requirement 122 of test/conformance/requirements.ts; users' pain:
 * A2A#1635). When a stream breaks or ends before its task is terminal or interrupted, it is
 * reopened with SubscribeToTask + `Last-Event-ID` (gRPC: `last-event-id` metadata) of the last
 * event seen; events the server sends again are dropped by their id, so the caller sees every
 * event exactly once. Bounded attempts with backoff; the budget is restored whenever an event
 * arrives.
 */
import { A2AError } from '../core/errors.js';
import { isRepeatEventId } from '../core/event-cursor.js';
import type { StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import { isSettled } from '../core/task-state.js';
import { TransportError } from '../transport/errors.js';
import {
  backoffDelay,
  isRetryable,
  sleep as defaultSleep,
  type RetryEnvironment,
  type RetryOptions,
} from './retry.js';
import type { StreamItem } from '../transport/transport.js';

/** Default resume policy: up to 5 reconnections in a row without an event in between. */
export const DEFAULT_RESUME: {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
} = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
};

/** A reconnection about to happen, for logging. */
export interface ResumeNotice {
  taskId: string;
  lastEventId: string | undefined;
  attempt: number;
  delayMs: number;
  error: unknown;
}

/** How to open, reopen and (if the task finished meanwhile) read a task. */
export interface ResumeOptions extends RetryEnvironment {
  /** Opens the original stream. */
  open: () => AsyncIterable<StreamItem>;
  /** Reopens the task's stream after `lastEventId` (SubscribeToTask). */
  resubscribe: (taskId: string, lastEventId: string | undefined) => AsyncIterable<StreamItem>;
  /** Reads the task when it can no longer be subscribed to because it finished (spec §3.1.6). */
  getTask: (taskId: string) => Promise<Task>;
  /** `maxAttempts` = reconnections in a row without progress (default 5). */
  policy?: RetryOptions | undefined;
  /**
   * After a resume, end the stream at the first event that settles the task (terminal or
   * interrupted), as the server ends the original SendStreamingMessage stream; the resumed
   * SubscribeToTask would stay open past INPUT_REQUIRED (§3.1.6 closes it only when terminal).
   */
  stopWhenSettled?: boolean | undefined;
  /**
   * The stream answers a message on an existing task: its opening snapshot may predate that
   * message (still INPUT_REQUIRED), so it does not settle the stream.
   */
  followUp?: boolean | undefined;
  /** The resume point the caller starts from (a manual `lastEventId`). */
  lastEventId?: string | undefined;
  signal?: AbortSignal | undefined;
  onResume?: ((notice: ResumeNotice) => void) | undefined;
}

/** True when event `id` is not newer than `last` (sequence numbers and gRPC cursors). */
export const isRepeat: (id: string, last: string | undefined) => boolean = isRepeatEventId;

/** The stream of `options.open()`, resumed transparently until its task settles. */
export async function* resumableStream(options: ResumeOptions): AsyncGenerator<StreamItem> {
  const policy = {
    maxAttempts: options.policy?.maxAttempts ?? DEFAULT_RESUME.maxAttempts,
    baseDelayMs: options.policy?.baseDelayMs ?? DEFAULT_RESUME.baseDelayMs,
    maxDelayMs: options.policy?.maxDelayMs ?? DEFAULT_RESUME.maxDelayMs,
  };
  const wait = options.sleep ?? defaultSleep;
  let lastId = options.lastEventId;
  let taskId: string | undefined;
  let state: TaskState | undefined;
  let messageOnly = false;
  let seen = 0;
  let failures = 0;
  let source = options.open();
  let resumed = false;

  for (;;) {
    let error: unknown;
    try {
      for await (const item of source) {
        if (item.id !== undefined) {
          if (isRepeat(item.id, lastId)) continue;
          lastId = item.id;
        }
        seen++;
        failures = 0;
        const { event } = item;
        const observed = observe(event);
        if (observed.taskId) taskId = observed.taskId;
        // The opening snapshot may predate the message that opened the stream (a follow-up on a
        // paused task can start with the old INPUT_REQUIRED state): it never settles the stream.
        const opening = options.followUp === true && seen === 1 && !resumed && 'task' in event;
        if (observed.state && !opening) state = observed.state;
        if ('message' in event && taskId === undefined) messageOnly = true;
        yield item;
        if (resumed && options.stopWhenSettled && state !== undefined && isSettled(state)) return;
      }
      if (messageOnly || (state !== undefined && isSettled(state))) return;
      if (seen === 0 && taskId === undefined) {
        throw new TransportError('STREAM_CLOSED', 'the stream ended before its first event');
      }
      error = new TransportError(
        'STREAM_CLOSED',
        `the stream of task ${taskId} ended while the task was ${state ?? 'running'}`,
      );
    } catch (caught) {
      // A pipe that breaks once the task has settled loses nothing; a spec error is always news.
      const settled = messageOnly || (state !== undefined && isSettled(state));
      if (settled && !(caught instanceof A2AError)) return;
      if (
        resumed &&
        caught instanceof A2AError &&
        caught.code === 'UNSUPPORTED_OPERATION' &&
        taskId !== undefined
      ) {
        // The task may have finished while we were away: SubscribeToTask refuses terminal tasks
        // (§3.1.6). Its final snapshot ends the stream; otherwise the refusal stands.
        const current = await options.getTask(taskId);
        if (!isSettled(current.status.state)) throw caught;
        yield { event: { task: current } };
        return;
      }
      if (settled) throw caught;
      const resumable =
        caught instanceof TransportError && caught.code === 'STREAM_CLOSED'
          ? seen > 0
          : isRetryable(caught);
      if (!resumable || taskId === undefined || options.signal?.aborted) throw caught;
      error = caught;
    }
    if (taskId === undefined) throw error;
    failures++;
    if (failures > policy.maxAttempts) {
      throw new TransportError(
        'STREAM_CLOSED',
        `the stream of task ${taskId} dropped and could not be resumed after ${policy.maxAttempts} attempt(s): ${message(error)}`,
        { cause: error },
      );
    }
    const delayMs = backoffDelay(failures, policy, options.random);
    options.onResume?.({ taskId, lastEventId: lastId, attempt: failures, delayMs, error });
    await wait(delayMs, options.signal);
    source = options.resubscribe(taskId, lastId);
    resumed = true;
  }
}

/** The task id and state an event reveals. */
function observe(event: StreamResponse): { taskId?: string; state?: TaskState } {
  if ('task' in event) return { taskId: event.task.id, state: event.task.status.state };
  if ('statusUpdate' in event)
    return { taskId: event.statusUpdate.taskId, state: event.statusUpdate.status.state };
  if ('artifactUpdate' in event) return { taskId: event.artifactUpdate.taskId };
  return event.message.taskId !== undefined ? { taskId: event.message.taskId } : {};
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
