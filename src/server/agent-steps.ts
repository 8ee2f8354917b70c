/**
 * Reading an agent's async iterator: one step at a time, or the next step only if the agent has
 * it ready within a few microtask turns (so the events of one burst share one append). One
 * promise per step besides the iterator's own; waiting is done by the caller's flow
 * (core/maybe-async.ts).
 */
import type { Flow } from '../core/maybe-async.js';
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
 * for I/O), else the promise of it (wrapped, so that it is not waited for).
 */
export function* nextIfReady(
  iterator: AsyncIterator<AgentEvent>,
): Flow<Step | { pending: Promise<Step> }> {
  let step: Step | undefined;
  const pending = read(iterator, (s) => (step = s));
  for (let turn = 0; turn < READY_TURNS && step === undefined; turn++) yield RESOLVED;
  return step ?? { pending };
}

/** The agent's next step (what it threw is a step too). */
export function next(iterator: AsyncIterator<AgentEvent>): Promise<Step> {
  return read(iterator, same);
}

function read(iterator: AsyncIterator<AgentEvent>, seen: (step: Step) => Step): Promise<Step> {
  try {
    return iterator.next().then(seen, (error: unknown) => seen({ error }));
  } catch (error) {
    return Promise.resolve(seen({ error }));
  }
}

const same = (step: Step): Step => step;
