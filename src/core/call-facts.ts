/**
 * The task and context ids an operation is about, read from its validated params and from its
 * result or stream events: what request logs and trace spans are keyed by. Reads ids only,
 * never content (no parts, no credentials).
 */
import { isA2AError } from './errors.js';

/** Ids known about one call; absent members are unknown. */
export interface CallFacts {
  taskId?: string;
  contextId?: string;
  /** The task state the call saw last (a result's status, a stream's last status update). */
  state?: string;
}

type Loose = Record<string, unknown> | undefined;

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Ids from the params of any operation (`id`, `taskId`, `message.taskId`/`contextId`). */
export function paramFacts(params: unknown, into: CallFacts = {}): CallFacts {
  if (typeof params !== 'object' || params === null) return into;
  const p = params as Record<string, unknown>;
  const message = p['message'] as Loose;
  const taskId = str(p['taskId']) ?? str(p['id']) ?? str(message?.['taskId']);
  const contextId = str(message?.['contextId']) ?? str(p['contextId']);
  if (taskId !== undefined) into.taskId = taskId;
  if (contextId !== undefined) into.contextId = contextId;
  return into;
}

/**
 * Ids and state from a result or one stream event: a Task, `{ task }`, `{ message }`,
 * `{ statusUpdate }`, `{ artifactUpdate }`. Later facts overwrite earlier ones.
 */
export function resultFacts(result: unknown, into: CallFacts = {}): CallFacts {
  if (typeof result !== 'object' || result === null) return into;
  const r = result as Record<string, unknown>;
  const inner =
    (r['task'] as Loose) ??
    (r['statusUpdate'] as Loose) ??
    (r['artifactUpdate'] as Loose) ??
    (r['message'] as Loose) ??
    r;
  const taskId =
    str(inner['taskId']) ?? (r['task'] || 'status' in inner ? str(inner['id']) : undefined);
  const contextId = str(inner['contextId']);
  const state = str((inner['status'] as Loose)?.['state']);
  if (taskId !== undefined) into.taskId = taskId;
  if (contextId !== undefined) into.contextId = contextId;
  if (state !== undefined) into.state = state;
  return into;
}

/** The A2A error code of a failure (`INTERNAL` for anything that is not an A2AError). */
export function errorCode(error: unknown): string {
  return isA2AError(error) ? error.code : 'INTERNAL';
}
