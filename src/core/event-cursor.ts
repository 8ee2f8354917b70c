/**
 * Event ids of a task stream, the resume points of SubscribeToTask (spec §3.1.6, §3.5.1). On the
 * HTTP bindings an id is the log sequence number of the event (the SSE `id:` line). A gRPC stream
 * (spec §10) has no per-message ids, so its events are named from the one cursor the server sends
 * in the stream's initial metadata: `B+n` is "the n-th streamed event after log entry B" (`B+0`,
 * or plain `B`, is entry B itself). Sequence numbers have gaps (messages recorded in a task's log
 * are not streamed), so a client cannot add n to B itself: the server resolves the cursor by
 * counting in the log, which makes `B+n` exact. Both forms are accepted on every binding.
 */

/** A parsed event id: `n` streamed events after log entry `base` (`n` = 0: that entry). */
export interface EventCursor {
  readonly base: number;
  readonly n: number;
}

const FORM = /^(\d{1,16})(?:\+(\d{1,16}))?$/;

/** Parses `B` or `B+n`; undefined when the text is neither (or a number is not exact). */
export function parseEventCursor(text: string): EventCursor | undefined {
  const match = FORM.exec(text);
  if (!match) return undefined;
  const base = Number(match[1]);
  const n = match[2] === undefined ? 0 : Number(match[2]);
  if (!Number.isSafeInteger(base) || !Number.isSafeInteger(n)) return undefined;
  return { base, n };
}

/** The id text of a cursor: plain `B` when n is 0, else `B+n`. */
export function formatEventCursor(cursor: EventCursor): string {
  return cursor.n === 0 ? String(cursor.base) : `${cursor.base}+${cursor.n}`;
}

/** The cursor `k` events after `cursor` (the id of the k-th item that follows it). */
export function advanceEventCursor(cursor: EventCursor, k: number): EventCursor {
  return { base: cursor.base, n: cursor.n + k };
}

/**
 * True when event `id` is not newer than `last`: a repeat to drop. Plain sequence numbers compare
 * by value, cursors with one base by their counts; ids that cannot be compared only when equal.
 */
export function isRepeatEventId(id: string, last: string | undefined): boolean {
  if (last === undefined) return false;
  const a = parseEventCursor(id);
  const b = parseEventCursor(last);
  if (a && b && a.n === 0 && b.n === 0) return a.base <= b.base;
  if (a && b && a.base === b.base) return a.n <= b.n;
  return id === last;
}
