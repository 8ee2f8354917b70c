/**
 * One deadline per call: the call timeout covers every attempt and the waits between them, and a
 * call that runs out of time says how long it waited, how many attempts it made, and that the
 * request may have reached the agent (the task may still be running there).
 */
import type { OperationName } from '../core/operations.js';
import { TransportError } from '../transport/errors.js';

/** The task a request is about, when it names one (GetTask, CancelTask, a follow-up message, …). */
export function taskIdOf(operation: OperationName, request: object): string | undefined {
  const fields = request as { id?: unknown; taskId?: unknown; message?: { taskId?: unknown } };
  const id =
    operation === 'SendMessage' || operation === 'SendStreamingMessage'
      ? fields.message?.taskId
      : operation === 'GetTask' || operation === 'CancelTask' || operation === 'SubscribeToTask'
        ? fields.id
        : fields.taskId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** `1 s`, `1.5 s`, `0.25 s`: a duration for people. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
}

/** What a call that ran out of time reports. */
export interface TimedOut {
  operation: OperationName;
  url: string;
  timeoutMs: number;
  elapsedMs: number;
  attempts: number;
  taskId: string | undefined;
  cause: unknown;
}

/** The TIMEOUT error of a call whose deadline passed (its last attempt's error is the cause). */
export function deadlineError(t: TimedOut): TransportError {
  const tries = `${t.attempts} attempt${t.attempts === 1 ? '' : 's'}`;
  const task =
    t.taskId !== undefined
      ? `task ${t.taskId} may still be running on the server`
      : t.operation === 'SendMessage'
        ? 'the message may have reached the agent and its task may still be running on the server'
        : 'the request may still be running on the server';
  return new TransportError(
    'TIMEOUT',
    `${t.operation}: no reply from ${t.url} within ${seconds(t.timeoutMs)} ` +
      `(waited ${seconds(t.elapsedMs)}, ${tries}); ${task}`,
    {
      url: t.url,
      attempts: t.attempts,
      ...(t.taskId !== undefined ? { taskId: t.taskId } : {}),
      cause: t.cause,
    },
  );
}
