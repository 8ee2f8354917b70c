/**
 * Request complexity limits (spec §13.4, requirement 205 of test/conformance/requirements.ts) applied to validated parameters, the
 * same in every binding: parts per message, size of a message, and history returned per task.
 */
import { A2AError } from '../../core/errors.js';
import { jsonSizeAtMost } from '../../core/json-size.js';
import type { OperationName } from '../../core/operations.js';
import type { RateLimitOptions } from './rate-limit.js';

/** Limits of a server; every field has a default (see {@link DEFAULT_LIMITS}). */
export interface LimitOptions {
  /** Most parts in one message (default 256). */
  readonly maxPartsPerMessage?: number | undefined;
  /** Largest message, as UTF-8 JSON, in bytes (default 8 MiB; the body limit applies too). */
  readonly maxMessageBytes?: number | undefined;
  /** Most history messages returned per task; an unset or larger `historyLength` is capped (default 1000). */
  readonly maxHistoryLength?: number | undefined;
  /** Requests per caller (principal, else IP address); default off. */
  readonly rateLimit?: RateLimitOptions | false | undefined;
  /** Open streams per caller (principal, else IP address); default off. */
  readonly maxConcurrentStreams?: number | false | undefined;
  /**
   * Open streams from one client address, whoever the caller (default 256), on every binding.
   * Behind a proxy every client has the proxy's address: raise it, or set `false`.
   */
  readonly maxStreamsPerAddress?: number | false | undefined;
}

/** The defaults of {@link LimitOptions}. */
export const DEFAULT_LIMITS = {
  maxPartsPerMessage: 256,
  maxMessageBytes: 8 * 1024 * 1024,
  maxHistoryLength: 1000,
  rateLimit: false,
  maxConcurrentStreams: false,
  maxStreamsPerAddress: 256,
} as const;

/** The resolved message limits. */
export interface MessageLimits {
  readonly maxPartsPerMessage: number;
  readonly maxMessageBytes: number;
  readonly maxHistoryLength: number;
}

const encoder = new TextEncoder();

/** UTF-8 size of `text`, computed only when the UTF-16 length cannot decide against `max`. */
function exceeds(text: string, max: number): boolean {
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  return encoder.encode(text).byteLength > max;
}

interface MessageParams {
  message?: { parts?: readonly unknown[] };
  historyLength?: number | undefined;
}

/**
 * Checks the message of a send, and caps the `historyLength` of GetTask and ListTasks; returns
 * the parameters to use (a copy when capped). Throws INVALID_PARAMS or PAYLOAD_TOO_LARGE.
 */
export function applyMessageLimits(
  name: OperationName,
  params: unknown,
  limits: MessageLimits,
): unknown {
  const p = params as MessageParams;
  const maxHistory = limits.maxHistoryLength;
  if (name === 'SendMessage' || name === 'SendStreamingMessage') {
    const parts = p.message?.parts?.length ?? 0;
    if (parts > limits.maxPartsPerMessage) {
      throw new A2AError(
        'INVALID_PARAMS',
        `the message has ${parts} parts; this agent accepts at most ${limits.maxPartsPerMessage}`,
        {
          fieldViolations: [
            { field: 'message.parts', description: `at most ${limits.maxPartsPerMessage} parts` },
          ],
        },
      );
    }
    // Measured exactly (serialized) only when the bound cannot tell: a message well within the
    // limit, the common case, is not written out again.
    const max = limits.maxMessageBytes;
    if (!jsonSizeAtMost(p.message, max) && exceeds(JSON.stringify(p.message), max)) {
      throw new A2AError(
        'PAYLOAD_TOO_LARGE',
        `the message exceeds the limit of ${limits.maxMessageBytes} bytes`,
        { metadata: { maxMessageBytes: String(limits.maxMessageBytes) } },
      );
    }
    return params; // the reply's history is capped by capHistory: the agent sees the request as sent
  }
  if (name === 'GetTask' || name === 'ListTasks') {
    // Only an explicit larger value is lowered here; an unset one is capped on the reply.
    const asked = p.historyLength;
    return asked === undefined || asked <= maxHistory
      ? params
      : { ...p, historyLength: maxHistory };
  }
  return params;
}

interface WithHistory {
  history?: unknown[];
}

/** `task` with at most the last `max` history messages (the same object when within). */
function capTask<T extends WithHistory | undefined>(task: T, max: number): T {
  const history = task?.history;
  if (task === undefined || history === undefined || history.length <= max) return task;
  return { ...task, history: history.slice(history.length - max) };
}

/**
 * Caps the history in the result of `name` (or in a stream event) to the last `max` messages:
 * a Task (GetTask, CancelTask), `{ task }` (SendMessage, stream events), `{ tasks }`
 * (ListTasks). Returns a copy only when something was cut.
 */
export function capHistory<T>(value: T, max: number, name?: OperationName): T {
  if (typeof value !== 'object' || value === null) return value;
  if (name === 'GetTask' || name === 'CancelTask') return capTask(value as WithHistory, max) as T;
  if (name === 'ListTasks') {
    const page = value as { tasks?: WithHistory[] };
    if (!page.tasks?.some((t) => (t.history?.length ?? 0) > max)) return value;
    return { ...page, tasks: page.tasks.map((t) => capTask(t, max)) } as T;
  }
  const record = value as { task?: WithHistory };
  const task = capTask(record.task, max);
  return task === record.task ? value : ({ ...record, task } as T);
}
