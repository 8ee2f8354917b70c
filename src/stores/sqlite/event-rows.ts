/**
 * How the SQLite log keeps the events of one write: one `events` row per write (schema version
 * 9), keyed by the seq of its last event. Its `event` column holds the events' JSON texts one per
 * line, its `hash` column their audit-chain links the same way (NULL when audit was off). JSON as
 * `JSON.stringify` and RFC 8785 write it never holds a raw line feed, so the lines are the events.
 * A write of one event is a row of one line, which is how versions before 9 kept every event, so
 * their files read unchanged. The creation event (seq 1, the first checkpoint) is always a row of
 * its own.
 *
 * Why: each row is one statement and two B-tree inserts (the table and its primary key). A
 * blocking send whose agent finishes at once writes its task in two log rows (the creation, then
 * the burst) instead of one per event.
 */

/** One row of the log as stored. */
export interface EventRow {
  /** The seq of the row's last event. */
  seq: number;
  /** The events' JSON texts, one per line. */
  event: string;
  /** Their audit chain links, one per line (NULL when audit was off). */
  hash: string | null;
}

/** The `event` and `hash` columns of the row of one write's events (at least one). */
export function eventRow(
  texts: readonly string[],
  chain: readonly (string | undefined)[] | undefined,
): { event: string; hash: string | null } {
  if (texts.length === 1) return { event: texts[0] as string, hash: chain?.[0] ?? null };
  const hashes = chain?.slice(0, texts.length).map((hash) => hash ?? '');
  return { event: texts.join('\n'), hash: hashes?.some(Boolean) ? hashes.join('\n') : null };
}

/** One event of a row, its JSON not parsed yet. */
export interface RowLine {
  readonly seq: number;
  readonly text: string;
  readonly hash: string | null;
}

/** The events of a row after `afterSeq`, in order (a row may start before it). */
export function rowLines(row: EventRow, afterSeq = 0): RowLine[] {
  const texts = row.event.split('\n');
  const hashes = row.hash?.split('\n');
  const first = row.seq - texts.length + 1;
  const lines: RowLine[] = [];
  for (let i = Math.max(0, afterSeq + 1 - first); i < texts.length; i++) {
    lines.push({ seq: first + i, text: texts[i] as string, hash: hashes?.[i] || null });
  }
  return lines;
}
