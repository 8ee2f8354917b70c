/**
 * The task streams A2AServer opens on its store and bus (task-stream.ts): a caller's stream
 * (SendStreamingMessage, SubscribeToTask: trajectory steps as the caller sees them, its first
 * event id on the call) and the server's own follow of a task to a state (a blocking send).
 */
import type { CallContext } from '../core/call-context.js';
import { after, type MaybePromise } from '../core/maybe-async.js';
import type { StreamResponse, TaskState } from '../core/schemas/index.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import type { EventBus, Scope, TaskStore } from '../stores/types.js';
import type { MemoryLimits } from './server-options.js';
import {
  openTaskStream,
  type StreamStart,
  type TaskStream,
  type TaskStreamOptions,
} from './task-stream.js';
import { eventViewOf } from './trajectory-views.js';

/** Opens task streams with the server's store, bus and stream limits. */
export class TaskStreams {
  /**
   * Whether streams read the log before subscribing (task-stream.ts `readFirst`): only on this
   * process's own bus, and while the store's reads are answered at once (off for good after one
   * that returned a promise). A bus between instances (PostgreSQL, NATS) is subscribed before
   * the log is read, as before: a subscriber on another instance then gets the live events over
   * the bus, in the trace of the instance that wrote them (test/integration/otel-postgres.test.ts),
   * not from a second read of the log.
   */
  private readFirst: boolean;
  private readonly onPromisedRead = () => {
    this.readFirst = false;
  };

  constructor(
    private readonly store: TaskStore,
    private readonly bus: EventBus,
    private readonly limits: MemoryLimits,
  ) {
    this.readFirst = bus instanceof MemoryEventBus;
  }

  /** The caller's stream of a task from `start` until `closeWhen`. */
  forCaller(
    scope: Scope,
    taskId: string,
    call: CallContext,
    start: StreamStart,
    closeWhen: (s: TaskState) => boolean,
  ): MaybePromise<TaskStream> {
    // The signal is read when the stream first waits: a stream read to its end at once makes none.
    const signalOf = () => call.signal;
    const opening = openTaskStream(
      this.options(scope, taskId, start, closeWhen, undefined, signalOf, eventViewOf(call)),
    );
    return after(opening, (stream) => {
      call.firstEventId = stream.firstEventId;
      return stream;
    });
  }

  /** Resolves when the task reaches a state `closeWhen` accepts (or the signal aborts). */
  async follow(
    scope: Scope,
    taskId: string,
    closeWhen: (s: TaskState) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const start: StreamStart = { mode: 'snapshot', historyLength: 0 };
    const stream = await openTaskStream(
      this.options(scope, taskId, start, closeWhen, signal, undefined, undefined),
    );
    for await (const _ of stream) {
      // consumed for its end: the task reached the awaited state
    }
  }

  /**
   * The options of one stream, built as one literal of one shape (spreading optional parts into
   * it made a dictionary-mode object: the copy and every read of it showed in the profiles).
   */
  private options(
    scope: Scope,
    taskId: string,
    start: StreamStart,
    closeWhen: (s: TaskState) => boolean,
    signal: AbortSignal | undefined,
    signalOf: (() => AbortSignal | undefined) | undefined,
    view: ((event: StreamResponse) => StreamResponse) | undefined,
  ): TaskStreamOptions {
    return {
      store: this.store,
      bus: this.bus,
      scope,
      taskId,
      start,
      closeWhen,
      signal,
      signalOf,
      view,
      maxBufferedBytes: this.limits.streamBufferBytes,
      maxPageBytes: this.limits.streamPageBytes,
      readFirst: this.readFirst,
      onPromisedRead: this.onPromisedRead,
    };
  }
}
