/**
 * Reading an agent's async iterator: one step at a time, and whether the step just asked for
 * has arrived (so the runner can take the next step only if the agent has it ready within a few
 * microtask turns, and the events of one burst share one append: event-batch.ts). One reader per
 * execution, whose two callbacks serve every step: a step costs the iterator's own promise and
 * one `.then`; waiting is done by the caller's flow (core/maybe-async.ts).
 */
import type { AgentEvent } from './agent.js';

/** What the agent's iterator gave: an event, its end, or what it threw. */
export type Step = IteratorResult<AgentEvent> | { error: unknown };

/** Most events recorded in one append. */
export const MAX_BATCH = 64;
/**
 * Microtask turns an agent gets to produce its next event before the events so far are
 * recorded: an async generator yielding without awaiting I/O needs two, three after awaiting a
 * settled value.
 */
export const READY_TURNS = 4;

/** The steps of one agent's iterator, read one after another (never two at once). */
export class AgentSteps {
  /** The step asked for last, once it arrived (undefined while it has not). */
  ready: Step | undefined;
  private readonly seen = (step: IteratorResult<AgentEvent>): Step => (this.ready = step);
  private readonly threw = (error: unknown): Step => (this.ready = { error });

  constructor(readonly iterator: AsyncIterator<AgentEvent>) {}

  /** The agent's next step (what it threw is a step too); `ready` holds it once it arrived. */
  next(): Promise<Step> {
    this.ready = undefined;
    try {
      return this.iterator.next().then(this.seen, this.threw);
    } catch (error) {
      return Promise.resolve(this.threw(error));
    }
  }

  /** Ends the agent's iterator early (what that throws or rejects with is ignored). */
  close(): void {
    void this.iterator.return?.().catch(() => undefined);
  }
}
