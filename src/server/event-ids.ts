/**
 * The resume point of a reconnecting SubscribeToTask (spec §3.1.6): the client's last event id
 * (HTTP `Last-Event-ID`, gRPC `last-event-id` metadata), resolved to the log sequence number the
 * replay continues after. The id forms are core/event-cursor.ts's: a sequence number, or a gRPC
 * cursor `B+n` counted here over the streamed entries of the task's log.
 */
import { A2AError, boundText } from '../core/errors.js';
import { parseEventCursor } from '../core/event-cursor.js';
import type { Scope, TaskStore } from '../stores/types.js';
import { isStreamed } from './task-stream.js';

const PAGE = 200;
const PAGE_BYTES = 4 * 1024 * 1024;

/**
 * The sequence number after which the stream resumes, or undefined when the client sent no id.
 * INVALID_PARAMS (field `Last-Event-ID`) when the id is not one this server sends, or names an
 * event beyond the task's last (`lastSeq`).
 */
export async function resumeSeq(
  store: TaskStore,
  scope: Scope,
  taskId: string,
  lastEventId: string | undefined,
  lastSeq: number,
): Promise<number | undefined> {
  if (lastEventId === undefined || lastEventId === '') return undefined;
  const cursor = parseEventCursor(lastEventId);
  if (!cursor) {
    throw new A2AError(
      'INVALID_PARAMS',
      `Last-Event-ID must be an event id this server sent, not "${boundText(lastEventId, 64)}"`,
      {
        fieldViolations: [
          {
            field: 'Last-Event-ID',
            description: 'must be a sequence number or a gRPC cursor B+n (non-negative integers)',
          },
        ],
      },
    );
  }
  if (cursor.base > lastSeq) throw beyond(lastEventId, taskId, lastSeq);
  let seq = cursor.base;
  let left = cursor.n;
  while (left > 0) {
    const page = await store.events(scope, taskId, seq, PAGE, PAGE_BYTES);
    if (page.length === 0) throw beyond(lastEventId, taskId, lastSeq);
    for (const entry of page) {
      seq = entry.seq;
      if (isStreamed(entry.event) && --left === 0) break;
    }
  }
  return seq;
}

function beyond(id: string, taskId: string, lastSeq: number): A2AError {
  return new A2AError(
    'INVALID_PARAMS',
    `Last-Event-ID ${boundText(id, 64)} is beyond the last event (${lastSeq}) of task ${taskId}`,
    { fieldViolations: [{ field: 'Last-Event-ID', description: 'is not an event of this task' }] },
  );
}
