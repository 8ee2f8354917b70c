/**
 * About how many bytes an event, a message or a task takes as JSON: the lengths of its parts'
 * contents (text, raw, url, data) plus a small allowance per part and per object. It is what
 * memory bounds (a stream's live buffer, a task's history and artifacts, a ListTasks page) count,
 * without serializing the value; it never underestimates a part's content. {@link TaskBytes}
 * keeps that count for one task as events are recorded: what the per-task budget
 * (`memory.maxTaskBytes`, enforced by task-log.ts) is checked against.
 */
import type { Artifact, Message, Part, StreamResponse, Task } from '../core/schemas/index.js';

const PER_OBJECT = 64;

/** Approximate JSON size of a stream event. */
export function eventSize(event: StreamResponse): number {
  if ('task' in event) return taskSize(event.task);
  if ('message' in event) return messageSize(event.message);
  if ('artifactUpdate' in event) return artifactSize(event.artifactUpdate.artifact);
  const message = event.statusUpdate.status.message;
  return PER_OBJECT + (message ? messageSize(message) : 0);
}

/** Approximate JSON size of a task: its history, artifacts and status message. */
export function taskSize(task: Task): number {
  let size = PER_OBJECT;
  for (const message of task.history ?? []) size += messageSize(message);
  for (const artifact of task.artifacts ?? []) size += artifactSize(artifact);
  if (task.status.message) size += messageSize(task.status.message);
  if (task.metadata) size += jsonLength(task.metadata);
  return size;
}

/** Approximate JSON size of a message. */
export function messageSize(message: Message): number {
  return (
    PER_OBJECT + partsSize(message.parts) + (message.metadata ? jsonLength(message.metadata) : 0)
  );
}

/** Approximate JSON size of an artifact. */
export function artifactSize(artifact: Artifact): number {
  return (
    PER_OBJECT + partsSize(artifact.parts) + (artifact.metadata ? jsonLength(artifact.metadata) : 0)
  );
}

/** What recording a batch would make of a task's bytes (see {@link TaskBytes.measure}). */
export interface TaskBytesAfter {
  readonly total: number;
  /** The bytes after the batch of the artifacts it changed, by id, when it changed two or more. */
  readonly artifacts: ReadonlyMap<string, number> | undefined;
  /** The one artifact the batch changed (`artifacts` undefined), and its bytes after it. */
  readonly artifactId: string | undefined;
  readonly artifactBytes: number;
}

/**
 * The approximate bytes one task holds (history, artifacts, status message), kept as events are
 * recorded: a message or a status message adds to the history, an artifact chunk appended adds
 * its parts, an artifact sent again under its id replaces the old one's bytes. A task with one
 * artifact keeps its bytes in two fields; a map is made for the second artifact id.
 */
export class TaskBytes {
  /** Bytes by artifact id, once the task has two artifact ids or more. */
  private artifacts: Map<string, number> | undefined;
  /** The task's only artifact id so far (and its bytes), while `artifacts` is undefined. */
  private soleId: string | undefined;
  private soleBytes = 0;
  total: number;

  constructor(task: Task) {
    this.total = taskSize(task);
    for (const a of task.artifacts ?? []) this.set(a.artifactId, artifactSize(a));
  }

  /** The bytes after `events`, without recording them. */
  measure(events: readonly StreamResponse[]): TaskBytesAfter {
    let total = this.total;
    // The artifacts the batch changes, after it (the recorded bytes change only on commit): one
    // in two variables, a map from the second.
    let changed: Map<string, number> | undefined;
    let oneId: string | undefined;
    let oneBytes = 0;
    for (const event of events) {
      if ('message' in event) total += messageSize(event.message);
      else if ('statusUpdate' in event) {
        const message = event.statusUpdate.status.message;
        if (message) total += messageSize(message);
      } else if ('artifactUpdate' in event) {
        const { artifact, append } = event.artifactUpdate;
        const id = artifact.artifactId;
        if (changed === undefined && oneId !== undefined && oneId !== id) {
          changed = new Map([[oneId, oneBytes]]);
        }
        const before = changed
          ? changed.has(id)
            ? changed.get(id)
            : this.get(id)
          : id === oneId
            ? oneBytes
            : this.get(id);
        const size = artifactSize(artifact);
        const after = append && before !== undefined ? before + size : size;
        total += after - (before ?? 0);
        if (changed) changed.set(id, after);
        else {
          oneId = id;
          oneBytes = after;
        }
      }
    }
    return changed
      ? { total, artifacts: changed, artifactId: undefined, artifactBytes: 0 }
      : { total, artifacts: undefined, artifactId: oneId, artifactBytes: oneBytes };
  }

  /** Records a measured batch (once it is durable). */
  commit(after: TaskBytesAfter): void {
    this.total = after.total;
    if (after.artifacts !== undefined) {
      for (const [id, bytes] of after.artifacts) this.set(id, bytes);
    } else if (after.artifactId !== undefined) this.set(after.artifactId, after.artifactBytes);
  }

  private get(artifactId: string): number | undefined {
    if (this.artifacts) return this.artifacts.get(artifactId);
    return artifactId === this.soleId ? this.soleBytes : undefined;
  }

  private set(artifactId: string, bytes: number): void {
    if (this.artifacts) this.artifacts.set(artifactId, bytes);
    else if (this.soleId === undefined || this.soleId === artifactId) {
      this.soleId = artifactId;
      this.soleBytes = bytes;
    } else {
      this.artifacts = new Map([
        [this.soleId, this.soleBytes],
        [artifactId, bytes],
      ]);
    }
  }
}

function partsSize(parts: readonly Part[]): number {
  let size = 0;
  for (const part of parts) {
    size += PER_OBJECT;
    if (part.text !== undefined) size += part.text.length;
    if (part.raw !== undefined) size += part.raw.length;
    if (part.url !== undefined) size += part.url.length;
    if (part.data !== undefined) size += jsonLength(part.data);
    if (part.metadata) size += jsonLength(part.metadata);
  }
  return size;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
