/** Readable renderings of states, parts, messages and artifacts, shared by every verb. */
import type { Artifact, Message, Part, TaskState } from '../../core/schemas/index.js';
import type { Style } from '../io.js';

/** `TASK_STATE_INPUT_REQUIRED` → `INPUT_REQUIRED`. */
export function shortState(state: TaskState): string {
  return state.replace(/^TASK_STATE_/, '');
}

/** The short state name, colored by what it means. */
export function stateLabel(state: TaskState, style: Style): string {
  const name = shortState(state);
  switch (state) {
    case 'TASK_STATE_COMPLETED':
      return style.green(name);
    case 'TASK_STATE_FAILED':
    case 'TASK_STATE_REJECTED':
      return style.red(name);
    case 'TASK_STATE_CANCELED':
      return style.yellow(name);
    case 'TASK_STATE_INPUT_REQUIRED':
    case 'TASK_STATE_AUTH_REQUIRED':
      return style.magenta(name);
    case 'TASK_STATE_SUBMITTED':
    case 'TASK_STATE_WORKING':
      return style.cyan(name);
  }
}

/** `ROLE_AGENT` → `agent`. */
export function roleName(role: Message['role']): string {
  return role.replace(/^ROLE_/, '').toLowerCase();
}

/** One part as text: text as is, data as JSON, files as a bracketed description. */
export function partText(part: Part): string {
  if (part.text !== undefined) return part.text;
  if (part.data !== undefined) return JSON.stringify(part.data);
  const name = part.filename ? `${part.filename}, ` : '';
  const type = part.mediaType ?? 'unknown type';
  if (part.raw !== undefined) {
    return `[file ${name}${type}, ${base64Size(part.raw)} bytes]`;
  }
  if (part.url !== undefined) return `[file ${name}${type} at ${part.url}]`;
  return '[empty part]';
}

/** Every part of a message or artifact, one per line. */
export function partsText(parts: readonly Part[]): string {
  return parts.map(partText).join('\n');
}

/** A message on one line: `agent: text`. */
export function messageLine(message: Message): string {
  return `${roleName(message.role)}: ${oneLine(partsText(message.parts))}`;
}

/** An artifact's heading: its name (or id) and the id. */
export function artifactTitle(artifact: Artifact): string {
  return artifact.name ? `${artifact.name} (${artifact.artifactId})` : artifact.artifactId;
}

/** Newlines and runs of spaces folded into single spaces, cut at `max` characters. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `text` with every line indented by `prefix`. */
export function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((line) => (line ? prefix + line : line))
    .join('\n');
}

/** A timestamp as `YYYY-MM-DD HH:MM:SSZ` (or `-`). */
export function shortTime(timestamp: string | undefined): string {
  if (!timestamp) return '-';
  return timestamp.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function base64Size(raw: string): number {
  const clean = raw.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

/** Left-aligned columns; the last column is not padded. */
export function table(rows: readonly (readonly string[])[], gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))));
  }
  return rows.map((row) =>
    row
      .map((cell, i) =>
        i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visibleLength(cell)),
      )
      .join(gap)
      .trimEnd(),
  );
}

/** Length without ANSI color codes. */
export function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '').length;
}

/** `text` word-wrapped to `width` columns, each line prefixed with `prefix`. */
export function wrap(text: string, width: number, prefix = ''): string {
  const room = Math.max(20, width - prefix.length);
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > room) {
        out.push(prefix + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(prefix + line);
  }
  return out.join('\n');
}
