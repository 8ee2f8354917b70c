/**
 * The task streams A2AServer opens on its store and bus (task-stream.ts): a caller's stream
 * (SendStreamingMessage, SubscribeToTask: trajectory steps as the caller sees them, its first
 * event id on the call) and the server's own follow of a task to a state (a blocking send).
 */
import type { CallContext } from '../core/call-context.js';
import type { TaskState } from '../core/schemas/index.js';
import type { EventBus, Scope, TaskStore } from '../stores/types.js';
import type { MemoryLimits } from './server-options.js';
import { openTaskStream, type StreamStart, type TaskStream } from './task-stream.js';
import { eventViewOf } from './trajectory-views.js';

/** Opens task streams with the server's store, bus and stream limits. */
export class TaskStreams {
  constructor(
    private readonly store: TaskStore,
    private readonly bus: EventBus,
    private readonly limits: MemoryLimits,
  ) {}

  /** The caller's stream of a task from `start` until `closeWhen`. */
  async forCaller(
    scope: Scope,
    taskId: string,
    call: CallContext,
    start: StreamStart,
    closeWhen: (s: TaskState) => boolean,
  ): Promise<TaskStream> {
    const view = eventViewOf(call);
    const stream = await openTaskStream({
      ...this.base(scope, taskId, call.signal),
      start,
      closeWhen,
      view,
    });
    call.firstEventId = stream.firstEventId;
    return stream;
  }

  /** Resolves when the task reaches a state `closeWhen` accepts (or the signal aborts). */
  async follow(
    scope: Scope,
    taskId: string,
    closeWhen: (s: TaskState) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const stream = await openTaskStream({
      ...this.base(scope, taskId, signal),
      start: { mode: 'snapshot', historyLength: 0 },
      closeWhen,
    });
    for await (const _ of stream) {
      // consumed for its end: the task reached the awaited state
    }
  }

  private base(scope: Scope, taskId: string, signal: AbortSignal | undefined) {
    const { streamBufferBytes, streamPageBytes } = this.limits;
    return {
      store: this.store,
      bus: this.bus,
      scope,
      taskId,
      signal,
      ...(streamBufferBytes === undefined ? {} : { maxBufferedBytes: streamBufferBytes }),
      ...(streamPageBytes === undefined ? {} : { maxPageBytes: streamPageBytes }),
    };
  }
}
