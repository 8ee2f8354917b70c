/**
 * One subscriber's view of a task: a snapshot or a replay from the log, then live entries from
 * the bus, in log order with no gaps and no duplicates. Memory per reader is bounded: a catch-up
 * page holds at most `maxPageBytes` (and 200 entries); a reader that falls behind by more than
 * `maxBuffered` live entries or `maxBufferedBytes` is paused: its live buffer is dropped and,
 * when it reads again, it catches up from the store's log one page at a time. It still gets
 * every event, in order, only later; a client whose connection drops resumes with Last-Event-ID.
 */
import { A2AError } from '../core/errors.js';
import { formatEventCursor } from '../core/event-cursor.js';
import { isPromise, run, wait, type Flow, type MaybePromise } from '../core/maybe-async.js';
import { StepIterator } from '../core/ready-iterator.js';
import type { StreamItem } from '../core/service.js';
import type { StreamResponse, TaskState } from '../core/schemas/index.js';
import { taskView } from '../core/task-state.js';
import type { EventBus, LogEntry, Scope, TaskStore } from '../stores/types.js';
import { eventSize } from './event-size.js';

/** Where a stream starts. */
export type StreamStart =
  | { mode: 'snapshot'; historyLength?: number | undefined }
  | {
      mode: 'replay';
      afterSeq: number;
      /** sent before the replay (a Task snapshot) */ first?: StreamItem;
    };

/** Options of {@link openTaskStream}. */
export interface TaskStreamOptions {
  store: TaskStore;
  bus: EventBus;
  scope: Scope;
  taskId: string;
  start: StreamStart;
  /** The stream ends after an event that puts the task in a state for which this is true. */
  closeWhen: (state: TaskState) => boolean;
  /** Aborting ends the stream (the task goes on). */
  signal?: AbortSignal | undefined;
  /**
   * The signal, read only when the stream first has to wait for the bus (an HTTP request's
   * disconnect signal is made when first read: a stream read to its end at once needs none).
   * Used when `signal` is not given.
   */
  signalOf?: (() => AbortSignal | undefined) | undefined;
  /**
   * Read the log before subscribing to the bus: a task whose closing event is already recorded
   * is streamed with no subscription at all; otherwise the stream subscribes once it has read
   * what is there (lazily: a task that closes meanwhile, as its agent's steps run on, needs none
   * either), then reads the log again from where it was, so nothing appended before the
   * subscription took is missed. The subscription is then made while the stream is read: one
   * that fails ends the stream with that error after the events already read (the binding's
   * error frame), where without this option the open rejects. Worth it where the store answers
   * at once (the memory store); when a read returns a promise the stream subscribes while it is
   * pending, reads again after it, and `onPromisedRead` is called (TaskStreams then stops asking
   * for it). Default false: subscribe, then read.
   */
  readFirst?: boolean | undefined;
  /** Called when a read made under `readFirst` returned a promise. */
  onPromisedRead?: (() => void) | undefined;
  /** Live entries buffered for a slow reader before it switches to reading the log. */
  maxBuffered?: number | undefined;
  /** Bytes of live entries (approximate JSON) buffered before that switch; default 4 MiB. */
  maxBufferedBytes?: number | undefined;
  /** Bytes (JSON) of one catch-up page read from the log; default 4 MiB (one entry at least). */
  maxPageBytes?: number | undefined;
  /**
   * What the reader may see of each event (trajectory-views.ts: steps stripped); none: the
   * events as recorded. Applied here rather than by a wrapping iterator (two promises per event).
   */
  view?: ((event: StreamResponse) => StreamResponse) | undefined;
}

const PAGE = 200;
/** Default of `maxBufferedBytes` and `maxPageBytes`. */
export const DEFAULT_STREAM_BYTES = 4 * 1024 * 1024;

/** A task stream with the id of its first event, as a cursor (core/event-cursor.ts). */
export interface TaskStream extends AsyncIterable<StreamItem> {
  /** `B` when the stream starts with entry B (a snapshot), `B+1` when it starts after B. */
  readonly firstEventId: string;
}

/** True for the log entries a stream sends: every one but the messages recorded in the task. */
export function isStreamed(event: StreamResponse): boolean {
  return !('message' in event);
}

/**
 * Subscribes (before reading anything, so nothing is missed; with `readFirst`, once what the
 * log has is read, then reads again) and returns the stream. Rejects with TASK_NOT_FOUND before
 * the stream starts when the snapshot does not exist.
 */
export function openTaskStream(options: TaskStreamOptions): MaybePromise<TaskStream> {
  // One flow (core/maybe-async.ts): nothing to wait for (readFirst, a store that answers at
  // once) opens the stream with no promise; a synchronous TASK_NOT_FOUND is then thrown.
  return run(opening(options));
}

function* opening(options: TaskStreamOptions): Flow<TaskStream> {
  const { store, bus, scope, taskId, start, closeWhen, view, onPromisedRead } = options;
  const maxBuffered = options.maxBuffered ?? 256;
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_STREAM_BYTES;
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_STREAM_BYTES;
  const queue: LogEntry[] = [];
  let queuedBytes = 0;
  let overflow = false;
  let wake: (() => void) | undefined;
  let signal = options.signal;
  // Dropped when the stream ends (`stop`): it holds the caller's call, and with it the request.
  let signalOf = signal === undefined ? options.signalOf : undefined;
  let unsubscribe: (() => void) | undefined;
  const onAbort = () => wake?.();
  const subscribing = (): Promise<void> => {
    if (signalOf !== undefined) signal = signalOf();
    return bus
      .subscribe(scope.tenant, taskId, (entry) => {
        if (!overflow) {
          queuedBytes += eventSize(entry.event);
          if (queue.length >= maxBuffered || (queue.length > 0 && queuedBytes > maxBufferedBytes)) {
            overflow = true; // paused: the log has what is dropped here
            queue.length = 0;
            queuedBytes = 0;
          } else queue.push(entry);
        }
        wake?.();
      })
      .then((stopListening) => {
        if (stopped) return stopListening(); // ended while subscribing
        unsubscribe = stopListening;
        signal?.addEventListener('abort', onAbort);
      });
  };
  let stopped = false;
  const stop = () => {
    stopped = true;
    // What this stream's closures keep of the caller goes with it: the closures themselves may
    // outlive the stream in the young generation's eyes (an old object that pointed at them, dead
    // but not yet collected, keeps them through scavenges), and the call would keep the HTTP
    // request and reply with them (docs/benchmarks.md, "One hidden class per spread object").
    signalOf = undefined;
    if (unsubscribe === undefined) return;
    unsubscribe();
    unsubscribe = undefined;
    signal?.removeEventListener('abort', onAbort);
  };
  let subscribed = options.readFirst !== true;
  if (subscribed) yield subscribing();

  let first: StreamItem | undefined;
  let firstState: TaskState | undefined;
  let lastSeq: number;
  try {
    if (start.mode === 'snapshot') {
      const record = yield* wait(store.get(scope, taskId));
      if (!record)
        throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
      first = { id: String(record.seq), event: { task: taskView(record.task, start) } };
      firstState = record.task.status.state;
      lastSeq = record.seq;
    } else {
      lastSeq = start.afterSeq;
      first = start.first;
      if (first && 'task' in first.event) firstState = first.event.task.status.state;
    }
  } catch (error) {
    stop();
    throw error;
  }

  // One body for both ways of reading the stream (core/ready-iterator.ts): it yields its items,
  // and a promise where it waits, so the events already in the store are read synchronously.
  function* items(): Generator<unknown, void, unknown> {
    try {
      if (first) {
        yield view === undefined ? first : viewed(first, view);
        if (firstState && closeWhen(firstState)) return;
      }
      let catchUp = true;
      // The last catch-up page while it may have been cut at maxPageBytes: measured (its JSON)
      // only if the stream would wait for more, since a page followed by the task's closing event,
      // or by live entries without a gap, was the end of the log as it was read.
      let uncut: LogEntry[] | undefined;
      while (!signal?.aborted) {
        let batch: LogEntry[];
        if (catchUp || overflow) {
          overflow = false;
          queue.length = 0;
          queuedBytes = 0;
          const page = store.events(scope, taskId, lastSeq, PAGE, maxPageBytes);
          if (!subscribed && isPromise(page)) {
            // Not a store that answers at once: subscribed to now, and this read (made before
            // the subscription) is followed by another.
            onPromisedRead?.();
            subscribed = true;
            page.catch(() => undefined); // its failure is thrown below, after the subscription
            yield subscribing();
            batch = (yield page) as LogEntry[];
            catchUp = true;
            uncut = undefined;
          } else {
            batch = yield* wait(page);
            // A full page, or one the store cut at maxPageBytes, is not the end of the log.
            catchUp = batch.length === PAGE;
            uncut = catchUp || batch.length === 0 ? undefined : batch;
          }
        } else if (!subscribed) {
          // All the log had is read and the stream goes on: subscribe, then read again from
          // here, for what was appended before the subscription took.
          subscribed = true;
          yield subscribing();
          catchUp = true;
          uncut = undefined;
          continue;
        } else if (queue.length > 0) {
          batch = queue.splice(0, queue.length);
          queuedBytes = 0;
          if ((batch[0] as LogEntry).seq > lastSeq + 1) {
            catchUp = true; // a gap: the log has what the bus did not bring
            continue;
          }
          uncut = undefined;
        } else if (uncut !== undefined && jsonLength(uncut) >= maxPageBytes) {
          uncut = undefined;
          catchUp = true; // the page was cut: the log has more
          continue;
        } else {
          uncut = undefined;
          yield new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        for (const entry of batch) {
          if (entry.seq <= lastSeq) continue;
          lastSeq = entry.seq;
          const state = stateOf(entry.event);
          if (isStreamed(entry.event)) {
            const event = view === undefined ? entry.event : view(entry.event);
            yield { id: String(entry.seq), event };
          }
          if (state && closeWhen(state)) return;
        }
      }
    } finally {
      stop();
    }
  }
  const firstEventId = first
    ? (first.id ?? String(lastSeq))
    : formatEventCursor({ base: lastSeq, n: 1 });
  return Object.assign(new StepIterator<StreamItem>(items()), { firstEventId });
}

/** An item as `view` shows it (the item itself when its event is unchanged). */
function viewed(item: StreamItem, view: (event: StreamResponse) => StreamResponse): StreamItem {
  const event = view(item.event);
  return event === item.event ? item : { ...item, event };
}

/** The characters of the entries' JSON, as the stores count them for `maxBytes`. */
function jsonLength(batch: readonly LogEntry[]): number {
  let length = 0;
  for (const entry of batch) length += JSON.stringify(entry.event).length;
  return length;
}

/** The task state an event puts the task in, if it changes it. */
function stateOf(event: StreamResponse): TaskState | undefined {
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  if ('task' in event) return event.task.status.state;
  return undefined;
}
