/**
 * The client side of the accounting extension (docs/extensions/accounting.md §3–§5): ask a
 * quote, send the signed authorization on the quoted task, read the statement.
 */
import type { A2AClient } from './client.js';
import type { CallOptions } from '../transport/transport.js';
import type { Message, SendMessageRequest, Task } from '../core/schemas/index.js';
import { newId } from '../core/ids.js';
import { A2AError } from '../core/errors.js';
import { ACCOUNTING_EXTENSION, type AccountingRequest } from '../accounting/extension.js';
import { quoteOf, recordOf, type AccountingRecord } from '../accounting/record.js';
import type { Quote } from '../accounting/schemas.js';

/** Call options that activate the extension (`A2A-Extensions`, spec §4.6.1). */
export function withAccountingExtension(options: CallOptions = {}): CallOptions {
  const existing = options.headers?.['A2A-Extensions'];
  return {
    ...options,
    headers: {
      ...options.headers,
      'A2A-Extensions': existing ? `${existing}, ${ACCOUNTING_EXTENSION}` : ACCOUNTING_EXTENSION,
    },
  };
}

/** `message` with the extension's request object in its metadata. */
export function withAccountingRequest(message: Message, request: AccountingRequest): Message {
  return { ...message, metadata: { ...message.metadata, [ACCOUNTING_EXTENSION]: request } };
}

/** A quote and the task (INPUT_REQUIRED) it belongs to. */
export interface Quoted {
  quote: Quote;
  task: Task;
}

/** Options of {@link requestQuote}. */
export interface QuoteOptions extends CallOptions {
  skill?: string;
  units?: string;
}

/**
 * Sends `message` asking for a quote: the agent answers with the task in INPUT_REQUIRED and the
 * quote (the task is not run until authorized). Throws when the agent gave no quote.
 */
export async function requestQuote(
  client: A2AClient,
  message: Message,
  options: QuoteOptions = {},
): Promise<Quoted> {
  const { skill, units, ...call } = options;
  const request: AccountingRequest = { quote: true };
  if (skill !== undefined) request.skill = skill;
  if (units !== undefined) request.units = units;
  const result = await client.sendMessage(
    {
      message: withAccountingRequest(message, request),
      configuration: { returnImmediately: false },
    },
    withAccountingExtension(call),
  );
  if (!('task' in result)) {
    throw new A2AError('UNSUPPORTED_OPERATION', 'the agent answered with a message, not a quote');
  }
  const quote = quoteOf(result.task);
  if (quote === undefined || result.task.status.state !== 'TASK_STATE_INPUT_REQUIRED') {
    throw new A2AError(
      'UNSUPPORTED_OPERATION',
      `the agent gave no quote (task ${result.task.status.state})`,
    );
  }
  return { quote, task: result.task };
}

/** Options of {@link sendAuthorized}. */
export interface SendAuthorizedOptions extends CallOptions {
  /** The message to send with it (default an empty text "authorized"). */
  message?: Message;
  /** Stream the run instead of waiting for it. */
  configuration?: SendMessageRequest['configuration'];
}

/** Sends the authorization on the quoted task; resolves to the task when it settles. */
export async function sendAuthorized(
  client: A2AClient,
  quote: Quote,
  authorization: string,
  options: SendAuthorizedOptions = {},
): Promise<Task> {
  const { message, configuration, ...call } = options;
  const base: Message = message ?? {
    role: 'ROLE_USER',
    messageId: newId(),
    parts: [{ text: 'authorized' }],
  };
  const result = await client.sendMessage(
    {
      message: withAccountingRequest({ ...base, taskId: quote.taskId }, { authorization }),
      ...(configuration ? { configuration } : {}),
    },
    withAccountingExtension(call),
  );
  if (!('task' in result)) throw new A2AError('INTERNAL', 'the agent answered without its task');
  return result.task;
}

/** The accounting record of a task: quote, authorization, refusal, statement. */
export function accountingOf(task: Task): AccountingRecord | undefined {
  return recordOf(task);
}
