/**
 * Answers as the caller may see them (docs/extensions/trajectory.md): trajectory steps only for a
 * call that activated `urn:a2a-kit:extension:trajectory:v1`; for the others every read path
 * (SendMessage, the streams, GetTask, ListTasks, CancelTask) strips them (core/trajectory.ts).
 */
import type { CallContext } from '../core/call-context.js';
import type { StreamItem } from '../core/service.js';
import { TRAJECTORY_EXTENSION, withoutTrajectory } from '../core/trajectory.js';

/** True when the call activated the trajectory extension. */
function seesSteps(call: CallContext): boolean {
  return call.activatedExtensions?.includes(TRAJECTORY_EXTENSION) ?? false;
}

/** The value as this caller may see it. */
export function shownTo<T extends object>(call: CallContext, value: T): T {
  return seesSteps(call) ? value : withoutTrajectory(value);
}

/** A stream as this caller may see it; ending it ends the source (its `return`). */
export function streamShownTo<S extends AsyncIterable<StreamItem>>(
  call: CallContext,
  stream: S,
): S {
  if (seesSteps(call)) return stream;
  let inner: AsyncIterator<StreamItem> | undefined;
  const source = () => (inner ??= stream[Symbol.asyncIterator]());
  const iterator: AsyncIterableIterator<StreamItem> = {
    async next() {
      const result = await source().next();
      if (result.done) return result;
      const item = result.value;
      const event = withoutTrajectory(item.event);
      return { done: false, value: event === item.event ? item : { ...item, event } };
    },
    async return(value?: unknown) {
      return (await source().return?.(value)) ?? { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  // Keeps what the stream carries besides its items (firstEventId).
  return Object.assign(Object.create(stream) as S, {
    [Symbol.asyncIterator]: () => iterator,
  });
}
