/**
 * Reading an agent's async iterator: one step at a time, or the next step only if the agent has
 * it ready within a few microtask turns (so the events of one burst share one append).
 */
import type { AgentEvent } from './agent.js';
import { RESOLVED } from './execution.js';

/** What the agent's iterator gave: an event, its end, or what it threw. */
export type Step = IteratorResult<AgentEvent> | { error: unknown };

/** Most events recorded in one append. */
export const MAX_BATCH = 64;
/**
 * Microtask turns an agent gets to produce its next event before the events so far are
 * recorded: an async generator yielding without awaiting I/O needs two, three after awaiting a
 * settled value.
 */
const READY_TURNS = 4;

/**
 * The agent's next step if it is ready within a few microtask turns (it yields without waiting
 * for I/O), else the promise of it (wrapped: an async function would wait for a returned one).
 */
export async function nextIfReady(
  iterator: AsyncIterator<AgentEvent>,
): Promise<Step | { pending: Promise<Step> }> {
  let step: Step | undefined;
  const pending = next(iterator).then((s) => (step = s));
  for (let turn = 0; turn < READY_TURNS && step === undefined; turn++) await RESOLVED;
  return step ?? { pending };
}

export async function next(iterator: AsyncIterator<AgentEvent>): Promise<Step> {
  try {
    return await iterator.next();
  } catch (error) {
    return { error };
  }
}
