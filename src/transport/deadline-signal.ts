/**
 * Shared abort signals for the deadlines of unary calls. An AbortController and a timer of its
 * own per call cost more client CPU than the rest of a small call (every AbortSignal is made
 * transferable, and fetch follows it); calls whose deadlines fall in the same short slot share
 * one signal and one timer instead. A call is aborted at the end of its slot: never before its
 * deadline, at most 1 % of its timeout (and at most 100 ms) after it. Timeouts under 1 s are
 * not shared (the caller gives them a controller of their own, exact to the millisecond).
 *
 * A signal serves a few calls only ({@link USES_PER_SIGNAL}): fetch adds a listener per request
 * to the signal it is given and removes it only once the request is garbage collected, and both
 * adding and removing walk the signal's whole listener list (undici also copies that list on
 * every request), so a signal shared by many calls makes every call pay for all the others
 * (docs/benchmarks.md, "Issue 16 point 6: the client's deadline signal"). A signal whose calls
 * are all done and that serves no more calls is dropped with its timer.
 */

/** The reason a shared deadline signal aborts with; the exchange turns it into its TIMEOUT. */
export const DEADLINE_PASSED: unique symbol = Symbol('a2a-kit deadline passed');

/** Shortest timeout that shares a signal, ms. */
export const SHARED_FROM_MS = 1000;
const MAX_SLOT_MS = 100;
/** Calls per signal before a slot starts a fresh one. */
export const USES_PER_SIGNAL = 32;

/** The shared deadline of one call: its signal, handed back with {@link releaseDeadline}. */
export interface SharedDeadline {
  readonly signal: AbortSignal;
}

interface Slot extends SharedDeadline {
  readonly controller: AbortController;
  readonly end: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Calls given this signal. */
  uses: number;
  /** Calls given this signal and not released yet. */
  open: number;
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
 * The shared deadline of a call whose deadline is `timeoutMs` from now (`timeoutMs` ≥
 * {@link SHARED_FROM_MS}); its signal aborts with {@link DEADLINE_PASSED} once the slot has
 * ended. Hand it back with {@link releaseDeadline} when the call is over.
 */
export function sharedDeadline(timeoutMs: number, now: number = Date.now()): SharedDeadline {
  const width = Math.min(MAX_SLOT_MS, Math.floor(timeoutMs / 100));
  const end = Math.ceil((now + timeoutMs) / width) * width;
  let slot = slots.get(end);
  if (slot === undefined || slot.uses >= USES_PER_SIGNAL) {
    const controller = new AbortController();
    const signal = controller.signal;
    setMaxListeners?.(USES_PER_SIGNAL + 1, signal);
    const fresh: Slot = { signal, controller, end, timer: undefined, uses: 0, open: 0 };
    slot = fresh;
    slots.set(end, fresh);
    fresh.timer = setTimeout(
      () => {
        fresh.timer = undefined;
        if (slots.get(end) === fresh) slots.delete(end);
        controller.abort(DEADLINE_PASSED);
      },
      Math.max(0, end - now),
    );
    // The request in flight keeps the process alive, not the deadline of a call that ended.
    (fresh.timer as { unref?: () => void }).unref?.();
  }
  slot.uses++;
  slot.open++;
  return slot;
}

/**
 * The call given `deadline` is over (answered, failed or abandoned): once every call of a signal
 * that serves no more calls is over, its timer is cleared and the signal dropped (never aborted).
 */
export function releaseDeadline(deadline: SharedDeadline): void {
  const slot = deadline as Slot;
  if (--slot.open > 0 || slot.uses < USES_PER_SIGNAL || slot.timer === undefined) return;
  clearTimeout(slot.timer);
  slot.timer = undefined;
  if (slots.get(slot.end) === slot) slots.delete(slot.end);
}
