/**
 * The agent's execution as a child span (`a2a.agent.execute`) of the operation that started it
 * (SendMessage, SendStreamingMessage, a recovery): opened when `execute` starts, ended when it
 * returns or throws, with the task and context ids and the last state the agent yielded. The
 * agent's own code runs with that span active, so its spans, and the calls it makes with an
 * instrumented A2AClient, belong to the task's trace. Also counts running executions.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Agent, AgentEvent, ExecutionContext } from '../server/agent.js';
import { ATTR, SPAN } from './names.js';
import type { TelemetryRuntime } from './runtime.js';

/** `agent` with its executions traced by `runtime`. */
export function tracedAgent(runtime: TelemetryRuntime, agent: Agent): Agent {
  return { ...agent, execute: (context) => execute(runtime, agent, context) };
}

async function* execute(
  runtime: TelemetryRuntime,
  agent: Agent,
  ctx: ExecutionContext,
): AsyncGenerator<AgentEvent> {
  const tracer = runtime.tracer();
  const meters = runtime.metrics();
  if (tracer === undefined && meters === undefined) {
    yield* agent.execute(ctx);
    return;
  }
  const parent = runtime.active();
  const span = tracer?.startSpan(
    SPAN.execute,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [ATTR.agentName]: agent.card.name,
        [ATTR.taskId]: ctx.task.id,
        [ATTR.conversationId]: ctx.task.contextId,
        ...(ctx.message.messageId ? { [ATTR.messageId]: ctx.message.messageId } : {}),
      },
    },
    parent,
  );
  const active = span ? trace.setSpan(parent, span) : parent;
  const labels = { [ATTR.agentName]: agent.card.name };
  meters?.activeTasks.add(1, labels);
  const events = runtime.within(active, () => agent.execute(ctx)[Symbol.asyncIterator]());
  let done = false;
  try {
    for (;;) {
      const step = await runtime.within(active, () => events.next());
      if (step.done === true) break;
      const event = step.value;
      if ('statusUpdate' in event)
        span?.setAttribute(ATTR.taskState, event.statusUpdate.status.state);
      yield event;
    }
    done = true;
  } catch (error) {
    done = true;
    span?.recordException(error instanceof Error ? error : String(error));
    span?.setStatus({ code: SpanStatusCode.ERROR, message: 'the agent threw' });
    span?.setAttribute(ATTR.errorType, error instanceof Error ? error.name : 'Error');
    throw error;
  } finally {
    // Stopped early (a cancel, a halt): the agent's generator is closed too.
    if (!done) await runtime.within(active, () => events.return?.());
    meters?.activeTasks.add(-1, labels);
    span?.end();
  }
}
