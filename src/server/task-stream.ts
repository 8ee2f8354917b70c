/**
 * One subscriber's view of a task: a snapshot or a replay from the log, then live entries from
 * the bus, in log order with no gaps and no duplicates. A slow reader never grows memory without
 * bound: past `maxBuffered` live entries it drops them and catches up from the store's log.
 */
import { A2AError } from '../core/errors.js';
import type { StreamItem } from '../core/service.js';
import type { StreamResponse, TaskState } from '../core/schemas/index.js';
import { taskView } from '../core/task-state.js';
import type { EventBus, LogEntry, Scope, TaskStore } from '../stores/types.js';

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
  /** Live entries buffered for a slow reader before it switches to reading the log. */
  maxBuffered?: number;
}

const PAGE = 200;

/**
 * Subscribes (before reading anything, so nothing is missed) and returns the stream. Rejects
 * with TASK_NOT_FOUND before the stream starts when the snapshot does not exist.
 */
export async function openTaskStream(
  options: TaskStreamOptions,
): Promise<AsyncIterable<StreamItem>> {
  const { store, bus, scope, taskId, start, closeWhen, signal } = options;
  const maxBuffered = options.maxBuffered ?? 256;
  const queue: LogEntry[] = [];
  let overflow = false;
  let wake: (() => void) | undefined;
  const unsubscribe = await bus.subscribe(taskId, (entry) => {
    if (!overflow && queue.length >= maxBuffered) {
      overflow = true;
      queue.length = 0;
    } else if (!overflow) queue.push(entry);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  const stop = () => {
    unsubscribe();
    signal?.removeEventListener('abort', onAbort);
  };

  let first: StreamItem | undefined;
  let firstState: TaskState | undefined;
  let lastSeq: number;
  try {
    if (start.mode === 'snapshot') {
      const record = await store.get(scope, taskId);
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

  async function* items(): AsyncGenerator<StreamItem> {
    try {
      if (first) {
        yield first;
        if (firstState && closeWhen(firstState)) return;
      }
      let catchUp = true;
      while (!signal?.aborted) {
        let batch: LogEntry[];
        if (catchUp || overflow) {
          overflow = false;
          queue.length = 0;
          batch = await store.events(scope, taskId, lastSeq, PAGE);
          catchUp = batch.length === PAGE;
        } else if (queue.length > 0) {
          batch = queue.splice(0, queue.length);
          if ((batch[0] as LogEntry).seq > lastSeq + 1) {
            catchUp = true; // a gap: the log has what the bus did not bring
            continue;
          }
        } else {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        for (const entry of batch) {
          if (entry.seq <= lastSeq) continue;
          lastSeq = entry.seq;
          const state = stateOf(entry.event);
          if (!('message' in entry.event)) yield { id: String(entry.seq), event: entry.event };
          if (state && closeWhen(state)) return;
        }
      }
    } finally {
      stop();
    }
  }
  return items();
}

/** The task state an event puts the task in, if it changes it. */
function stateOf(event: StreamResponse): TaskState | undefined {
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  if ('task' in event) return event.task.status.state;
  return undefined;
}
