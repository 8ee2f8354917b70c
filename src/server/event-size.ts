/**
 * About how many bytes an event, a message or a task takes as JSON: the lengths of its parts'
 * contents (text, raw, url, data) plus a small allowance per part and per object. It is what
 * memory bounds (a stream's live buffer, a task's history and artifacts, a ListTasks page) count,
 * without serializing the value; it never underestimates a part's content.
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
