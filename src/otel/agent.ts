/**
 * The agent's execution as a child span (`a2a.agent.execute`) of the operation that started it
 * (SendMessage, SendStreamingMessage, a recovery): opened when `execute` starts, ended when it
 * returns or throws, with the task and context ids and the last state the agent yielded. The
 * agent's own code runs with that span active, so its spans, and the calls it makes with an
 * instrumented A2AClient, belong to the task's trace. Also counts running executions.
 *
 * With nothing registered `execute` is the agent's own (no wrapper). Otherwise the wrapper is a
 * plain async iterator rather than an async generator: a generator around a generator costs a
 * promise chain per step, the hot path of every send.
 */
import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { Agent, AgentEvent, ExecutionContext } from '../server/agent.js';
import type { Tally } from './instruments.js';
import { ATTR, SPAN } from './names.js';
import { rejected, type TelemetryRuntime } from './runtime.js';

/** `agent` with its executions traced by `runtime`. */
export function tracedAgent(runtime: TelemetryRuntime, agent: Agent): Agent {
  return {
    ...agent,
    execute(ctx) {
      const tracer = runtime.tracer();
      const meters = runtime.metrics();
      if (tracer === undefined && meters === undefined) return agent.execute(ctx);
      const running = meters?.activeTasks.get(agent.card.name);
      if (running) running.value++;
      if (tracer === undefined) {
        // Metrics only: no span, no context to carry.
        const events = agent.execute(ctx)[Symbol.asyncIterator]();
        return new TracedExecution(runtime, undefined, events, undefined, running);
      }
      const parent = runtime.active();
      const span = tracer.startSpan(
        SPAN.execute,
        { kind: SpanKind.INTERNAL, attributes: startAttributes(agent, ctx) },
        parent,
      );
      const active = trace.setSpan(parent, span);
      const events = runtime.within(active, () => agent.execute(ctx)[Symbol.asyncIterator]());
      return new TracedExecution(runtime, active, events, span, running);
    },
  };
}

function startAttributes(agent: Agent, ctx: ExecutionContext): Attributes {
  const attributes: Attributes = {
    [ATTR.agentName]: agent.card.name,
    [ATTR.taskId]: ctx.task.id,
    [ATTR.conversationId]: ctx.task.contextId,
  };
  if (ctx.message.messageId) attributes[ATTR.messageId] = ctx.message.messageId;
  return attributes;
}

/** One execution's events, each step run with the execution's span active (when traced). */
class TracedExecution implements AsyncIterableIterator<AgentEvent> {
  private done = false;
  /** The last state the agent yielded, set on the span when it ends. */
  private state: string | undefined;

  constructor(
    private readonly runtime: TelemetryRuntime,
    private readonly active: Context | undefined,
    private readonly events: AsyncIterator<AgentEvent>,
    private readonly span: Span | undefined,
    private readonly running: Tally | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * The agent's own step promise, returned as is (so the step is ready as soon as without
   * tracing: the server batches the events an agent yields back to back into one append),
   * observed on the side.
   */
  next(): Promise<IteratorResult<AgentEvent>> {
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    const step =
      this.active === undefined ? this.events.next() : this.runtime.within(this.active, this.step);
    step.then(this.observe, this.fail);
    return step;
  }

  private readonly step = () => this.events.next();

  private readonly observe = (step: IteratorResult<AgentEvent>): void => {
    if (step.done === true) this.finish(false);
    else if ('statusUpdate' in step.value) this.state = step.value.statusUpdate.status.state;
  };

  private readonly fail = (error: unknown): void => this.finish(true, error);

  /** Stopped early (a cancel, a halt): the agent's generator is closed too. */
  return(value?: unknown): Promise<IteratorResult<AgentEvent>> {
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    const close = () => Promise.resolve(this.events.return?.(value));
    let closed: Promise<unknown>;
    try {
      closed = this.active === undefined ? close() : this.runtime.within(this.active, close);
    } catch (error) {
      closed = rejected(error);
    }
    // A reaction rather than an async function: fewer promises on every send's last step.
    return closed.then(
      () => {
        this.finish(false);
        return { done: true, value: undefined };
      },
      (error: unknown) => {
        this.finish(true, error);
        throw error;
      },
    );
  }

  private finish(failed: boolean, error?: unknown): void {
    if (this.done) return;
    this.done = true;
    if (this.running) this.running.value--;
    const span = this.span;
    if (span === undefined) return;
    if (this.state !== undefined) span.setAttribute(ATTR.taskState, this.state);
    if (failed) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the agent threw' });
      span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : 'Error');
    }
    span.end();
  }
}
