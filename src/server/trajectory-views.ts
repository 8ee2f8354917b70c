/**
 * Answers as the caller may see them (docs/extensions/trajectory.md): trajectory steps only for a
 * call that activated `urn:a2a-kit:extension:trajectory:v1`; for the others every read path
 * (SendMessage, the streams, GetTask, ListTasks, CancelTask) strips them (core/trajectory.ts).
 */
import type { CallContext } from '../core/call-context.js';
import type { StreamResponse } from '../core/schemas/index.js';
import { TRAJECTORY_EXTENSION, withoutTrajectory } from '../core/trajectory.js';

/** True when the call activated the trajectory extension. */
function seesSteps(call: CallContext): boolean {
  return call.activatedExtensions?.includes(TRAJECTORY_EXTENSION) ?? false;
}

/** The value as this caller may see it. */
export function shownTo<T extends object>(call: CallContext, value: T): T {
  return seesSteps(call) ? value : withoutTrajectory(value);
}

/**
 * What this caller may see of each stream event (openTaskStream's `view`): undefined when it
 * sees them as recorded.
 */
export function eventViewOf(
  call: CallContext,
): ((event: StreamResponse) => StreamResponse) | undefined {
  return seesSteps(call) ? undefined : withoutTrajectory;
}
