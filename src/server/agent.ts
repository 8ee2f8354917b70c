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
import type { AccountingOptions } from '../accounting/options.js';
import { withAccounting } from './accounting.js';
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
  /**
   * Set under the `accounting` option: true when this execution answers the agent's own
   * INPUT_REQUIRED / AUTH_REQUIRED, false on the run an authorization started (whose `message` is
   * then the message that asked the quote).
   */
  readonly resumed?: boolean;
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
  /**
   * Prices and meters the agent's skills with the accounting extension
   * (docs/extensions/accounting.md): `{ price, energy, payers }`. The card declares the
   * extension; a priced request is answered with a quote, runs only under a valid authorization
   * covering it, is metered on the server's clock (time in INPUT_REQUIRED / AUTH_REQUIRED
   * excluded; `task.usage(…)` reports energy, units and steps) and ends with a statement.
   */
  accounting?: AccountingOptions;
}

/**
 * Defines an agent: gives `execute` its types and applies the `accounting` option (the agent
 * returned has it built in). `A2AServer` applies it too, to an agent not made here.
 */
export function createAgent(agent: Agent): Agent {
  const { accounting } = agent;
  return accounting ? withAccounting({ ...agent, accounting }) : agent;
}
