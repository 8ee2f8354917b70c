/**
 * What the bench's echo agents do, chosen by the text of the user message, identical for every
 * SDK so the targets do the same work:
 * - anything else: WORKING, one artifact `echo: <text>`, COMPLETED (the echo agent);
 * - `events N`: WORKING, one turn of the event loop (see {@link longTaskPause}), N chunks appended
 *   to one artifact, COMPLETED (a long task);
 * - `hold`: WORKING, then waits until the bench releases it (an open stream).
 */

/** The behaviour a message asks for. */
export type Mode = { kind: 'echo' } | { kind: 'events'; count: number } | { kind: 'hold' };

const EVENTS = /^events (\d+)$/;

/** Reads the mode from the message text. */
export function parseMode(text: string): Mode {
  if (text === 'hold') return { kind: 'hold' };
  const match = EVENTS.exec(text);
  if (match?.[1] !== undefined) return { kind: 'events', count: Number(match[1]) };
  return { kind: 'echo' };
}

/** The text of each chunk of a long task (small, so the cost measured is the SDK's). */
export const CHUNK_TEXT = 'chunk';

/**
 * What a long task does after WORKING, before its chunks: it lets the event loop turn once. A
 * long task is still running when its stream opens, so every size (0 chunks included) is
 * streamed live from the event bus; without the pause a task of 0 chunks could be over before
 * its stream reads the log, and the per-event cost of the others would carry the subscription.
 */
export function longTaskPause(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const holds = new Set<() => void>();

/** Resolves when {@link releaseHolds} runs or `signal` aborts. */
export function held(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      holds.delete(done);
      resolve();
    };
    holds.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Lets every held task finish; returns how many there were. */
export function releaseHolds(): number {
  const waiting = [...holds];
  for (const done of waiting) done();
  return waiting.length;
}
