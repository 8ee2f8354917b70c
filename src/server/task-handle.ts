/** Builds the events of one task with its ids and timestamps filled in. */
import { newId, now } from '../core/ids.js';
import { createMessage } from '../core/parts.js';
import type { Artifact, Message, Part, TaskState } from '../core/schemas/index.js';
import type { UsageReport } from '../accounting/meter.js';
import {
  TRAJECTORY_EXTENSION,
  trajectoryStep,
  type StepInput,
  type TrajectoryStep,
} from '../core/trajectory.js';
import type { AgentEvent } from './agent.js';
import { withFields } from '../core/with-fields.js';

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

/** The steps of a handle that has none, shared (never pushed to: {@link TaskHandle.step} makes a list). */
const NO_STEPS: TrajectoryStep[] = [];

type StatusEvent = Extract<AgentEvent, { statusUpdate: unknown }>;
type ArtifactEvent = Extract<AgentEvent, { artifactUpdate: unknown }>;

/** The event builder `execute` receives as `task`. */
export class TaskHandle {
  /** Steps recorded with {@link step} and not yet attached to a part (none: a shared empty list). */
  private steps: TrajectoryStep[] = NO_STEPS;

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

  /**
   * Records a step the agent took (a tool call, with input, output and timing). It travels in the
   * metadata of the first part of the next message, artifact or status this handle builds, under
   * the trajectory extension (docs/extensions/trajectory.md); clients that do not activate the
   * extension never see it. A status without content then gets a message naming the tools.
   */
  step(step: StepInput): this {
    if (this.steps === NO_STEPS) this.steps = [];
    this.steps.push(trajectoryStep(step));
    return this;
  }

  /** A status change, with an optional ROLE_AGENT message explaining it. */
  status(state: TaskState, content?: Content): StatusEvent {
    const status: StatusEvent['statusUpdate']['status'] = { state, timestamp: now() };
    if (content === undefined && this.steps.length > 0) {
      content = `Steps: ${this.steps.map((s) => s.tool_name).join(', ')}`;
    }
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
      parts: this.withSteps(typeof content === 'string' ? [{ text: content }] : content),
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
      return {
        ...content,
        parts: this.withSteps(content.parts),
        taskId: this.id,
        contextId: this.contextId,
      };
    }
    const message = createMessage('ROLE_AGENT', content, {
      taskId: this.id,
      contextId: this.contextId,
    });
    return this.steps.length > 0 ? { ...message, parts: this.withSteps(message.parts) } : message;
  }

  /** The parts with the recorded steps added to the first one's metadata (then forgotten). */
  private withSteps(parts: Part[]): Part[] {
    const [first, ...rest] = parts;
    if (this.steps.length === 0 || first === undefined) return parts;
    const steps = this.steps;
    this.steps = NO_STEPS;
    const earlier = first.metadata?.[TRAJECTORY_EXTENSION];
    const all = Array.isArray(earlier) ? [...(earlier as TrajectoryStep[]), ...steps] : steps;
    const metadata = withFields(first.metadata, { [TRAJECTORY_EXTENSION]: all });
    return [withFields(first, { metadata }), ...rest];
  }

  /** A stateless ROLE_AGENT reply: yielded first, it answers without creating a task. */
  reply(content: Content): Message {
    if (typeof content === 'object' && !Array.isArray(content)) {
      const { taskId: _ignored, ...rest } = content;
      return withFields(rest, { contextId: this.contextId });
    }
    return createMessage('ROLE_AGENT', content, { contextId: this.contextId });
  }
}
