/**
 * Task timelines: every event the inspector saw for a task (spec §3.2.3 StreamResponse), numbered
 * in arrival order, with its time, the SSE id it came with, the state it set or the artifact chunk
 * it carried (append/lastChunk, spec §4.1.7), and the time since the previous event.
 */
import type { StreamResponse } from '../core/schemas/index.js';

/** One event on a timeline. */
export interface TimelineEvent {
  readonly taskId: string;
  /** 1, 2, … per task, in arrival order. */
  readonly seq: number;
  /** Arrival time (ms since the epoch). */
  readonly time: number;
  /** Milliseconds since the previous event of the task (0 for the first). */
  readonly sinceMs: number;
  /** The SSE `id` the event came with, when it came over SSE with one (resume point). */
  readonly sseId?: string | undefined;
  readonly kind: 'task' | 'status' | 'artifact' | 'message';
  /** The task state this event shows (status updates, tasks). */
  readonly state?: string | undefined;
  readonly artifactId?: string | undefined;
  readonly append?: boolean | undefined;
  readonly lastChunk?: boolean | undefined;
  /** The text of the event's parts (status message, chunk, message). */
  readonly text: string;
  readonly event: StreamResponse;
}

const MAX_PER_TASK = 50_000;
const MAX_TASKS = 200;

/** Timelines by task id. */
export class Timelines {
  private readonly byTask = new Map<string, TimelineEvent[]>();

  /** Adds one event (to the task it names) and returns its timeline entry. */
  add(event: StreamResponse, sseId: string | undefined): TimelineEvent {
    const summary = summarize(event);
    let list = this.byTask.get(summary.taskId);
    if (!list) {
      list = [];
      this.byTask.set(summary.taskId, list);
      if (this.byTask.size > MAX_TASKS) {
        const oldest = this.byTask.keys().next().value;
        if (oldest !== undefined) this.byTask.delete(oldest);
      }
    }
    const previous = list[list.length - 1];
    const time = Date.now();
    const entry: TimelineEvent = {
      ...summary,
      seq: (previous?.seq ?? 0) + 1,
      time,
      sinceMs: previous ? time - previous.time : 0,
      ...(sseId !== undefined ? { sseId } : {}),
      event,
    };
    if (list.length < MAX_PER_TASK) list.push(entry);
    return entry;
  }

  /** The events of `taskId` with a seq above `after` (at most `limit`). */
  since(taskId: string, after = 0, limit = 5000): TimelineEvent[] {
    const list = this.byTask.get(taskId) ?? [];
    // seq is 1-based and dense, so the events after `after` start at index `after`.
    return list.slice(after, after + limit);
  }

  /** Task ids with a timeline. */
  tasks(): string[] {
    return [...this.byTask.keys()];
  }
}

type Summary = Omit<TimelineEvent, 'seq' | 'time' | 'sinceMs' | 'sseId' | 'event'>;

function textOfParts(parts: readonly { text?: string | undefined; data?: unknown }[] | undefined) {
  return (parts ?? [])
    .map((p) => p.text ?? (p.data !== undefined ? JSON.stringify(p.data) : ''))
    .join('');
}

function summarize(event: StreamResponse): Summary {
  if ('statusUpdate' in event) {
    const { taskId, status } = event.statusUpdate;
    return {
      taskId,
      kind: 'status',
      state: status.state,
      text: textOfParts(status.message?.parts),
    };
  }
  if ('artifactUpdate' in event) {
    const { taskId, artifact, append, lastChunk } = event.artifactUpdate;
    return {
      taskId,
      kind: 'artifact',
      artifactId: artifact.artifactId,
      append: append ?? false,
      lastChunk: lastChunk ?? false,
      text: textOfParts(artifact.parts),
    };
  }
  if ('task' in event) {
    const { id, status } = event.task;
    return {
      taskId: id,
      kind: 'task',
      state: status.state,
      text: textOfParts(status.message?.parts),
    };
  }
  return {
    taskId: event.message.taskId ?? '',
    kind: 'message',
    text: textOfParts(event.message.parts),
  };
}
