/** Cursor pagination shared by the stores: newest status timestamp first, ties by id. */
import { base64UrlOfText, textOfBase64Url } from '../core/base64.js';
import type { Task } from '../core/schemas/index.js';
import { InvalidPageTokenError } from './types.js';

/** The sort key of a task in ListTasks order. */
export interface Cursor {
  readonly timestamp: string;
  readonly id: string;
}

/** Comparator: newer status timestamp first, then id descending (a total order). */
export function newestFirst(a: Task | Cursor, b: Task | Cursor): number {
  const ta = 'status' in a ? (a.status.timestamp ?? '') : a.timestamp;
  const tb = 'status' in b ? (b.status.timestamp ?? '') : b.timestamp;
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** An opaque token for the page after `last` (spec §3.1.4: cursor-based, never offsets). */
export function encodePageToken(last: Task): string {
  return base64UrlOfText(JSON.stringify([last.status.timestamp ?? '', last.id]));
}

/** Decodes a page token; throws {@link InvalidPageTokenError} on anything we did not issue. */
export function decodePageToken(token: string): Cursor {
  try {
    const value: unknown = JSON.parse(textOfBase64Url(token));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { timestamp: value[0] as string, id: value[1] as string };
    }
  } catch {
    // fall through
  }
  throw new InvalidPageTokenError('pageToken is not a token this server issued');
}

/**
 * The rows of a page within its byte budget: at most `pageSize`, ending before the row whose
 * `bytes` would take the page past `maxBytes` (the first row always in). `more` is true when
 * rows were left for the next page. `rows` may hold one row beyond `pageSize`, which only tells
 * that another page exists.
 */
export function withinBytes<T extends { bytes?: number | string | null }>(
  rows: readonly T[],
  pageSize: number,
  maxBytes: number | undefined,
): { rows: T[]; more: boolean } {
  const limit = Math.min(rows.length, pageSize);
  let taken = limit;
  if (maxBytes !== undefined && Number.isFinite(maxBytes)) {
    let total = 0;
    for (let i = 0; i < limit; i++) {
      total += Number((rows[i] as T).bytes ?? 0);
      if (i > 0 && total > maxBytes) {
        taken = i;
        break;
      }
    }
  }
  return { rows: rows.slice(0, taken), more: rows.length > taken };
}
