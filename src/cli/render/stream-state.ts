/**
 * What a stream has said so far: the task (rebuilt from its events with the core projection),
 * its state, the artifact chunks counted, or the single message of a message-only reply.
 */
import { TaskProjection } from '../../core/task-state.js';
import type { Message, StreamResponse, Task, TaskState } from '../../core/schemas/index.js';

/** The state of one stream after each event. */
export class StreamState {
  private projection: TaskProjection | undefined;
  /** The reply, when the agent answered with a message instead of a task. */
  message: Message | undefined;
  /** Artifact update events received. */
  chunks = 0;
  /** Every event received. */
  events = 0;
  /** Chunk number within each artifact, by artifactId. */
  private readonly chunkOf = new Map<string, number>();

  /** The task as rebuilt so far. */
  get task(): Task | undefined {
    return this.projection?.task;
  }

  /** The latest state, if a task exists. */
  get state(): TaskState | undefined {
    return this.projection?.task.status.state;
  }

  /** Applies one event; returns the chunk number (1-based) for artifact updates, else 0. */
  apply(event: StreamResponse): number {
    this.events++;
    if ('task' in event) {
      // A new snapshot (first event, or after an automatic resume) replaces the projection.
      this.projection = new TaskProjection(event.task);
      return 0;
    }
    if ('message' in event) {
      if (!this.projection) this.message = event.message;
      return 0;
    }
    let chunk = 0;
    if ('artifactUpdate' in event) {
      this.chunks++;
      const id = event.artifactUpdate.artifact.artifactId;
      chunk = event.artifactUpdate.append ? (this.chunkOf.get(id) ?? 0) + 1 : 1;
      this.chunkOf.set(id, chunk);
    }
    if (!this.projection) {
      // A stream that did not start with the task (not what the spec allows; be lenient).
      const taskId =
        'statusUpdate' in event ? event.statusUpdate.taskId : event.artifactUpdate.taskId;
      const contextId =
        'statusUpdate' in event ? event.statusUpdate.contextId : event.artifactUpdate.contextId;
      this.projection = new TaskProjection({
        id: taskId,
        contextId,
        status: { state: 'TASK_STATE_SUBMITTED' },
      });
    }
    try {
      this.projection.apply(event);
    } catch {
      // An event the state machine refuses (e.g. after a terminal state) is shown, not applied.
    }
    return chunk;
  }
}
