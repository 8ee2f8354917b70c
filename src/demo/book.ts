/** `book`: the multi-turn flow. Asks for a date (INPUT_REQUIRED), then confirms the booking. */
import { newId } from '../index.js';
import type { Message, Part } from '../index.js';
import {
  dataOf,
  dataPart,
  textOf,
  textPart,
  type AgentEvent,
  type ExecutionContext,
} from '../server/index.js';
import { isRecord } from './command.js';

/** The question the agent asks while the task waits for input. */
export const DATE_QUESTION =
  'Which date? Answer on this task with YYYY-MM-DD as text, or as a data part {"date": "2026-12-24"}.';

/** What the confirmation artifact's data part holds. */
export interface Booking {
  bookingId: string;
  date: string;
  status: 'confirmed';
}

/** First turn: WORKING, then INPUT_REQUIRED asking which date. */
export async function* book({ task }: ExecutionContext): AsyncIterable<AgentEvent> {
  yield task.working('Looking for a free table.');
  yield task.inputRequired(DATE_QUESTION);
}

/** The answer (same taskId): a valid date completes the booking, anything else asks again. */
export async function* bookAnswer(context: ExecutionContext): AsyncIterable<AgentEvent> {
  const { task, message } = context;
  const date = dateIn(message);
  if (date === undefined) {
    yield task.inputRequired(`I could not read a valid date in your answer. ${DATE_QUESTION}`);
    return;
  }
  yield task.working(`Booking a table on ${date}.`);
  const booking: Booking = { bookingId: `BK-${newId().slice(0, 8)}`, date, status: 'confirmed' };
  yield task.artifact(confirmationParts(booking, context.configuration?.acceptedOutputModes), {
    name: 'booking-confirmation',
  });
  yield task.completed(`Booked: ${booking.bookingId} on ${date}.`);
}

/** The date of an answer: `{"date": "..."}` in a data part, else the first YYYY-MM-DD in the text. */
export function dateIn(message: Message): string | undefined {
  const data = dataOf(message);
  const candidate =
    isRecord(data) && typeof data.date === 'string'
      ? data.date.trim()
      : /\b\d{4}-\d{2}-\d{2}\b/.exec(textOf(message))?.[0];
  return candidate !== undefined && isCalendarDate(candidate) ? candidate : undefined;
}

/** True for an existing day written YYYY-MM-DD (rejects 2026-02-30). */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

/**
 * The confirmation as a data part and a text part, keeping only the kinds the client accepts
 * when it sent `acceptedOutputModes` (spec §3.2.1: agents SHOULD honour them).
 */
function confirmationParts(booking: Booking, accepted: readonly string[] | undefined): Part[] {
  const data = dataPart(booking, { mediaType: 'application/json' });
  const text = textPart(`Your table is booked for ${booking.date} (booking ${booking.bookingId}).`);
  if (!accepted?.length) return [data, text];
  const wants = (type: string) => accepted.some((a) => accepts(a, type));
  const parts = [
    ...(wants('application/json') ? [data] : []),
    ...(wants('text/plain') ? [text] : []),
  ];
  return parts.length > 0 ? parts : [data, text];
}

function accepts(accepted: string, type: string): boolean {
  const a = accepted.split(';')[0]?.trim().toLowerCase() ?? '';
  return a === type || a === '*/*' || a === `${type.split('/')[0] ?? ''}/*`;
}
