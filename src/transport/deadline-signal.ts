/**
 * Shared abort signals for the deadlines of unary calls. An AbortController and a timer of its
 * own per call cost more client CPU than the rest of a small call (every AbortSignal is made
 * transferable, and fetch follows it); calls whose deadlines fall in the same short slot share
 * one signal and one timer instead. A call is aborted at the end of its slot: never before its
 * deadline, at most 1 % of its timeout (and at most 100 ms) after it. Timeouts under 1 s are
 * not shared (the caller gives them a controller of their own, exact to the millisecond).
 */

/** The reason a shared deadline signal aborts with; the exchange turns it into its TIMEOUT. */
export const DEADLINE_PASSED: unique symbol = Symbol('a2a-kit deadline passed');

/** Shortest timeout that shares a signal, ms. */
export const SHARED_FROM_MS = 1000;
const MAX_SLOT_MS = 100;
/** Calls per signal before a slot starts a fresh one (fetch adds a listener per call). */
const USES_PER_SIGNAL = 1000;

interface Slot {
  readonly controller: AbortController;
  uses: number;
}

const slots = new Map<number, Slot>();

/**
 * Node's `events.setMaxListeners`, where the runtime has it: a shared signal has one listener per
 * call in flight by design, past the 10 after which Node warns of a leak.
 */
const setMaxListeners = (
  (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:events') as
    { setMaxListeners?: (n: number, ...targets: EventTarget[]) => void } | undefined
)?.setMaxListeners;

/**
 * The shared signal of a call whose deadline is `timeoutMs` from now (`timeoutMs` ≥
 * {@link SHARED_FROM_MS}); it aborts with {@link DEADLINE_PASSED} once the slot has ended.
 */
export function sharedDeadline(timeoutMs: number, now: number = Date.now()): AbortSignal {
  const width = Math.min(MAX_SLOT_MS, Math.floor(timeoutMs / 100));
  const end = Math.ceil((now + timeoutMs) / width) * width;
  let slot = slots.get(end);
  if (slot === undefined || slot.uses >= USES_PER_SIGNAL) {
    const controller = new AbortController();
    setMaxListeners?.(USES_PER_SIGNAL + 1, controller.signal);
    const fresh: Slot = { controller, uses: 0 };
    slot = fresh;
    slots.set(end, fresh);
    const timer = setTimeout(
      () => {
        if (slots.get(end) === fresh) slots.delete(end);
        controller.abort(DEADLINE_PASSED);
      },
      Math.max(0, end - now),
    );
    // The request in flight keeps the process alive, not the deadline of a call that ended.
    (timer as { unref?: () => void }).unref?.();
  }
  slot.uses++;
  return slot.controller.signal;
}
