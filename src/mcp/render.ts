/**
 * A2A results as MCP tool results (`CallToolResult`): a header line with the task's id and state,
 * the status message, then the artifacts as content blocks (text, JSON text, images, links).
 * Large text and data are cut at `inlineChars` with a note naming the artifact viewer that pages
 * through the rest, so one big artifact never floods the model's context.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../core/parts.js';
import type { Artifact, Message, Part, Task } from '../core/schemas/index.js';
import { isInterrupted } from '../core/task-state.js';
import { displayLines } from './artifact-viewers.js';

type Content = CallToolResult['content'][number];

/** Default longest inline text of one part (characters). */
export const DEFAULT_INLINE_CHARS = 4000;

const FAILED = new Set(['TASK_STATE_FAILED', 'TASK_STATE_REJECTED']);

/** How to continue a task that waits for the caller, in words a model can follow. */
export function howToContinue(task: Task): string {
  const id = task.id;
  return task.status.state === 'TASK_STATE_AUTH_REQUIRED'
    ? `The agent needs authorization first. Once it is granted, call send_message with {"taskId": "${id}", "text": "..."} to continue, or cancel_task {"taskId": "${id}"}.`
    : `The agent is waiting for your answer: call send_message with {"taskId": "${id}", "text": "<your answer>"} to continue this task, or cancel_task {"taskId": "${id}"}.`;
}

/** The tool result for a task (terminal, or paused for input). */
export function taskResult(task: Task, inlineChars = DEFAULT_INLINE_CHARS): CallToolResult {
  const state = task.status.state;
  const lines = [`A2A task ${task.id} is ${state}.`];
  const said = textOf(task.status.message);
  if (said) lines.push(said);
  if (isInterrupted(state)) lines.push(howToContinue(task));
  const content: Content[] = [{ type: 'text', text: lines.join('\n') }];
  for (const artifact of task.artifacts ?? [])
    content.push(...artifactContent(task, artifact, inlineChars));
  return {
    content,
    structuredContent: {
      taskId: task.id,
      ...(task.contextId !== undefined ? { contextId: task.contextId } : {}),
      state,
      artifacts: (task.artifacts ?? []).map((a) => ({
        artifactId: a.artifactId,
        ...(a.name !== undefined ? { name: a.name } : {}),
      })),
    },
    ...(FAILED.has(state) ? { isError: true } : {}),
  };
}

/** The tool result for a direct Message reply (no task was created, spec §3.1.1). */
export function messageResult(
  message: Message,
  inlineChars = DEFAULT_INLINE_CHARS,
): CallToolResult {
  const content = message.parts.flatMap((p) => partContent(p, inlineChars, () => ''));
  return { content: content.length ? content : [{ type: 'text', text: '(empty reply)' }] };
}

function artifactContent(task: Task, artifact: Artifact, inlineChars: number): Content[] {
  const label = artifact.name ? `${artifact.name} (${artifact.artifactId})` : artifact.artifactId;
  const more = (kind: 'text' | 'data', total: number) =>
    `\n[... artifact ${label} is ${total} ${kind === 'text' ? 'lines' : 'characters of JSON'} in all; read the rest with view_${kind}_artifact {"taskId": "${task.id}", "artifactId": "${artifact.artifactId}"}]`;
  // The text parts of one artifact (a streamed artifact has one per chunk) read as one text,
  // joined by newlines as textOf() does, so the limit holds for the artifact, not per chunk.
  const text = artifact.parts.some((p) => typeof p.text === 'string')
    ? textOf(artifact)
    : undefined;
  const rest = artifact.parts.filter((p) => typeof p.text !== 'string');
  return [
    ...(text !== undefined
      ? [{ type: 'text' as const, text: cut(text, inlineChars, 'text', more) }]
      : []),
    ...rest.flatMap((part) => partContent(part, inlineChars, more)),
  ];
}

function cut(
  text: string,
  inlineChars: number,
  kind: 'text' | 'data',
  note: (kind: 'text' | 'data', total: number) => string,
): string {
  if (text.length <= inlineChars) return text;
  const total = kind === 'text' ? displayLines(text).length : text.length;
  return text.slice(0, inlineChars) + note(kind, total);
}

function partContent(
  part: Part,
  inlineChars: number,
  note: (kind: 'text' | 'data', total: number) => string,
): Content[] {
  if (typeof part.text === 'string') {
    return [{ type: 'text', text: cut(part.text, inlineChars, 'text', note) }];
  }
  if (part.data !== undefined) {
    return [
      { type: 'text', text: cut(JSON.stringify(part.data, null, 1), inlineChars, 'data', note) },
    ];
  }
  const mimeType = part.mediaType ?? 'application/octet-stream';
  if (typeof part.url === 'string') {
    return [{ type: 'resource_link', uri: part.url, name: part.filename ?? part.url, mimeType }];
  }
  if (typeof part.raw === 'string') {
    if (mimeType.startsWith('image/')) return [{ type: 'image', data: part.raw, mimeType }];
    if (mimeType.startsWith('audio/')) return [{ type: 'audio', data: part.raw, mimeType }];
    const uri = `a2a-artifact:${encodeURIComponent(part.filename ?? 'file')}`;
    return [{ type: 'resource', resource: { uri, mimeType, blob: part.raw } }];
  }
  return [];
}
