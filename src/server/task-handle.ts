/** Builds the events of one task with its ids and timestamps filled in. */
import { newId, now } from '../core/ids.js';
import { createMessage } from '../core/parts.js';
import type { Artifact, Message, Part, TaskState } from '../core/schemas/index.js';
import type { UsageReport } from '../accounting/meter.js';
import type { AgentEvent } from './agent.js';

/** Text, parts or a whole message, for status messages and replies. */
export type Content = string | Part[] | Message;

/** Options of an artifact chunk. */
export interface ArtifactOptions {
  /** Defaults to a new id; reuse one with `append: true` to stream chunks of one artifact. */
  artifactId?: string;
  name?: string;
  description?: string;
  /** Append these parts to the artifact with the same id sent before. */
  append?: boolean;
  /** This is the last chunk of the artifact. */
  lastChunk?: boolean;
  metadata?: Record<string, unknown>;
  extensions?: string[];
}

type StatusEvent = Extract<AgentEvent, { statusUpdate: unknown }>;
type ArtifactEvent = Extract<AgentEvent, { artifactUpdate: unknown }>;

/** The event builder `execute` receives as `task`. */
export class TaskHandle {
  constructor(
    readonly id: string,
    readonly contextId: string,
    private readonly meter?: (report: UsageReport) => void,
  ) {}

  /**
   * Reports energy, units of output or a named step to the task's meter (the `accounting`
   * option of `createAgent`, docs/extensions/accounting.md §5); ignored by an agent without it.
   */
  usage(report: UsageReport): void {
    this.meter?.(report);
  }

  /** A status change, with an optional ROLE_AGENT message explaining it. */
  status(state: TaskState, content?: Content): StatusEvent {
    const status: StatusEvent['statusUpdate']['status'] = { state, timestamp: now() };
    if (content !== undefined) status.message = this.message(content);
    return { statusUpdate: { taskId: this.id, contextId: this.contextId, status } };
  }

  submitted(content?: Content): StatusEvent {
    return this.status('TASK_STATE_SUBMITTED', content);
  }
  working(content?: Content): StatusEvent {
    return this.status('TASK_STATE_WORKING', content);
  }
  /** Pauses the task until the client answers on the same taskId (spec §3.4.3). */
  inputRequired(content: Content): StatusEvent {
    return this.status('TASK_STATE_INPUT_REQUIRED', content);
  }
  /** Pauses the task until authorization arrives; say what is needed (spec §7.6.1). */
  authRequired(content: Content): StatusEvent {
    return this.status('TASK_STATE_AUTH_REQUIRED', content);
  }
  completed(content?: Content): StatusEvent {
    return this.status('TASK_STATE_COMPLETED', content);
  }
  failed(content?: Content): StatusEvent {
    return this.status('TASK_STATE_FAILED', content);
  }
  rejected(content?: Content): StatusEvent {
    return this.status('TASK_STATE_REJECTED', content);
  }
  canceled(content?: Content): StatusEvent {
    return this.status('TASK_STATE_CANCELED', content);
  }

  /** An artifact (or a chunk of one); a string becomes one text part. */
  artifact(content: string | Part[], options: ArtifactOptions = {}): ArtifactEvent {
    const { append, lastChunk, artifactId, ...rest } = options;
    const artifact: Artifact = {
      artifactId: artifactId ?? newId(),
      ...rest,
      parts: typeof content === 'string' ? [{ text: content }] : content,
    };
    const event: ArtifactEvent['artifactUpdate'] = {
      taskId: this.id,
      contextId: this.contextId,
      artifact,
    };
    if (append) event.append = true;
    if (lastChunk) event.lastChunk = true;
    return { artifactUpdate: event };
  }

  /** A ROLE_AGENT message belonging to this task. */
  message(content: Content): Message {
    if (typeof content === 'object' && !Array.isArray(content)) {
      return { ...content, taskId: this.id, contextId: this.contextId };
    }
    return createMessage('ROLE_AGENT', content, { taskId: this.id, contextId: this.contextId });
  }

  /** A stateless ROLE_AGENT reply: yielded first, it answers without creating a task. */
  reply(content: Content): Message {
    if (typeof content === 'object' && !Array.isArray(content)) {
      const { taskId: _ignored, ...rest } = content;
      return { ...rest, contextId: this.contextId };
    }
    return createMessage('ROLE_AGENT', content, { contextId: this.contextId });
  }
}
