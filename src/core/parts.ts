/** Helpers that build and read parts and messages. */
import { toBase64 } from './base64.js';
import { newId } from './ids.js';
import type { Message, Part, Role } from './schemas/index.js';

type PartOptions = { mediaType?: string; filename?: string; metadata?: Record<string, unknown> };

function withOptions<P extends Part>(part: P, options: PartOptions): P {
  if (options.mediaType !== undefined) part.mediaType = options.mediaType;
  if (options.filename !== undefined) part.filename = options.filename;
  if (options.metadata !== undefined) part.metadata = options.metadata;
  return part;
}

/** A text part. */
export function textPart(text: string, options: PartOptions = {}): Part {
  return withOptions({ text }, options);
}

/** A structured data part (any JSON value). */
export function dataPart(data: unknown, options: PartOptions = {}): Part {
  return withOptions({ data }, options);
}

/** A file referenced by URL. */
export function fileUrlPart(url: string, options: PartOptions = {}): Part {
  return withOptions({ url }, options);
}

/** A file given inline: bytes are base64-encoded (strings are taken as base64 already). */
export function rawPart(bytes: Uint8Array | string, options: PartOptions = {}): Part {
  const raw = typeof bytes === 'string' ? bytes : toBase64(bytes);
  return withOptions({ raw }, options);
}

/** The text of a message, an artifact or a part list: its text parts joined by newlines. */
export function textOf(source: { parts: readonly Part[] } | readonly Part[] | undefined): string {
  if (!source) return '';
  const parts = Array.isArray(source) ? source : (source as { parts: readonly Part[] }).parts;
  return parts
    .filter((p): p is Part & { text: string } => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/** The data of the first `data` part, if any. */
export function dataOf(source: { parts: readonly Part[] } | undefined): unknown {
  return source?.parts.find((p) => p.data !== undefined)?.data;
}

type MessageOptions = Partial<Omit<Message, 'role' | 'parts'>>;

/** A message of `role` with a fresh `messageId`; a string becomes one text part. */
export function createMessage(
  role: Role,
  content: string | Part[],
  options: MessageOptions = {},
): Message {
  return {
    messageId: options.messageId ?? newId(),
    ...options,
    role,
    parts: typeof content === 'string' ? [textPart(content)] : content,
  };
}

/** A ROLE_USER message (what a client sends). */
export function userMessage(content: string | Part[], options: MessageOptions = {}): Message {
  return createMessage('ROLE_USER', content, options);
}

/** A ROLE_AGENT message. */
export function agentMessage(content: string | Part[], options: MessageOptions = {}): Message {
  return createMessage('ROLE_AGENT', content, options);
}
