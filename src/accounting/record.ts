/**
 * Where the accounting extension keeps its per-task record (docs/extensions/accounting.md §5):
 * in `metadata[ACCOUNTING_EXTENSION]` of the agent messages it writes — the quote's
 * INPUT_REQUIRED status message and the final status message — which the task keeps as
 * `status.message` and in `history` (spec §4.1.1, §4.1.4). A status update's own `metadata` is
 * metadata of that update only (spec §4.2.1): it is not projected onto the Task, so the record
 * rides on messages, which are part of the task.
 */
import type { Message, Task } from '../core/schemas/index.js';
import { accountingMetadata } from './extension.js';
import type { Amount } from './quantities.js';
import type { MeterState } from './meter.js';
import type { Quote, Statement } from './schemas.js';

/** What the extension keeps in `Message.metadata[ACCOUNTING_EXTENSION]` of its agent messages. */
export interface AccountingRecord {
  quote?: Quote;
  /** The messageId of the message that asked the quote: what the authorized run works on. */
  requestMessageId?: string;
  authorization?: { jti: string; iss: string; cap: Amount };
  /** Every authorization id presented on this task (replay protection, durable in the store). */
  used?: string[];
  meter?: MeterState;
  refusal?: { reason: string; message: string };
  statement?: Statement;
}

type Recorded = Pick<Task, 'status'> & Partial<Pick<Task, 'history' | 'metadata'>>;

function fromMessage(message: Message | undefined): AccountingRecord | undefined {
  if (message?.role !== 'ROLE_AGENT') return undefined;
  return accountingMetadata(message.metadata);
}

/**
 * The task's latest accounting record: on its status message, else on the newest agent message
 * of its history that has one (a later WORKING update replaced the status message), else in
 * `Task.metadata` (an agent may write it there itself).
 */
export function recordOf(task: Recorded): AccountingRecord | undefined {
  const onStatus = fromMessage(task.status.message);
  if (onStatus) return onStatus;
  const history = task.history ?? [];
  for (let i = history.length - 1; i >= 0; i--) {
    const found = fromMessage(history[i]);
    if (found) return found;
  }
  return accountingMetadata(task.metadata);
}

/** The statement on a finished task, if the accounting extension wrote one. */
export function statementOf(task: Recorded): Statement | undefined {
  return recordOf(task)?.statement;
}

/** The quote a task in INPUT_REQUIRED offers, if any. */
export function quoteOf(task: Recorded): Quote | undefined {
  return recordOf(task)?.quote;
}
