/**
 * What tells a retry (the same message sent again) from another message that reuses its
 * messageId: the message's canonical JSON text (RFC 8785), which covers every field (its parts,
 * taskId, contextId, metadata, extensions, references), so two encodings of one message (any
 * binding, any key order) have the same text. Two messages are the same when their texts are.
 *
 * What the message index keeps of a message (`MessageIndexing.fingerprint`, opaque to stores) is
 * one of two tokens, made when the message is recorded:
 * - a **history reference** (`@<position><taskId><contextId>`): the message is the task's history
 *   entry at that position, as recorded (`{ ...sent, taskId, contextId }`, task-runner.ts), and
 *   the two letters say what the sender put in `taskId` and `contextId` (`a` absent, `e` the empty
 *   string, `v` the value the task recorded), so the message as sent is rebuilt from the task
 *   when a retry has to be told from another message — never for a fresh messageId, which costs
 *   no canonical form and no hash;
 * - a **fingerprint** (22 URL-safe base64 characters, 132 bits of the SHA-256 of the text) when
 *   the history will not hold the message at a known position (an answer whose messageId is the
 *   one of the task's last message: the history keeps one entry for both), or when the sender's
 *   ids are values the task does not record (not strings). Rows written by earlier versions hold
 *   fingerprints too: they are compared as before.
 *
 * Synchronous (security/sha256.ts); the canonical text is written by the audit chain's writer
 * for A2A shapes (security/audit-canonical.ts).
 */
import type { Message, Task } from '../core/schemas/index.js';
import { canonicalMessage } from '../security/audit-canonical.js';
import { sha256Base64Url } from '../security/sha256.js';

export { nativeSha256, portableSha256 } from '../security/sha256.js';

/** The canonical text of a message (what retries are compared by). */
export function messageText(message: Message): string {
  try {
    return canonicalMessage(message);
  } catch {
    // A value RFC 8785 has no form for (a lone surrogate): the plain JSON text still tells
    // messages apart, only not across key orders.
    return JSON.stringify(message);
  }
}

/**
 * The first 22 characters (132 bits) of the URL-safe base64 SHA-256 of the canonical message.
 */
export function messageFingerprint(message: Message): string {
  return textFingerprint(messageText(message));
}

/** The fingerprint of a message whose canonical text (`messageText`) is `text`. */
export function textFingerprint(text: string): string {
  return sha256Base64Url(text).slice(0, 22);
}

/** What the sender put in an id the task records: absent, `''`, or the recorded value itself. */
type IdForm = 'a' | 'e' | 'v';

function idForm(sent: unknown, recorded: string): IdForm | undefined {
  if (sent === undefined) return 'a';
  if (sent === '') return 'e';
  return sent === recorded ? 'v' : undefined;
}

/** The history references of a task's first message (position 0), by the two id forms. */
const FIRST: Record<string, string> = {};
for (const t of ['a', 'e', 'v']) for (const c of ['a', 'e', 'v']) FIRST[t + c] = `@0${t}${c}`;

/**
 * The index token of a message recorded as entry `position` of a task's history with the ids
 * `taskId` and `contextId`: a history reference, or the message's fingerprint when the message
 * cannot be rebuilt from the task (see the header).
 */
export function indexToken(
  message: Message,
  position: number,
  taskId: string,
  contextId: string,
): string {
  const t = idForm(message.taskId, taskId);
  const c = idForm(message.contextId, contextId);
  if (t === undefined || c === undefined) return messageFingerprint(message);
  return position === 0 ? (FIRST[t + c] as string) : `@${position}${t}${c}`;
}

/**
 * The index token of a message that answers (resumes) `task`: appended to its history, unless the
 * history's last entry has the same messageId (the history keeps one of the two).
 */
export function answerToken(message: Message, task: Task): string {
  const history = task.history ?? [];
  const last = history[history.length - 1];
  if (last !== undefined && last.messageId === message.messageId) {
    return messageFingerprint(message);
  }
  return indexToken(message, history.length, task.id, task.contextId ?? '');
}

const REFERENCE = /^@(\d+)([aev])([aev])$/;

/**
 * The message a history reference stands for, as its sender sent it: rebuilt from the task's
 * history. Undefined when `token` is not a reference or the task holds no such entry.
 */
export function sentMessage(token: string, task: Task): Message | undefined {
  if (token.charCodeAt(0) !== 64 /* @ */) return undefined;
  const match = REFERENCE.exec(token);
  if (match === null) return undefined;
  const recorded = task.history?.[Number(match[1])];
  if (recorded === undefined) return undefined;
  const sent: Message = { ...recorded };
  rebuild(sent, 'taskId', match[2] as IdForm);
  rebuild(sent, 'contextId', match[3] as IdForm);
  return sent;
}

function rebuild(message: Message, id: 'taskId' | 'contextId', form: IdForm): void {
  if (form === 'a') delete message[id];
  else if (form === 'e') message[id] = '';
}

/** True for a history reference (as opposed to a fingerprint, or `''`: none). */
export function isReference(token: string): boolean {
  return token.charCodeAt(0) === 64;
}
