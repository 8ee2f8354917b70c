/** How an application defines an agent: its card and an `execute` that yields events. */
import type {
  AgentCard,
  Message,
  SendMessageConfiguration,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '../core/schemas/index.js';
import type { CallContext } from '../core/call-context.js';
import type { TaskHandle } from './task-handle.js';

/** What `execute` yields: a reply Message (no task), a status change, or an artifact chunk. */
export type AgentEvent =
  Message | { statusUpdate: TaskStatusUpdateEvent } | { artifactUpdate: TaskArtifactUpdateEvent };

/** Everything `execute` gets for one incoming message. */
export interface ExecutionContext {
  /** The user message that started or resumed this execution. */
  readonly message: Message;
  /** Builds this task's events with its ids filled in. */
  readonly task: TaskHandle;
  /** The task as it was before this message (undefined for a new task). */
  readonly current: Task | undefined;
  /**
   * True when this server took the task over from an instance that stopped while running it
   * (the agent declared `recovery: 'resume'`): `message` is the task's last user message and
   * `current` the task as recorded so far; `configuration` and `metadata` are not kept.
   */
  readonly recovered: boolean;
  /** Aborted when the task is canceled: stop work and return. */
  readonly signal: AbortSignal;
  /** Tenant, principal and activated extensions of the call. */
  readonly call: CallContext;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Record<string, unknown> | undefined;
}

/** The card an agent declares; `supportedInterfaces` is filled in by the server that serves it. */
export type AgentCardConfig = Omit<
  AgentCard,
  'supportedInterfaces' | 'capabilities' | 'defaultInputModes' | 'defaultOutputModes'
> &
  Partial<
    Pick<
      AgentCard,
      'supportedInterfaces' | 'capabilities' | 'defaultInputModes' | 'defaultOutputModes'
    >
  >;

/** An agent: a card and the code that runs for each message. */
export interface Agent {
  readonly card: AgentCardConfig;
  /**
   * Runs for each message that creates a task or continues a paused one. Yield a Message first
   * for a stateless reply, or task events (`task.working()`, `task.artifact(...)`,
   * `task.completed()`, `task.inputRequired(...)`). Throwing fails the task.
   */
  execute(context: ExecutionContext): AsyncIterable<AgentEvent>;
  /**
   * The extended card for authenticated callers (GetExtendedAgentCard, spec §3.1.11); set
   * `capabilities.extendedAgentCard` to offer it. A function gets the caller and the public card
   * as served (interfaces and capabilities filled in, unsigned), so the extended card can be that
   * card plus what only authenticated callers see: `(call, card) => ({ ...card, skills: [...] })`.
   */
  extendedCard?:
    AgentCard | ((call: CallContext, publicCard: AgentCard) => AgentCard | Promise<AgentCard>);
  /**
   * What another instance does with a task whose server stopped while running it: `'fail'`
   * (default) records FAILED with a status message saying so; `'resume'` runs `execute` again
   * with `recovered: true` (declare it only if running the task again from its recorded state is
   * safe).
   */
  recovery?: 'resume' | 'fail';
}

/** Defines an agent (identity function that gives `execute` its types). */
export function createAgent(agent: Agent): Agent {
  return agent;
}
